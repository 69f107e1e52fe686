import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { ServiceContext } from '../../src/services/context.js';
import {
  createDispatch, DISPATCH_STATUSES, getDispatch, getDispatchDocument, listDispatches, pickupWindows, retryDispatch, waitingForDispatch,
  type DispatchBody, type DispatchStatus,
} from '../../src/services/dispatches.js';
import { caller } from '../http/conventions.js';
import { attachment, listBody, pageOf } from '../http/reply.js';
import { Envelope, errorResponses, FieldErrorsSchema, IdParams, ListEnvelope, Nullable, PageQuery, Timestamp } from '../http/schemas.js';
import { PrintSchema } from './shipment-schemas.js';

const tags = ['Dispatches'];

const PickupSchema = Type.Object({
  date: Type.String({ minLength: 10, maxLength: 10, description: 'YYYY-MM-DD, today or later' }),
  from: Type.String({ minLength: 5, maxLength: 5, description: 'HH:MM, the station\'s local time' }),
  to: Type.String({ minLength: 5, maxLength: 5, description: 'HH:MM, after from' }),
}, { additionalProperties: false });

const CreateDispatchBody = Type.Object({
  shipping_channel_id: Type.String({ minLength: 1, maxLength: 64 }),
  shipment_ids: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 64 }), {
    minItems: 1, maxItems: 1000, description: "Default: every created shipment of the channel not yet in a dispatch",
  })),
  pickup: Type.Optional(Nullable({ ...PickupSchema, description: "Book the carrier's courier for this window (where the carrier offers it)" })),
  print: Type.Optional(Nullable({ ...PrintSchema, description: 'Print the hand-over document once it exists' })),
});

const DispatchSchema = Type.Object({
  id: Type.String({ description: 'dp_…' }),
  shipping_channel_id: Type.String(),
  provider: Type.String(),
  status: Type.String({ enum: [...DISPATCH_STATUSES], description: 'pending: at the carrier now; dispatched: handed over, its document ready; failed: the carrier refused (see failure)' }),
  capabilities: Type.Object({ close: Type.Boolean(), protocol: Type.Boolean(), pickup: Type.Boolean() }, { description: 'What the carrier does at hand-over' }),
  shipments: Type.Array(Type.Object({
    id: Type.String(), reference_number: Nullable(Type.String()), tracking_numbers: Type.Array(Type.String()),
    cash_on_delivery_amount: Nullable(Type.Number()), cash_on_delivery_currency: Nullable(Type.String()),
  })),
  shipments_count: Type.Integer(),
  parcels_count: Type.Integer(),
  weight_kg: Type.Number(),
  cash_on_delivery_totals: Type.Array(Type.Object({ currency: Type.String(), amount: Type.Number() })),
  pickup_request: Nullable(PickupSchema),
  pickup: Nullable(Type.Object({
    confirmation: Nullable(Type.String({ description: "The carrier's booking number; null when the booking's answer was lost and the carrier cannot be asked for it" })),
    date: Type.String(), from: Type.String(), to: Type.String(),
    note: Nullable(Type.String({ description: 'What to check at the carrier when the booking is not confirmed' })),
  }, { description: 'The courier the carrier booked' })),
  carrier_ref: Nullable(Type.String({ description: "The carrier's id of the close, protocol or pickup" })),
  has_document: Type.Boolean(),
  document_source: Nullable(Type.String({ enum: ['carrier', 'packdesk'], description: "carrier: the carrier's protocol; packdesk: packdesk's hand-over list" })),
  failure: Nullable(Type.Object({ message: Type.String(), errors: FieldErrorsSchema, attempts: Type.Integer(), at: Timestamp })),
  created_at: Timestamp,
  updated_at: Timestamp,
  dispatched_at: Nullable(Timestamp),
});

export function dispatchRoutes(ctx: ServiceContext): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.post('/v1/dispatches', {
      config: { mergeValidation: true },
      schema: {
        tags, operationId: 'createDispatch', summary: "Hand a channel's created shipments over to the carrier (close, protocol, courier as it needs)",
        body: CreateDispatchBody,
        response: { 201: Envelope(DispatchSchema), ...errorResponses(400, 401, 403, 409, 413, 422, 429) },
      },
    }, async (request, reply) => {
      const data = await createDispatch(ctx, caller(request).account.id, request.body as DispatchBody, request.fieldErrors);
      return reply.code(201).send({ data, message: 'Dispatch created' });
    });

    app.get('/v1/dispatches', {
      schema: {
        tags, operationId: 'listDispatches', summary: 'List dispatches, newest first',
        querystring: PageQuery(20, {
          shipping_channel_id: Type.Optional(Type.String()),
          status: Type.Optional(Type.String({ enum: [...DISPATCH_STATUSES] })),
          created_from: Type.Optional(Type.String({ format: 'date-time' })),
          created_to: Type.Optional(Type.String({ format: 'date-time' })),
        }),
        response: { 200: ListEnvelope(DispatchSchema), ...errorResponses(401, 422, 429) },
      },
    }, async (request) => {
      const q = request.query;
      const page = pageOf(request);
      return listBody(request, page, await listDispatches(ctx, caller(request).account.id, {
        channelId: q.shipping_channel_id, status: q.status as DispatchStatus | undefined,
        createdFrom: q.created_from ? Date.parse(q.created_from) : undefined, createdTo: q.created_to ? Date.parse(q.created_to) : undefined,
      }, page));
    });

    app.get('/v1/dispatches/waiting', {
      schema: {
        tags, operationId: 'listWaitingForDispatch', summary: 'Per channel, the created shipments no dispatch has handed over yet',
        response: { 200: Envelope(Type.Array(Type.Object({ shipping_channel_id: Type.String(), shipments_count: Type.Integer() }))), ...errorResponses(401, 429) },
      },
    }, async (request) => ({ data: await waitingForDispatch(ctx, caller(request).account.id), message: 'Waiting shipments counted' }));

    app.get('/v1/dispatches/pickup-windows', {
      schema: {
        tags, operationId: 'listPickupWindows', summary: "The courier windows a channel's carrier offers on a day, for the address its waiting shipments leave from",
        querystring: Type.Object({
          shipping_channel_id: Type.String({ minLength: 1, maxLength: 64 }),
          date: Type.String({ minLength: 10, maxLength: 10, description: 'YYYY-MM-DD, today or later' }),
        }),
        response: {
          200: Envelope(Type.Object({
            offered: Type.Boolean({ description: 'false: the carrier books couriers but publishes no windows; any window may be asked for' }),
            windows: Type.Array(Type.Object({ date: Type.String(), from: Type.String(), to: Type.String() })),
          })),
          ...errorResponses(401, 422, 429, 503),
        },
      },
    }, async (request) => ({
      data: await pickupWindows(ctx, caller(request).account.id, request.query.shipping_channel_id, request.query.date),
      message: 'Pickup windows retrieved',
    }));

    app.get('/v1/dispatches/:id', {
      schema: { tags, operationId: 'getDispatch', summary: 'Get a dispatch with its shipments and totals', params: IdParams, response: { 200: Envelope(DispatchSchema), ...errorResponses(401, 403, 404, 429) } },
    }, async (request) => ({ data: await getDispatch(ctx, caller(request).account.id, request.params.id), message: 'Dispatch retrieved' }));

    app.post('/v1/dispatches/:id/retry', {
      schema: { tags, operationId: 'retryDispatch', summary: 'Queue a failed hand-over again', params: IdParams, response: { 200: Envelope(DispatchSchema), ...errorResponses(401, 403, 404, 422, 429) } },
    }, async (request) => ({ data: await retryDispatch(ctx, caller(request).account.id, request.params.id), message: 'Dispatch queued again' }));

    app.get('/v1/dispatches/:id/document', {
      schema: {
        tags, operationId: 'getDispatchDocument', summary: "The hand-over document: the carrier's protocol, or packdesk's hand-over list (PDF)", params: IdParams,
        response: {
          200: { description: 'application/pdf', content: { 'application/pdf': { schema: { type: 'string', format: 'binary' } } } },
          ...errorResponses(401, 403, 404, 429),
        },
      },
    }, async (request, reply) => {
      const document = await getDispatchDocument(ctx, caller(request).account.id, request.params.id);
      return reply.header('content-type', 'application/pdf').header('content-disposition', attachment(`${request.params.id}.pdf`)).send(document as never);
    });
  };
}
