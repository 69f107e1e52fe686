import { eq } from 'drizzle-orm';
import { FieldErrorCollector, NotFoundError, ValidationError } from '../../domain/errors.js';
import { DEFAULT_LABEL_DPI, type LabelDpi, type LabelFormat } from '../../domain/labels.js';
import { convertLabelOffThread, LABEL_MIME_TYPES, mergeLabels, LabelFormatError, layoutA4, previewLabelOffThread, splitLabels, type LabelSource } from '../../labels/index.js';
import { labels } from '../../store/schema.js';
import type { ServiceContext } from '../context.js';
import { getShipmentRow } from './records.js';

export interface StoredLabel {
  shipmentId: string;
  referenceNumber: string | null;
  providerShipmentId: string | null;
  format: 'pdf' | 'zpl' | 'epl';
  mimeType: string;
  content: Buffer;
  pages: number;
  source: LabelSource;
  /** The resolution packdesk draws the shipment's converted labels at. */
  dpi: LabelDpi;
  /** `<reference or id>.<ext>`, safe for a Content-Disposition header. */
  fileName: string;
}

/**
 * The stored merged label (served as stored: never merged again), or converted offline to another `format` (a desk
 * downloading a ZPL copy of a PDF label); `a4` lays a PDF out four to a page.
 */
export async function getShipmentLabel(ctx: ServiceContext, accountId: string, id: string, options: { layout?: 'a4'; format?: LabelFormat } = {}): Promise<StoredLabel> {
  const { layout } = options;
  const shipment = await getShipmentRow(ctx, accountId, id);
  const row = await ctx.db.select().from(labels).where(eq(labels.shipmentId, id)).get();
  if (!row) throw new NotFoundError(`Shipment ${id} has no label yet (status ${shipment.status}).`);
  const format = options.format ?? row.format;
  if (layout === 'a4' && format !== 'pdf') throw new ValidationError({ layout: ['the a4 layout is for pdf labels only'] });
  let content = row.content;
  if (format !== row.format) {
    // as pictures are: converted labels at the shipment's dpi, a carrier's thermal label as laid out for 203 dpi
    const dpi = row.source === 'converted' || row.format === 'pdf' ? shipment.labelDpi : DEFAULT_LABEL_DPI;
    try {
      content = await convertLabelOffThread(row.format, format, row.content, dpi);
    } catch (error) {
      if (error instanceof LabelFormatError) throw new ValidationError({ format: [`the stored label cannot be converted to ${format}: it ${error.reason}`] });
      throw error;
    }
  }
  if (layout === 'a4') content = await layoutA4(content);
  const base = (shipment.referenceNumber ?? shipment.id).replace(/[^A-Za-z0-9._-]+/g, '_');
  return {
    shipmentId: id, referenceNumber: shipment.referenceNumber, providerShipmentId: shipment.providerShipmentId,
    format, mimeType: LABEL_MIME_TYPES[format], content, pages: layout === 'a4' ? Math.ceil(row.pages / 4) : row.pages,
    source: format === row.format ? row.source : 'converted', dpi: shipment.labelDpi, fileName: `${base}${layout === 'a4' ? '-a4' : ''}.${format}`,
  };
}

export interface LabelPreview {
  label: StoredLabel;
  /** 1-based parcel positions and one PNG each, as the label prints. */
  images: Array<{ parcel: number; png: Buffer }>;
}

/** PNG pictures of a stored label, one per parcel (or only `parcel`'s), rendered offline whatever the label's format. */
export async function getShipmentLabelPreview(ctx: ServiceContext, accountId: string, id: string, parcel?: number): Promise<LabelPreview> {
  const label = await getShipmentLabel(ctx, accountId, id);
  // packdesk draws converted labels at the shipment's dpi; carriers' thermal labels are laid out for 203 dpi
  const dpi = label.source === 'converted' ? label.dpi : DEFAULT_LABEL_DPI;
  if (parcel !== undefined && parcel > label.pages) {
    throw new ValidationError({ parcel: [`must be from 1 to ${label.pages}: the label has ${label.pages} parcel label${label.pages === 1 ? '' : 's'}`] });
  }
  try {
    if (parcel === undefined) {
      const pngs = await previewLabelOffThread(label.format, label.content, dpi);
      return { label, images: pngs.map((png, i) => ({ parcel: i + 1, png })) };
    }
    const part = (await splitLabels(label.format, label.content, label.pages))[parcel - 1]!;
    const [png] = await previewLabelOffThread(label.format, part, dpi);
    return { label, images: [{ parcel, png: png! }] };
  } catch (error) {
    if (error instanceof LabelFormatError) throw new ValidationError({ format: [`the stored label cannot be pictured: it ${error.reason}`] });
    throw error;
  }
}

/** Several shipments' labels as one PDF in the order named (thermal labels converted), e.g. for an office printer. */
export async function mergedShipmentLabels(ctx: ServiceContext, accountId: string, ids: readonly string[]) {
  if (ids.length === 0 || ids.length > 100) throw new ValidationError({ ids: ['name 1 to 100 shipments, separated by commas'] });
  const errors = new FieldErrorCollector();
  const parts: Buffer[] = [];
  for (const id of ids) {
    try {
      parts.push((await getShipmentLabel(ctx, accountId, id, { format: 'pdf' })).content);
    } catch (err) {
      if (!(err instanceof NotFoundError || err instanceof ValidationError)) throw err;
      errors.add('ids', err instanceof NotFoundError ? err.message : `${id}: ${Object.values(err.errors).flat().join('; ')}`);
    }
  }
  errors.throwIfAny();
  return mergeLabels('pdf', parts);
}
