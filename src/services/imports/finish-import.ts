import { and, count, eq, isNull, sql } from 'drizzle-orm';
import { importedOrders, imports } from '../../store/schema.js';
import type { ServiceContext } from '../context.js';
import type { ImportedFile } from './import-file.js';
import { updateImportRow, type ImportRow } from './records.js';
import { csvFileBytes, ERROR_COLUMNS, errorLines, failedRowCount, fileProblems, RESULT_COLUMNS, resultLines } from './result-files.js';
import { writeFileAtomically } from './folder-files.js';

export interface ResultPaths {
  result: string;
  /** Written only when some row failed. */
  errors: string;
}

/**
 * Writes the result file (and the errors file, when some row failed) and records the import's figures on its row;
 * its status follows once the input file is where it belongs (`completeImport`).
 */
export async function writeImportResults(ctx: ServiceContext, row: ImportRow, file: ImportedFile, paths: ResultPaths): Promise<void> {
  await writeFileAtomically(paths.result, csvFileBytes(RESULT_COLUMNS, resultLines(ctx, file), file.delimiter, file.encoding));
  const problems = fileProblems(file);
  if (problems.length > 0) await writeFileAtomically(paths.errors, csvFileBytes(ERROR_COLUMNS, errorLines(problems), file.delimiter, file.encoding));
  await updateImportRow(ctx, row.id, {
    rows: file.rows, shipmentsCreated: await shipmentsCreatedBy(ctx, row.id), failedRows: failedRowCount(file),
    invalidOrders: file.outcomes.filter((o) => o.kind === 'invalid').length,
    resultPath: paths.result, errorsPath: problems.length > 0 ? paths.errors : null,
  });
}

/** Shipments the import made (a queued order is not one; a shipment deleted since still counts). */
export async function shipmentsCreatedBy(ctx: ServiceContext, importId: string): Promise<number> {
  return (await ctx.db.select({ n: count() }).from(importedOrders).where(and(eq(importedOrders.importId, importId), isNull(importedOrders.orderId))).get())!.n;
}

export async function completeImport(ctx: ServiceContext, importId: string, status: 'done' | 'failed'): Promise<void> {
  const now = ctx.clock.now();
  // a finished import has handled every row of its file
  await ctx.db.update(imports).set({ status, finishedAt: now, updatedAt: now, rowsProcessed: sql`${imports.rows}` }).where(eq(imports.id, importId)).run();
  ctx.notices.emit(`import:${importId}`);
}
