import { createHash } from 'node:crypto';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { FieldErrorCollector, ValidationError, type FieldErrors } from '../../domain/errors.js';
import type { FileHandle } from 'node:fs/promises';
import { UnreadableFile, type Delimiter } from '../../imports/csv-table.js';
import { readOrderTable } from '../../imports/order-table.js';
import type { ScannedFile, TextEncodingOf } from '../../imports/decode.js';
import type { ImportLimits } from '../../imports/limits.js';
import { resolveMapping, type MappingSetting } from '../../imports/mapping.js';
import { buildOrder, OrderGroups, sourceOfPath, type FileOrder, type ImportTarget, type OrderDefaults, type RowProblem } from '../../imports/orders.js';
import { MAX_PARCELS } from '../../domain/shipment-input.js';
import type { ServiceContext } from '../context.js';
import { createOrder, type OrderDraft } from '../orders.js';
import { createShipment, validateCreation, type ShipmentBody } from '../shipments/create.js';
import { withRoutedChannel } from '../shipping-rules.js';
import { loadShipmentRow } from '../shipments/records.js';
import { CarrierOutcomes } from './carrier-outcomes.js';
import { beginImportRun, endImportRun, importSource, MAX_IMPORT_RUNS, setImportProgress, updateImportRow, type ImportRow } from './records.js';
import { isTransactionConflict, isUniqueViolation } from '../../store/store.js';

/** What the import needs from the daemon: the API's JSON-schema check of a creation body, so files meet the same rules. */
export interface ImportDeps {
  checkShape(body: Record<string, unknown>): FieldErrors;
  /** Shipments of one file in flight at the carrier at once (default 64, twice the creation worker's concurrency). */
  window?: number;
  /** Stop waiting for carrier outcomes after this long without any (default 30 s); those orders are reported `pending`. */
  stallMs?: number;
}

export interface ImportSettings {
  defaults: OrderDefaults;
  mapping: MappingSetting | null;
  target?: ImportTarget;
}

/** What became of one order of the file. */
export type OrderOutcome =
  | { kind: 'invalid'; problems: RowProblem[] }
  /**
   * `earlierImportId`: the order was imported before, from the same file, by that import (nothing new was created).
   * `fresh`: the shipment was created just now (not found by its key on a resumed run).
   */
  | { kind: 'shipment'; shipmentId: string | null; earlierImportId: string | null; fresh?: boolean }
  /** Queued in the order queue (target `orders`); `earlierImportId` as above. */
  | { kind: 'order'; orderId: string | null; earlierImportId: string | null };

/** An order of the file, as its result line names it. */
export interface OrderOfFile {
  reference: string;
  rows: number[];
}

export interface ImportedFile {
  encoding: TextEncodingOf;
  delimiter: Delimiter;
  rows: number;
  orders: OrderOfFile[];
  outcomes: OrderOutcome[];
  /** Problems of the whole file or of rows outside any order. */
  fileProblems: RowProblem[];
}

export const DEFAULT_WINDOW = 64;
/** Orders stored per transaction (each order its own savepoint): one commit, not one per order, on a long file. */
const ORDERS_PER_TRANSACTION = 16;
export const DEFAULT_STALL_MS = 30_000;

export function sha256Of(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** An import that ends with one problem of the whole file (unreadable, over a limit, failed for good): no order is read. */
export function failedFile(encoding: TextEncodingOf, problem: { row: number; message: string }): ImportedFile {
  return { encoding, delimiter: ',', rows: 0, orders: [], outcomes: [], fileProblems: [{ row: problem.row, reference: '', field: 'file', column: null, message: problem.message }] };
}

/**
 * Reads the whole file into orders (only the mapped columns' values are kept) before any order is imported, so a file
 * that turns out unreadable halfway imports nothing. Every chunk read gives the event loop its turn.
 */
async function readOrders(file: FileHandle, scanned: ScannedFile, settings: ImportSettings, limits: ImportLimits, signal: AbortSignal) {
  if (scanned.size > limits.maxFileBytes) {
    return new UnreadableFile(1, `is ${formatMiB(scanned.size)}; files up to ${formatMiB(limits.maxFileBytes)} are imported`);
  }
  const mapping = resolveMapping(settings.mapping);
  const table = await readOrderTable(file, scanned, limits, mapping);
  if (table instanceof UnreadableFile) return table;
  const groups = new OrderGroups(table.header, table.delimiter, mapping, settings.defaults);
  try {
    for await (const record of table.records) {
      if (signal.aborted) return 'aborted';
      groups.add(record);
    }
  } catch (err) {
    if (err instanceof UnreadableFile) return err;
    throw err;
  } finally {
    await table.records.return(undefined);
  }
  return { delimiter: table.delimiter, groups };
}

const formatMiB = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MiB`;

function findImportedOrder(ctx: ServiceContext, source: string, sha256: string, reference: string) {
  return ctx.store.get<{ importId: string; shipmentId: string | null; orderId: string | null }>(
    'SELECT import_id AS "importId", shipment_id AS "shipmentId", order_id AS "orderId" FROM imported_orders WHERE source = ? AND sha256 = ? AND reference_number = ?',
    source, sha256, reference);
}

/** Runs `fn` in a savepoint of the running transaction: when it throws, only its own writes are undone. */
async function inSavepoint<T>(ctx: ServiceContext, fn: () => Promise<T>): Promise<T> {
  await ctx.store.run('SAVEPOINT import_order');
  try {
    const result = await fn();
    await ctx.store.run('RELEASE SAVEPOINT import_order');
    return result;
  } catch (err) {
    await ctx.store.run('ROLLBACK TO SAVEPOINT import_order');
    await ctx.store.run('RELEASE SAVEPOINT import_order');
    throw err;
  }
}

function problemsOf(order: FileOrder, errors: FieldErrors): RowProblem[] {
  return Object.entries(errors).flatMap(([field, messages]) => {
    const { row, column } = sourceOfPath(order, field);
    return messages.map((message) => ({ row, reference: order.reference, field, column, message }));
  });
}

/**
 * One order → at most one shipment or queued order, ever: the order's key (source, file hash, reference) and what it
 * became are written in one transaction (a savepoint of the batch's), so a crash leaves both or neither, and a second
 * run finds the key.
 */
async function createOrderOnce(ctx: ServiceContext, deps: ImportDeps, row: ImportRow, order: FileOrder, target: ImportTarget): Promise<OrderOutcome> {
  const source = importSource(row);
  const earlierOutcome = async (): Promise<OrderOutcome | undefined> => {
    const existing = await findImportedOrder(ctx, source, row.sha256, order.reference);
    if (!existing) return undefined;
    const earlierImportId = existing.importId === row.id ? null : existing.importId;
    return existing.orderId !== null ? { kind: 'order', orderId: existing.orderId, earlierImportId } : { kind: 'shipment', shipmentId: existing.shipmentId, earlierImportId };
  };
  const earlier = await earlierOutcome();
  if (earlier) return earlier;
  if (order.parcels > MAX_PARCELS) {
    // refused before the rules run: checking thousands of parcels would hold up the daemon, and no shipment takes them
    return { kind: 'invalid', problems: [{ row: order.rows[0]!, reference: order.reference, field: 'parcels', column: null, message: `has ${order.parcels} rows (one parcel each); a shipment takes at most ${MAX_PARCELS} parcels` }] };
  }
  const errors = new FieldErrorCollector();
  errors.merge(deps.checkShape(order.body));
  // an order that names no channel, from a file whose settings name none, ships by the account's shipping rules
  const routed = target === 'shipments' && order.problems.length === 0 && errors.empty
    ? await withRoutedChannel(ctx, row.accountId, order.body as unknown as ShipmentBody, { importFolderId: row.watchedFolderId })
    : { body: order.body as unknown as ShipmentBody, chosenBy: null };
  const body = routed.body;
  try {
    if (order.problems.length > 0) {
      await validateCreation(ctx, row.accountId, body, errors);
      return { kind: 'invalid', problems: order.problems };
    }
    return await inSavepoint(ctx, async (): Promise<OrderOutcome> => {
      const imported = (ids: { shipment: string | null; order: string | null }) => ctx.store.run(`INSERT INTO imported_orders
        (source, sha256, reference_number, import_id, shipment_id, order_id, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)`,
      source, row.sha256, order.reference, row.id, ids.shipment, ids.order, ctx.clock.now());
      if (target === 'orders') {
        const queued = await createOrder(ctx, row.accountId, body as unknown as OrderDraft, errors, row.id);
        await imported({ shipment: null, order: queued.id });
        return { kind: 'order', orderId: queued.id, earlierImportId: null };
      }
      const shipment = await createShipment(ctx, row.accountId, body, errors, routed.chosenBy);
      await imported({ shipment: shipment.id, order: null });
      return { kind: 'shipment', shipmentId: shipment.id, earlierImportId: null, fresh: true };
    });
  } catch (err) {
    if (err instanceof ValidationError) return { kind: 'invalid', problems: [...order.problems, ...problemsOf(order, err.errors)] };
    if (isTransactionConflict(err)) throw err; // the batch's transaction runs again, this order with it
    // another import of the same file (on another daemon) stored this order's key first: the order is that import's
    const taken = isUniqueViolation(err) ? await earlierOutcome() : undefined;
    if (taken) return taken;
    ctx.log.error({ err, import_id: row.id, reference: order.reference }, 'import: order failed unexpectedly');
    const first = order.rows[0]!;
    return { kind: 'invalid', problems: [{ row: first, reference: order.reference, field: 'order', column: null, message: `could not be imported: ${(err as Error).message}` }] };
  }
}

async function stillAtCarrierStep(ctx: ServiceContext, shipmentId: string | null): Promise<boolean> {
  const shipment = shipmentId ? await loadShipmentRow(ctx, shipmentId) : undefined;
  return shipment !== undefined && shipment.status === 'pending' && shipment.failure === null;
}

/**
 * Reads an order file and turns each of its orders into a shipment through the same service as the API, at most once
 * per order; then waits (bounded) for the carrier step of the file's shipments. Safe to run again on the same import
 * after a crash or a stop: orders already done are found by their key. `aborted` when `signal` stopped it midway.
 * An import fails for good, with its reason as the file's problem, when it throws, or when it was begun
 * `MAX_IMPORT_RUNS` times without ending (each time the daemon died on it): it is never tried again at start.
 */
export async function importOrderFile(
  ctx: ServiceContext, deps: ImportDeps, row: ImportRow, file: FileHandle, scanned: ScannedFile, settings: ImportSettings, signal: AbortSignal,
): Promise<ImportedFile | 'aborted'> {
  const encoding: TextEncodingOf = { encoding: scanned.encoding, bom: scanned.bom };
  const runs = await beginImportRun(ctx, row.id);
  if (runs > MAX_IMPORT_RUNS) {
    ctx.log.error({ import_id: row.id, runs: runs - 1 }, 'import failed for good: the daemon stopped without finishing it too often');
    return failedFile(encoding, { row: 1, message: `could not be imported: the daemon stopped ${runs - 1} times while importing it (a crash or a kill); it is not tried again` });
  }
  try {
    const imported = await importOrders(ctx, deps, row, file, scanned, settings, signal);
    if (imported === 'aborted') await endImportRun(ctx, row.id);
    return imported;
  } catch (err) {
    if (signal.aborted) {
      await endImportRun(ctx, row.id);
      return 'aborted';
    }
    ctx.log.error({ err, import_id: row.id }, 'import failed for good');
    return failedFile(encoding, { row: 1, message: `could not be imported: ${(err as Error).message}` });
  }
}

async function importOrders(
  ctx: ServiceContext, deps: ImportDeps, row: ImportRow, file: FileHandle, scanned: ScannedFile, settings: ImportSettings, signal: AbortSignal,
): Promise<ImportedFile | 'aborted'> {
  const encoding: TextEncodingOf = { encoding: scanned.encoding, bom: scanned.bom };
  const read = await readOrders(file, scanned, settings, ctx.options.importLimits, signal);
  if (read === 'aborted') return read;
  if (read instanceof UnreadableFile) return failedFile(encoding, read);
  const { groups } = read;
  const { plan, problems, rows } = groups;
  const orders = groups.orders;
  if (rows === 0) problems.push({ row: 1, reference: '', field: 'file', column: null, message: 'has a header row but no order rows' });
  await updateImportRow(ctx, row.id, { rows });

  let rowsDone = problems.length === 0 ? 0 : new Set(problems.map((p) => p.row)).size;
  const rowsOfShipment = new Map<string, number>();
  const outcomes = new CarrierOutcomes(ctx, (id) => {
    rowsDone += rowsOfShipment.get(id) ?? 0;
    // outcomes come in from notices, between this import's steps: the figure is written in the background (it never
    // goes back, so a write that lands late does no harm)
    void setImportProgress(ctx, row.id, rowsDone)
      .catch((err: unknown) => ctx.log.error({ err, import_id: row.id }, 'import progress could not be stored'));
  });
  const window = deps.window ?? DEFAULT_WINDOW;
  const stallMs = deps.stallMs ?? DEFAULT_STALL_MS;
  let windowOpen = true;
  const results: OrderOutcome[] = [];
  await setImportProgress(ctx, row.id, rowsDone);
  try {
    for (let start = 0; start < orders.length; start += ORDERS_PER_TRANSACTION) {
      if (windowOpen) {
        const waited = await outcomes.waitBelow(window, stallMs, signal);
        if (waited === 'aborted') return 'aborted';
        // nothing reports: the carrier step is not running; store the rest without holding the file
        if (waited === 'stalled') windowOpen = false;
      }
      if (signal.aborted) return 'aborted';
      const batch = orders.slice(start, start + ORDERS_PER_TRANSACTION);
      // read committed: what it writes is new rows of its own, and an order's key (its primary key) decides between two
      // imports of one file; serializable, the batches of imports running side by side conflicted at every try
      const batchOutcomes = await ctx.store.transaction(async () => {
        const list: OrderOutcome[] = [];
        for (const group of batch) list.push(await createOrderOnce(ctx, deps, row, buildOrder(plan, group), settings.target ?? 'shipments'));
        return list;
      }, { isolation: 'read committed' });
      for (const group of batch) group.values = []; // built and stored: its rows' values are no longer needed
      for (const [i, order] of batch.entries()) {
        const outcome = batchOutcomes[i]!;
        results.push(outcome);
        const atCarrierStep = outcome.kind === 'shipment' && outcome.earlierImportId === null && (outcome.fresh || await stillAtCarrierStep(ctx, outcome.shipmentId));
        if (atCarrierStep) {
          rowsOfShipment.set(outcome.shipmentId!, order.rows.length);
          outcomes.track(outcome.shipmentId!);
        } else {
          rowsDone += order.rows.length;
        }
      }
      await setImportProgress(ctx, row.id, rowsDone);
      // requests and the workers get their turn while a long file is read
      await yieldToEventLoop();
    }
    if ((await outcomes.waitBelow(1, stallMs, signal)) === 'aborted') return 'aborted';
  } finally {
    outcomes.dispose();
  }
  return { encoding, delimiter: read.delimiter, rows, orders: orders.map(({ reference, rows: of }) => ({ reference, rows: of })), outcomes: results, fileProblems: problems };
}
