import { and, asc, eq } from 'drizzle-orm';
import { isoTime } from '../../domain/clock.js';
import type { CustomsDocumentType } from '../../domain/customs.js';
import { NotFoundError } from '../../domain/errors.js';
import { shipmentDocuments } from '../../store/schema.js';
import type { ServiceContext } from '../context.js';
import { getShipmentRow } from './records.js';

/** A shipment's customs documents: type, who made it, size; the PDFs under `…/documents/{type}`. */
export async function listShipmentDocuments(ctx: ServiceContext, accountId: string, id: string) {
  await getShipmentRow(ctx, accountId, id);
  const rows = await ctx.db.select().from(shipmentDocuments).where(eq(shipmentDocuments.shipmentId, id)).orderBy(asc(shipmentDocuments.type)).all();
  return rows.map((d) => ({
    type: d.type, source: d.source, mime_type: 'application/pdf', size: d.content.length, created_at: isoTime(d.createdAt),
    url: `/v1/shipments/${id}/documents/${d.type}`,
  }));
}

/** One of a shipment's customs documents, as a PDF. */
export async function getShipmentDocument(ctx: ServiceContext, accountId: string, id: string, type: CustomsDocumentType) {
  const shipment = await getShipmentRow(ctx, accountId, id);
  const row = await ctx.db.select().from(shipmentDocuments).where(and(eq(shipmentDocuments.shipmentId, id), eq(shipmentDocuments.type, type))).get();
  if (!row) throw new NotFoundError(`Shipment ${id} has no ${type.replaceAll('_', ' ')}.`);
  const base = (shipment.referenceNumber ?? shipment.id).replace(/[^A-Za-z0-9._-]+/g, '_');
  return { content: row.content, fileName: `${base}-${type.replaceAll('_', '-')}.pdf` };
}
