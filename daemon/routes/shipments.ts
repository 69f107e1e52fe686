import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ValidationError } from '../../src/domain/errors.js';
import { LABEL_FORMATS, type LabelFormat } from '../../src/domain/labels.js';
import type { ServiceContext } from '../../src/services/context.js';
import { createShipment, type ShipmentBody } from '../../src/services/shipments/create.js';
import { CUSTOMS_DOCUMENT_TYPES, type CustomsDocumentType } from '../../src/domain/customs.js';
import { getShipmentDocument, listShipmentDocuments } from '../../src/services/shipments/documents.js';
import { createReturnShipment, type ReturnOverrides } from '../../src/services/shipments/returns.js';
import { getShipmentLabel, getShipmentLabelPreview, mergedShipmentLabels, type LabelPreview } from '../../src/services/shipments/labels.js';
import {
  exportShipments, knownShipmentListVersion, listShipments, MAX_EXPORT_ROWS, shipmentListVersion, shipmentsCsv, type ShipmentFilters,
} from '../../src/services/shipments/list.js';
import { withStationSettings } from '../../src/services/station-settings.js';
import { quoteShipment, type QuoteBody as QuoteInput } from '../../src/services/rates.js';
import { withRoutedChannel } from '../../src/services/shipping-rules.js';
import { isoTime } from '../../src/domain/clock.js';
import { cancelShipment, deleteShipment, getShipment, MAX_WAIT_SECONDS, patchShipment, retryShipment } from '../../src/services/shipments/manage.js';
import { SHIPMENT_STATUSES, type ShipmentStatus } from '../../src/services/shipments/records.js';
import { caller } from '../http/conventions.js';
import { attachment, listBody, pageOf, sendJson } from '../http/reply.js';
import { VersionedCache } from '../http/versioned-cache.js';
import { Envelope, errorResponses, IdParams, JsonOrFile, ListEnvelope, PageQuery } from '../http/schemas.js';
import {
  CreateShipmentBody, LabelPreviewSchema, LabelSchema, PatchShipmentBody, QuoteBody, QuoteSchema, ReturnShipmentBody, ShipmentDocumentSchema,
  ShipmentListItemSchema, ShipmentSchema,
} from './shipment-schemas.js';

const tags = ['Shipments'];

const listFilters = {
  status: Type.Optional(Type.String({ enum: [...SHIPMENT_STATUSES] })),
  shipping_channel_id: Type.Optional(Type.String()),
  search: Type.Optional(Type.String({ minLength: 1, maxLength: 255, description: 'A substring (3+ characters) of the reference, carrier id or a tracking number; 1–2 characters match a whole reference number' })),
  created_from: Type.Optional(Type.String({ format: 'date-time' })),
  created_to: Type.Optional(Type.String({ format: 'date-time' })),
  needs_attention: Type.Optional(Type.Boolean({ description: 'true: only shipments the carrier refused that nothing retries' })),
  dispatched: Type.Optional(Type.Boolean({ description: 'false: only shipments no end-of-day dispatch has handed over yet; true: only those one has' })),
};

interface ListQuery { status?: string; shipping_channel_id?: string; search?: string; created_from?: string; created_to?: string; needs_attention?: boolean; dispatched?: boolean }

function filtersOf(q: ListQuery): ShipmentFilters {
  return {
    status: q.status as ShipmentStatus | undefined, channelId: q.shipping_channel_id, search: q.search, needsAttention: q.needs_attention, dispatched: q.dispatched,
    createdFrom: q.created_from ? Date.parse(q.created_from) : undefined, createdTo: q.created_to ? Date.parse(q.created_to) : undefined,
  };
}
export const WaitQuery = Type.Object({ wait: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_WAIT_SECONDS })) });

/** Seconds from `Prefer: wait=N` (RFC 7240) or `?wait=N`, capped at 30. */
export function waitSeconds(request: FastifyRequest): number {
  const fromQuery = (request.query as { wait?: number } | undefined)?.wait;
  const prefer = /(?:^|[,;\s])wait=(\d+)/i.exec(String(request.headers.prefer ?? ''));
  return Math.min(MAX_WAIT_SECONDS, fromQuery ?? (prefer ? Number(prefer[1]) : 0));
}

const RAW_TYPES = new Set(['application/pdf', 'application/zpl', 'application/epl', 'application/octet-stream', 'image/png']);

/** Raw bytes when the client's most preferred type it names (by q, then order) is a file type rather than JSON. */
function prefersRawBytes(accept: string): boolean {
  const ranked = accept.split(',').map((part, order) => {
    const [type = '', ...params] = part.split(';').map((t) => t.trim().toLowerCase());
    const q = Number(params.find((p) => p.startsWith('q='))?.slice(2) ?? 1);
    return { type, q: Number.isFinite(q) ? q : 0, order };
  }).filter((t) => t.q > 0 && (RAW_TYPES.has(t.type) || t.type === 'application/json'));
  ranked.sort((a, b) => b.q - a.q || a.order - b.order);
  return ranked.length > 0 && RAW_TYPES.has(ranked[0]!.type);
}

/** PNG pictures of a label: JSON with one base64 image per parcel, or the raw PNG of one parcel. */
function sendPreview(preview: LabelPreview, raw: boolean, reply: FastifyReply) {
  const { label, images } = preview;
  const fileName = (parcel: number) => label.fileName.replace(/\.[a-z]+$/, `-${parcel}.png`);
  if (raw) {
    if (images.length !== 1) throw new ValidationError({ parcel: [`name one parcel (1 to ${images.length}) for a raw PNG`] });
    const { parcel, png } = images[0]!;
    return reply.header('content-type', 'image/png').header('content-disposition', attachment(fileName(parcel))).send(png as never);
  }
  return {
    data: {
      shipment_id: label.shipmentId, reference_number: label.referenceNumber, provider_shipment_id: label.providerShipmentId,
      label_format: label.format, source: label.source,
      images: images.map(({ parcel, png }) => ({ parcel, file_name: fileName(parcel), content: png.toString('base64'), mime_type: 'image/png', size: png.length })),
    },
    message: 'Label pictures rendered',
  };
}

export function shipmentRoutes(ctx: ServiceContext): FastifyPluginAsyncTypebox {
  // List pages are read far more often than shipments change (packing desks and ERPs poll them)
  const listCache = new VersionedCache(2000);
  return async (app) => {
    app.post('/v1/shipments', {
      config: { mergeValidation: true },
      schema: {
        tags, summary: 'Create a shipment (stored as pending; created at the carrier in the background)', body: CreateShipmentBody,
        querystring: WaitQuery,
        headers: Type.Object({ prefer: Type.Optional(Type.String({ description: 'wait=N (≤ 30): answer once the carrier step finished' })) }),
        response: { 201: Envelope(ShipmentSchema), ...errorResponses(400, 401, 403, 409, 413, 422, 429) },
      },
    }, async (request, reply) => {
      const accountId = caller(request).account.id;
      const { body, chosenBy } = await withRoutedChannel(ctx, accountId, request.body as ShipmentBody & { station?: string });
      const created = await createShipment(ctx, accountId, body, request.fieldErrors, chosenBy);
      const wait = waitSeconds(request);
      const data = wait > 0 ? await getShipment(ctx, accountId, created.id, wait) : created;
      return reply.code(201).send({ data, message: 'Shipment created' });
    });

    app.post('/v1/rates', {
      config: { mergeValidation: true },
      schema: {
        tags, operationId: 'quoteShipment', body: QuoteBody,
        summary: "Quote a shipment at every active channel (or those named): each channel's price from its carrier's rate API or its price list, or why it cannot carry it",
        response: { 200: Envelope(Type.Array(QuoteSchema)), ...errorResponses(400, 401, 403, 413, 422, 429) },
      },
    }, async (request, reply) => {
      const accountId = caller(request).account.id;
      // a body the schema refused quotes nothing: its errors are the answer
      request.fieldErrors.throwIfAny();
      const body = await withStationSettings(ctx, accountId, request.body as QuoteInput & { station?: string });
      const quotes = await quoteShipment(ctx, accountId, body, request.fieldErrors);
      return reply.send({ data: quotes, message: `${quotes.filter((q) => q.price !== null).length} of ${quotes.length} channels priced the shipment` });
    });

    app.get('/v1/shipments', {
      schema: {
        tags, summary: 'List shipments, newest first',
        querystring: PageQuery(20, {
          ...listFilters,
          include: Type.Optional(Type.String({ enum: ['details'], description: 'details: recipient, destination, first tracking number, COD, carrier and printed state on each item' })),
        }),
        response: { 200: ListEnvelope(ShipmentListItemSchema), ...errorResponses(401, 422, 429) },
      },
    }, (request, reply) => {
      const accountId = caller(request).account.id;
      const key = `${accountId} ${request.protocol}://${request.host}${request.url}`;
      // a cached page is sent at once, as bytes: a list poll costs no store read, no serialization and no promise
      const version = knownShipmentListVersion(ctx, accountId);
      const cached = version === undefined ? undefined : listCache.get(key, version);
      if (cached !== undefined) {
        sendJson(reply, cached);
        return;
      }
      return (async () => {
        const current = await shipmentListVersion(ctx, accountId);
        let body = listCache.get(key, current);
        if (body === undefined) {
          const page = pageOf(request);
          const q = request.query;
          body = Buffer.from(reply.serialize(listBody(request, page, await listShipments(ctx, accountId, filtersOf(q), page, q.include === 'details'))) as string);
          listCache.set(key, current, body);
        }
        return sendJson(reply, body);
      })();
    });

    app.get('/v1/shipments/export.csv', {
      schema: {
        tags, operationId: 'exportShipments', summary: `The filtered list as CSV, newest first (at most ${MAX_EXPORT_ROWS} rows)`,
        querystring: Type.Object(listFilters),
        response: {
          200: { description: 'text/csv; charset=utf-8, one row per shipment with its details', content: { 'text/csv': { schema: { type: 'string' } } } },
          ...errorResponses(401, 422, 429),
        },
      },
    }, async (request, reply) => {
      const rows = await exportShipments(ctx, caller(request).account.id, filtersOf(request.query));
      return reply.header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', attachment(`shipments-${isoTime(ctx.clock.now()).slice(0, 10)}.csv`)).send(shipmentsCsv(rows));
    });

    app.get('/v1/shipments/labels', {
      schema: {
        tags, operationId: 'getMergedShipmentLabels', summary: "Several shipments' labels as one PDF, in the order named (thermal labels converted)",
        querystring: Type.Object({ ids: Type.String({ minLength: 1, maxLength: 100 * 65, description: 'Comma-separated shipment ids, 1 to 100' }) }),
        response: {
          200: { description: 'application/pdf', content: { 'application/pdf': { schema: { type: 'string', format: 'binary' } } } },
          ...errorResponses(401, 422, 429),
        },
      },
    }, async (request, reply) => {
      const ids = request.query.ids.split(',').map((id) => id.trim()).filter(Boolean);
      const merged = await mergedShipmentLabels(ctx, caller(request).account.id, ids);
      return reply.header('content-type', merged.mimeType).header('content-disposition', attachment(`labels-${ids.length}.pdf`)).send(merged.content as never);
    });

    app.get('/v1/shipments/:id', {
      schema: {
        tags, summary: 'Get a shipment with its parcels and tracking numbers', params: IdParams, querystring: WaitQuery,
        response: { 200: Envelope(ShipmentSchema), ...errorResponses(401, 403, 404, 422, 429) },
      },
    }, async (request) => ({
      data: await getShipment(ctx, caller(request).account.id, request.params.id, waitSeconds(request)),
      message: 'Shipment retrieved',
    }));

    for (const method of ['PATCH', 'PUT'] as const) {
      app.route({
        method, url: '/v1/shipments/:id', config: { mergeValidation: true },
        schema: {
          tags, summary: 'Update a shipment (creation fields only while pending after a failed creation)', params: IdParams, body: PatchShipmentBody,
          querystring: WaitQuery,
          headers: Type.Object({ prefer: Type.Optional(Type.String({ description: 'wait=N (≤ 30): answer once a corrected shipment\'s carrier step finished' })) }),
          response: { 200: Envelope(ShipmentSchema), ...errorResponses(400, 401, 403, 404, 413, 422, 429) },
        },
        handler: async (request) => {
          const accountId = caller(request).account.id;
          const patched = await patchShipment(ctx, accountId, request.params.id, request.body as Record<string, unknown>, request.fieldErrors);
          // a corrected shipment is created again: a client that waits gets the carrier's answer
          const wait = waitSeconds(request);
          return { data: wait > 0 ? await getShipment(ctx, accountId, patched.id, wait) : patched, message: 'Shipment updated' };
        },
      });
    }

    app.post('/v1/shipments/:id/cancel', {
      schema: {
        tags, summary: 'Cancel at the carrier (only pending or created)', params: IdParams,
        response: { 200: Envelope(ShipmentSchema), ...errorResponses(401, 403, 404, 422, 429, 503) },
      },
    }, async (request) => ({ data: await cancelShipment(ctx, caller(request).account.id, request.params.id), message: 'Shipment cancelled' }));

    app.post('/v1/shipments/:id/return', {
      config: { mergeValidation: true },
      schema: {
        tags, summary: "Create the shipment's return label: the same carrier's return shipment, the parties swapped, linked by return_of",
        params: IdParams, body: ReturnShipmentBody, querystring: WaitQuery,
        headers: Type.Object({ prefer: Type.Optional(Type.String({ description: 'wait=N (≤ 30): answer once the carrier step finished' })) }),
        response: { 201: Envelope(ShipmentSchema), ...errorResponses(400, 401, 403, 404, 409, 422, 429) },
      },
    }, async (request, reply) => {
      const accountId = caller(request).account.id;
      const created = await createReturnShipment(ctx, accountId, request.params.id, request.body as ReturnOverrides, request.fieldErrors);
      const wait = waitSeconds(request);
      const data = wait > 0 ? await getShipment(ctx, accountId, created.id, wait) : created;
      return reply.code(201).send({ data, message: 'Return shipment created' });
    });

    app.post('/v1/shipments/:id/retry', {
      schema: {
        tags, summary: 'Queue creation again for a pending shipment whose creation failed', params: IdParams,
        response: { 200: Envelope(ShipmentSchema), ...errorResponses(401, 403, 404, 422, 429) },
      },
    }, async (request) => ({ data: await retryShipment(ctx, caller(request).account.id, request.params.id), message: 'Shipment creation queued' }));

    app.delete('/v1/shipments/:id', {
      schema: {
        tags, summary: 'Delete a shipment not created at the carrier', params: IdParams,
        response: { 204: Type.Null({ description: 'Deleted' }), ...errorResponses(401, 403, 404, 422, 429) },
      },
    }, async (request, reply) => {
      await deleteShipment(ctx, caller(request).account.id, request.params.id);
      return reply.code(204).send(null);
    });

    app.get('/v1/shipments/:id/label', {
      schema: {
        tags, summary: "The merged label of all parcels, in the shipment's label format", params: IdParams,
        querystring: Type.Object({
          download: Type.Optional(Type.String({ enum: ['1', 'true'] })),
          layout: Type.Optional(Type.String({ enum: ['a4'], description: 'pdf only: four 10×15 cm labels per A4 page' })),
          format: Type.Optional(Type.String({
            enum: ['png', ...LABEL_FORMATS],
            description: "png: a PNG picture of each parcel label; pdf, zpl or epl: the label in that format (converted offline when it is not the shipment's)",
          })),
          parcel: Type.Optional(Type.Integer({ minimum: 1, maximum: 50, description: 'with format=png: only this parcel (1-based)' })),
        }),
        response: {
          200: JsonOrFile(Type.Union([Envelope(LabelSchema), Envelope(LabelPreviewSchema)]), {
            'application/pdf': 'The PDF label', 'application/zpl': 'The ZPL label', 'application/epl': 'The EPL label',
            'image/png': 'With format=png: the picture of the one parcel named by parcel',
          }, 'JSON by default: the label as base64 (with format=png, a base64 PNG per parcel). The bytes themselves with ?download=1 '
            + 'or an Accept of application/pdf, application/zpl, application/epl, application/octet-stream or image/png: the label '
            + 'in the type of its format (with format=png, the PNG of the one parcel named by parcel)'),
          ...errorResponses(401, 403, 404, 422, 429),
        },
      },
    }, async (request, reply) => {
      const accountId = caller(request).account.id;
      const raw = Boolean(request.query.download) || prefersRawBytes(String(request.headers.accept ?? ''));
      if (request.query.format === 'png') return sendPreview(await getShipmentLabelPreview(ctx, accountId, request.params.id, request.query.parcel), raw, reply);
      if (request.query.parcel !== undefined) throw new ValidationError({ parcel: ['is for format=png previews'] });
      const format = request.query.format as LabelFormat | undefined;
      const label = await getShipmentLabel(ctx, accountId, request.params.id, { layout: request.query.layout as 'a4' | undefined, format });
      if (raw) {
        return reply.header('content-type', label.mimeType).header('content-disposition', attachment(label.fileName))
          .send(label.content as never); // a Buffer is sent as it is, never through the JSON serializer
      }
      return {
        data: {
          shipment_id: label.shipmentId, reference_number: label.referenceNumber, provider_shipment_id: label.providerShipmentId,
          label: {
            content: label.content.toString('base64'), format: label.format, mime_type: label.mimeType, size: label.content.length,
            pages: label.pages, source: label.source,
          },
        },
        message: 'Label retrieved',
      };
    });

    app.get('/v1/shipments/:id/documents', {
      schema: {
        tags, summary: "The shipment's customs documents: the carrier's commercial invoice or CN23, or packdesk's commercial invoice",
        params: IdParams,
        response: { 200: Envelope(Type.Array(ShipmentDocumentSchema)), ...errorResponses(401, 403, 404, 429) },
      },
    }, async (request) => ({ data: await listShipmentDocuments(ctx, caller(request).account.id, request.params.id), message: 'Documents retrieved' }));

    app.get('/v1/shipments/:id/documents/:type', {
      schema: {
        tags, summary: 'One customs document of the shipment, as a PDF',
        params: Type.Object({ id: IdParams.properties.id, type: Type.String({ enum: [...CUSTOMS_DOCUMENT_TYPES] }) }),
        response: {
          200: { description: 'application/pdf', content: { 'application/pdf': { schema: { type: 'string', format: 'binary' } } } },
          ...errorResponses(401, 403, 404, 422, 429),
        },
      },
    }, async (request, reply) => {
      const document = await getShipmentDocument(ctx, caller(request).account.id, request.params.id, request.params.type as CustomsDocumentType);
      return reply.header('content-type', 'application/pdf').header('content-disposition', attachment(document.fileName)).send(document.content as never);
    });
  };
}
