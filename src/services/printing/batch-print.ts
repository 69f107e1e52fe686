import { eq } from 'drizzle-orm';
import type { PrintFormat } from '../../../printers/index.js';
import { FieldErrorCollector } from '../../domain/errors.js';
import { mergeLabels } from '../../labels/index.js';
import { labels, shipments } from '../../store/schema.js';
import type { ServiceContext } from '../context.js';
import { effectiveStationSettings } from '../station-settings.js';
import { checkPrintRequest, presentPrintJob, queuePrintJob, type PrintJobView } from './print-jobs.js';
import type { PrinterRow } from './printers.js';

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
