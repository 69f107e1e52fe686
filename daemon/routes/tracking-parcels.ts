import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { CHECK_DELAY_HOURS_RANGE, MAX_CHECKS_RANGE, TRACKING_STATUSES } from '../../src/domain/tracking.js';
import type { ServiceContext } from '../../src/services/context.js';
import {
  createTrackingParcel, deleteTrackingParcel, getTrackingParcel, listTrackingParcels, patchTrackingParcel, refreshTrackingParcel,
  type TrackingParcelBody, type TrackingParcelPatch,
} from '../../src/services/tracking/manage.js';
import { caller } from '../http/conventions.js';
import { listBody, pageOf } from '../http/reply.js';
import { Envelope, errorResponses, FreeObject, IdParams, ListEnvelope, Nullable, PageQuery, PlainText, Timestamp } from '../http/schemas.js';

const Status = Type.String({ enum: [...TRACKING_STATUSES] });

export const TrackingParcelSchema = Type.Object({
  id: Type.String({ description: 'tp_…' }),
  tracking_number: Type.String(),
  shipping_channel_id: Type.String(),
  shipment_id: Nullable(Type.String({ description: 'null when created through the API' })),
  origin: Type.String({ enum: ['external', 'shipment'] }),
  status: Status,
  recipient_name: Nullable(Type.String()),
  recipient_email: Nullable(Type.String()),
  recipient_phone: Nullable(Type.String()),
  check_delay_hours: Type.Integer(),
  max_checks: Type.Integer(),
  checks_done: Type.Integer(),
  next_check_at: Nullable({ ...Timestamp, description: 'null once tracking stopped' }),
  last_checked_at: Nullable(Timestamp),
  external_data: FreeObject,
  tracking_url: Nullable(Type.String()),
  created_at: Timestamp,
  updated_at: Timestamp,
});

export const StatusUpdateSchema = Type.Object({
  id: Type.String({ description: 'tpu_…' }),
  status: Status,
  carrier_status: Type.Object({ code: Type.String(), text: Nullable(Type.String()) }, { description: "The carrier's raw code and text" }),
  location: Nullable(Type.String()),
  description: Nullable(Type.String()),
  timestamp: Timestamp,
});

export const TrackingParcelDetailSchema = Type.Object({
  ...TrackingParcelSchema.properties,
  status_updates: Type.Array(StatusUpdateSchema, { description: 'Newest first' }),
});

const editableFields = {
  recipient_name: Type.Optional(Nullable(PlainText({ maxLength: 255 }))),
  recipient_email: Type.Optional(Nullable(Type.String({ maxLength: 255, format: 'email' }))),
  recipient_phone: Type.Optional(Nullable(PlainText({ maxLength: 32 }))),
  check_delay_hours: Type.Optional(Type.Integer({ minimum: CHECK_DELAY_HOURS_RANGE.min, maximum: CHECK_DELAY_HOURS_RANGE.max, description: 'Hours between checks (default 6)' })),
  max_checks: Type.Optional(Type.Integer({ minimum: MAX_CHECKS_RANGE.min, maximum: MAX_CHECKS_RANGE.max, description: 'Checks before tracking stops (default 20)' })),
  external_data: Type.Optional(Nullable(Type.Object({}, { additionalProperties: true, description: '≤ 16 KiB as JSON' }))),
};

const CreateBody = Type.Object({
  tracking_number: PlainText({ minLength: 1, maxLength: 64, description: "Checked against the provider's number format where one is known" }),
  shipping_channel_id: Type.String({ minLength: 1, description: 'An active channel of the account' }),
  ...editableFields,
});

const PatchBody = Type.Object({
  ...editableFields,
  tracking_number: Type.Optional(Type.String({ maxLength: 64, description: 'Immutable: a different value is refused' })),
  shipping_channel_id: Type.Optional(Type.String({ maxLength: 64, description: 'Immutable: a different value is refused' })),
});

const tags = ['Tracking parcels'];

export function trackingParcelRoutes(ctx: ServiceContext): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.post('/v1/tracking-parcels', {
      config: { mergeValidation: true },
      schema: {
        tags, summary: 'Track a parcel by its carrier tracking number (first check queued at once)', body: CreateBody,
        response: { 201: Envelope(TrackingParcelDetailSchema), ...errorResponses(400, 401, 403, 409, 413, 422, 429) },
      },
    }, async (request, reply) => {
      const data = await createTrackingParcel(ctx, caller(request).account.id, request.body as TrackingParcelBody, request.fieldErrors);
      return reply.code(201).send({ data, message: 'Tracking parcel created' });
    });

    app.get('/v1/tracking-parcels', {
      schema: {
        tags, summary: 'List tracking parcels, newest first',
        querystring: PageQuery(20, {
          status: Type.Optional(Status),
          shipping_channel_id: Type.Optional(Type.String()),
          search: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'Part of a tracking number' })),
        }),
        response: { 200: ListEnvelope(TrackingParcelSchema), ...errorResponses(401, 422, 429) },
      },
    }, async (request) => {
      const page = pageOf(request);
      const q = request.query;
      return listBody(request, page, await listTrackingParcels(ctx, caller(request).account.id, {
        status: q.status, channelId: q.shipping_channel_id, search: q.search,
      }, page));
    });

    app.get('/v1/tracking-parcels/:id', {
      schema: {
        tags, summary: 'Get a tracking parcel with its status updates (newest first)', params: IdParams,
        response: { 200: Envelope(TrackingParcelDetailSchema), ...errorResponses(401, 403, 404, 429) },
      },
    }, async (request) => ({ data: await getTrackingParcel(ctx, caller(request).account.id, request.params.id), message: 'Tracking parcel retrieved' }));

    for (const method of ['PATCH', 'PUT'] as const) {
      app.route({
        method, url: '/v1/tracking-parcels/:id', config: { mergeValidation: true },
        schema: {
          tags, summary: 'Update recipient, external data, check delay or number of checks', params: IdParams, body: PatchBody,
          response: { 200: Envelope(TrackingParcelDetailSchema), ...errorResponses(400, 401, 403, 404, 413, 422, 429) },
        },
        handler: async (request) => ({
          data: await patchTrackingParcel(ctx, caller(request).account.id, request.params.id, request.body as TrackingParcelPatch, request.fieldErrors),
          message: 'Tracking parcel updated',
        }),
      });
    }

    app.delete('/v1/tracking-parcels/:id', {
      schema: {
        tags, summary: 'Stop tracking and delete a tracking parcel created through the API', params: IdParams,
        response: { 204: Type.Null({ description: 'Deleted' }), ...errorResponses(401, 403, 404, 422, 429) },
      },
    }, async (request, reply) => {
      await deleteTrackingParcel(ctx, caller(request).account.id, request.params.id);
      return reply.code(204).send(null);
    });

    app.post('/v1/tracking-parcels/:id/refresh', {
      schema: {
        tags, summary: 'Check the parcel at its carrier now (counts as a check)', params: IdParams,
        response: { 200: Envelope(TrackingParcelDetailSchema), ...errorResponses(401, 403, 404, 422, 429, 503) },
      },
    }, async (request) => ({ data: await refreshTrackingParcel(ctx, caller(request).account.id, request.params.id), message: 'Tracking parcel refreshed' }));
  };
}
