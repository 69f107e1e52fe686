import { count, eq, sql } from 'drizzle-orm';
import { importedOrders, imports } from '../../store/schema.js';
import type { ServiceContext } from '../context.js';
import type { ImportedFile } from './import-file.js';
import { updateImportRow, type ImportRow } from './records.js';
import { errorsCsv, failedRowCount, fileProblems, orderResults, resultCsv } from './result-files.js';
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
  await writeFileAtomically(paths.result, resultCsv(file, orderResults(ctx, file)));
  const problems = fileProblems(file);
  if (problems.length > 0) await writeFileAtomically(paths.errors, errorsCsv(file, problems));
  updateImportRow(ctx, row.id, {
    rows: file.rows, shipmentsCreated: shipmentsCreatedBy(ctx, row.id), failedRows: failedRowCount(file),
    resultPath: paths.result, errorsPath: problems.length > 0 ? paths.errors : null,
  });
}

export function shipmentsCreatedBy(ctx: ServiceContext, importId: string): number {
  return ctx.db.select({ n: count() }).from(importedOrders).where(eq(importedOrders.importId, importId)).get()!.n;
}

export function completeImport(ctx: ServiceContext, importId: string, status: 'done' | 'failed'): void {
  const now = ctx.clock.now();
  // a finished import has handled every row of its file
  ctx.db.update(imports).set({ status, finishedAt: now, updatedAt: now, rowsProcessed: sql`${imports.rows}` }).where(eq(imports.id, importId)).run();
  ctx.notices.emit(`import:${importId}`);
}
