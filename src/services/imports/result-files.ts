import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { csvLine, type Delimiter } from '../../imports/csv-table.js';
import { bomBytes, encodeLike, type TextEncodingOf } from '../../imports/decode.js';
import type { RowProblem } from '../../imports/orders.js';
import type { ServiceContext } from '../context.js';
import type { ShipmentFailure } from '../shipments/records.js';
import { loadParcels, loadShipmentRow } from '../shipments/records.js';
import type { ImportedFile, OrderOutcome } from './import-file.js';

/** The result file: one line per order (SPEC §7). */
export const RESULT_COLUMNS = ['reference_number', 'shipment_id', 'status', 'tracking_numbers', 'error'] as const;
/** The errors file: one line per problem, pointing at the input's row (header = row 1) and column. */
export const ERROR_COLUMNS = ['row', 'reference_number', 'field', 'column', 'message'] as const;

/**
 * Result statuses: the shipment's own status (`created`, `pending` …), `failed` (the carrier refused it, or gave up),
 * `already_imported` (an earlier drop of the same file created it), `error` (the order's rows were invalid: no
 * shipment), `deleted` (its shipment was deleted since), `queued` (it waits in the order queue: target `orders`).
 */
export interface OrderResult {
  reference_number: string;
  shipment_id: string | null;
  status: string;
  tracking_numbers: string[];
  error: string | null;
}

function describeFailure(failure: ShipmentFailure): string {
  const fields = Object.entries(failure.errors).map(([field, messages]) => `${field}: ${messages.join(', ')}`);
  return [failure.message, ...fields].join('; ');
}

/** Problems named on an order's result line; the errors file has them all. */
const PROBLEMS_ON_RESULT_LINE = 20;

function describeProblems(problems: RowProblem[]): string {
  const named = problems.slice(0, PROBLEMS_ON_RESULT_LINE).map((p) => `row ${p.row} ${p.field}: ${p.message}`);
  const more = problems.length - named.length;
  return more > 0 ? `${named.join('; ')}; and ${more} more (see the errors file)` : named.join('; ');
}

async function resultOf(ctx: ServiceContext, reference: string, outcome: OrderOutcome): Promise<OrderResult> {
  if (outcome.kind === 'invalid') {
    return { reference_number: reference, shipment_id: null, status: 'error', tracking_numbers: [], error: describeProblems(outcome.problems) };
  }
  if (outcome.kind === 'order') {
    const queued: OrderResult = { reference_number: reference, shipment_id: null, status: 'queued', tracking_numbers: [], error: null };
    return outcome.earlierImportId ? { ...queued, status: 'already_imported', error: `already imported by ${outcome.earlierImportId} (order ${outcome.orderId}): nothing queued again` } : queued;
  }
  const shipment = outcome.shipmentId ? await loadShipmentRow(ctx, outcome.shipmentId) : undefined;
  if (!shipment) return { reference_number: reference, shipment_id: outcome.shipmentId, status: 'deleted', tracking_numbers: [], error: 'its shipment was deleted' };
  const tracking = (await loadParcels(ctx, shipment.id)).map((p) => p.trackingNumber).filter((n): n is string => n !== null);
  const result: OrderResult = { reference_number: reference, shipment_id: shipment.id, status: shipment.status, tracking_numbers: tracking, error: null };
  const failure = shipment.failure as ShipmentFailure | null;
  if (outcome.earlierImportId) {
    return { ...result, status: 'already_imported', error: `already imported by ${outcome.earlierImportId} (shipment ${shipment.status}): no new shipment` };
  }
  if (shipment.status === 'pending' && failure) {
    return shipment.nextAttemptAt === null
      ? { ...result, status: 'failed', error: describeFailure(failure) }
      : { ...result, error: `carrier unavailable, retrying: ${failure.message}` };
  }
  return result;
}

/** The result file's lines, one per order, each read from the store when it is written. */
export async function* resultLines(ctx: ServiceContext, file: ImportedFile): AsyncGenerator<(string | number)[]> {
  for (const [i, order] of file.orders.entries()) {
    const r = await resultOf(ctx, order.reference, file.outcomes[i]!);
    yield [r.reference_number, r.shipment_id ?? '', r.status, r.tracking_numbers.join(' '), r.error ?? ''];
  }
}

export function* errorLines(problems: RowProblem[]): Generator<(string | number)[]> {
  for (const p of problems) yield [p.row, p.reference, p.field, p.column ?? '', p.message];
}

/** Encoded text is handed on in pieces of about this many characters. */
const PIECE_CHARS = 64 * 1024;
/** Lines written before the event loop gets its turn again (a result line reads its shipment from the store). */
const LINES_PER_SLICE = 250;

/**
 * A CSV file's bytes as they are written, piece by piece (never the whole file in one string): a header, then the
 * lines, in the encoding (and BOM) of the input file the result answers, so the system that wrote it can read it back.
 */
export async function* csvFileBytes(
  header: readonly string[], lines: AsyncIterable<(string | number)[]> | Iterable<(string | number)[]>, delimiter: Delimiter, like: TextEncodingOf,
): AsyncGenerator<Buffer> {
  yield bomBytes(like);
  let piece = csvLine(header, delimiter);
  let written = 0;
  for await (const line of lines) {
    piece += csvLine(line, delimiter);
    if (piece.length >= PIECE_CHARS) {
      yield encodeLike(piece, like);
      piece = '';
    }
    if (++written % LINES_PER_SLICE === 0) await yieldToEventLoop();
  }
  yield encodeLike(piece, like);
}

/** Every problem of the file, by row. */
export function fileProblems(file: ImportedFile): RowProblem[] {
  const problems = [...file.fileProblems, ...file.outcomes.flatMap((o) => (o.kind === 'invalid' ? o.problems : []))];
  return problems.sort((a, b) => a.row - b.row);
}

/** Rows that became no shipment: rows outside any order, and every row of an invalid order. */
export function failedRowCount(file: ImportedFile): number {
  const rows = new Set(file.fileProblems.map((p) => p.row).filter((r) => r > 1));
  file.outcomes.forEach((o, i) => {
    if (o.kind === 'invalid') for (const r of file.orders[i]!.rows) rows.add(r);
  });
  return rows.size;
}

/** `failed` when no order of the file has a shipment or a place in the queue (every row failed, or the file could not be read). */
export function importStatus(file: ImportedFile): 'done' | 'failed' {
  return file.outcomes.some((o) => o.kind !== 'invalid') ? 'done' : 'failed';
}

