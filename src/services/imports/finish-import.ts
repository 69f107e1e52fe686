import { count, eq } from 'drizzle-orm';
import { importedOrders } from '../../store/schema.js';
import type { ServiceContext } from '../context.js';
import type { ImportedFile } from './import-file.js';
import { setImportProgress, updateImportRow, type ImportRow } from './records.js';
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
  updateImportRow(ctx, importId, { status, finishedAt: ctx.clock.now() });
  setImportProgress(ctx, importId, undefined);
  ctx.notices.emit(`import:${importId}`);
}
