import { eq } from 'drizzle-orm';
import type { PrintFormat } from '../../../printers/index.js';
import { FieldErrorCollector, ValidationError } from '../../domain/errors.js';
import { mergeLabels } from '../../labels/index.js';
import { labels, shipments } from '../../store/schema.js';
import type { ServiceContext } from '../context.js';
import { getShipmentRow } from '../shipments/records.js';
import { effectiveStationSettings } from '../station-settings.js';
import { checkPrintRequest, presentPrintJob, queuePrintJob, type PrintJobView } from './print-jobs.js';
import type { PrinterRow } from './printers.js';

export interface ShipmentPrintBody {
  printer_id?: string | null;
  copies?: number;
  layout?: 'a4' | null;
  /** Whose printer for the label's format, when no printer_id: default the daemon's station. */
  station?: string;
}

/** `POST /v1/shipments/{id}/print`: queues the stored label on the given printer or the default for its format. */
export async function printShipmentLabel(ctx: ServiceContext, accountId: string, shipmentId: string, body: ShipmentPrintBody, errors = new FieldErrorCollector()): Promise<PrintJobView> {
  // checked and queued in one transaction: the shipment cannot be cancelled, nor the printer changed, in between
  return presentPrintJob(await ctx.store.transaction(async () => {
    const shipment = await getShipmentRow(ctx, accountId, shipmentId);
    const label = await ctx.db.select({ format: labels.format }).from(labels).where(eq(labels.shipmentId, shipmentId)).get();
    if (!label) throw new ValidationError({ shipment_id: [`has no label yet (status ${shipment.status}); ask again once it is created, or give "print" when creating it`] }, `Shipment ${shipmentId} has no label yet.`);
    if (shipment.status === 'cancelled') throw new ValidationError({ shipment_id: ['is cancelled: its label is void'] }, `Shipment ${shipmentId} is cancelled.`);
    if (body.layout === 'a4' && label.format !== 'pdf') errors.add('layout', 'the a4 layout is for pdf labels only');
    const station = body.station ?? ctx.station;
    const printerId = body.printer_id ?? (await effectiveStationSettings(ctx, accountId, station)).printers[label.format];
    if (!printerId) errors.add('printer_id', `is required: station ${station} has no printer for ${label.format} labels`);
    const printer = printerId ? await checkPrintRequest(ctx, accountId, { printer_id: printerId, copies: body.copies }, label.format, errors, '') : undefined;
    errors.throwIfAny();
    return queuePrintJob(ctx, {
      accountId, printerId: printer!.id, shipmentId, format: label.format, copies: body.copies ?? 1, layout: body.layout ?? null,
    });
  }));
}

export interface BatchPrintBody {
  shipment_ids: string[];
  printer_id?: string | null;
  copies?: number;
  station?: string;
}

/**
 * `POST /v1/print-jobs`: the labels of many shipments merged into one job per label format, so a stack of labels
 * prints in the order picked, as one job a printer cannot interleave. Each format prints on `printer_id`, else on the
 * station's printer for it (its settings, else the account's default).
 */
export async function printShipmentLabels(ctx: ServiceContext, accountId: string, body: BatchPrintBody, errors = new FieldErrorCollector()): Promise<PrintJobView[]> {
  const ids = [...new Set(body.shipment_ids)];
  const byFormat = new Map<PrintFormat, { ids: string[]; parts: Buffer[] }>();
  for (const [i, id] of ids.entries()) {
    const shipment = await ctx.db.select({ accountId: shipments.accountId, status: shipments.status }).from(shipments).where(eq(shipments.id, id)).get();
    const label = shipment?.accountId === accountId ? await ctx.db.select({ format: labels.format, content: labels.content }).from(labels).where(eq(labels.shipmentId, id)).get() : undefined;
    if (!shipment || shipment.accountId !== accountId) errors.add(`shipment_ids.${i}`, `${id} is not a shipment of this account`);
    else if (!label) errors.add(`shipment_ids.${i}`, `${id} has no label yet (status ${shipment.status})`);
    else if (shipment.status === 'cancelled') errors.add(`shipment_ids.${i}`, `${id} is cancelled: its label is void`);
    else {
      const group = byFormat.get(label.format) ?? byFormat.set(label.format, { ids: [], parts: [] }).get(label.format)!;
      group.ids.push(id);
      group.parts.push(label.content);
    }
  }
  const effective = await effectiveStationSettings(ctx, accountId, body.station ?? ctx.station);
  const printerFor = new Map<PrintFormat, PrinterRow>();
  for (const format of byFormat.keys()) {
    const printerId = body.printer_id ?? effective.printers[format];
    if (!printerId) {
      errors.add('printer_id', `is required: station ${body.station ?? ctx.station} has no printer for ${format} labels`);
      continue;
    }
    const printer = await checkPrintRequest(ctx, accountId, { printer_id: printerId, copies: body.copies }, format, errors, '');
    if (printer) printerFor.set(format, printer);
  }
  errors.throwIfAny();
  const merged = await Promise.all([...byFormat].map(async ([format, group]) => ({ format, group, content: (await mergeLabels(format, group.parts)).content })));
  return ctx.store.transaction(async () => {
    const queued: PrintJobView[] = [];
    for (const { format, group, content } of merged) {
      queued.push(presentPrintJob(await queuePrintJob(ctx, {
        accountId, printerId: printerFor.get(format)!.id, format, copies: body.copies ?? 1, content, shipmentIds: group.ids,
      })));
    }
    return queued;
  });
}
