import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { CHANNEL_STATUSES, getChannelRow, presentChannel } from '../../src/services/channel-records.js';
import { createChannel, deleteChannel, listChannels, updateChannel, validateChannel } from '../../src/services/channels.js';
import { getAuthorization, startAuthorization } from '../../src/services/channel-authorization.js';
import { PROVIDER_CODES } from '../../src/carriers/registry.js';
import type { ServiceContext } from '../../src/services/context.js';
import { caller } from '../http/conventions.js';
import { listBody, pageOf } from '../http/reply.js';
import { CapabilitiesSchema } from './providers.js';
import { ParcelDefaultsSchema } from './shipment-schemas.js';
import {
  Envelope, errorResponses, FieldErrorsSchema, FreeObject, IdParams, ListEnvelope, MessageEnvelope, Nullable, PageQuery, PlainText, Timestamp,
} from '../http/schemas.js';

const Charge = Type.Number({ minimum: 0, maximum: 1_000_000, description: "In the list's currency" });
const Percent = Type.Number({ minimum: 0, maximum: 100 });

/** A channel's own prices (src/domain/price-list.ts): parcels by weight band and zone, then the contract's surcharges. */
export const PriceListSchema = Type.Object({
  currency: Type.String({ minLength: 3, maxLength: 3, description: 'ISO 4217' }),
  zones: Type.Array(Type.Object({
    name: PlainText({ minLength: 1, maxLength: 64 }),
    countries: Type.Array(Type.String({ minLength: 2, maxLength: 2, description: 'ISO 3166-1 alpha-2' }), { minItems: 1, maxItems: 250 }),
    transit_days: Type.Optional(Nullable(Type.Integer({ minimum: 0, maximum: 60, description: "Working days on the way to the zone, quoted where the carrier gives none" }))),
  }, { additionalProperties: false }), { minItems: 1, maxItems: 50, description: 'Destination countries by zone; a country in no zone is not priced' }),
  bands: Type.Array(Type.Object({
    max_weight_kg: Type.Number({ exclusiveMinimum: 0, maximum: 10_000 }),
    prices: Type.Record(Type.String(), Charge, { description: 'A parcel of this band, by zone name' }),
  }, { additionalProperties: false }), { minItems: 1, maxItems: 100, description: 'Parcel weight bands, lightest first: a parcel costs the first band it fits' }),
  cod: Type.Optional(Nullable(Type.Object({ fixed: Type.Optional(Charge), percent: Type.Optional(Percent) }, { additionalProperties: false, description: 'Cash on delivery: a fee and a percentage of the amount' }))),
  fuel_percent: Type.Optional(Nullable({ ...Percent, description: "Fuel surcharge on the parcels' prices" })),
  extra_parcel: Type.Optional(Nullable({ ...Charge, description: 'Each parcel of a shipment after its first' })),
  valid_from: Type.Optional(Nullable(Type.String({ maxLength: 10, description: 'YYYY-MM-DD: shipments shipped from this day are priced by it' }))),
}, { additionalProperties: false, description: "The channel's own prices: a shipment its carrier answers no price for is priced by them (total_price, price_source price_list)" });

export const ChannelSchema = Type.Object({
  id: Type.String({ description: 'ch_…' }),
  name: Type.String(),
  provider: Type.String({ enum: [...PROVIDER_CODES] }),
  description: Nullable(Type.String()),
  status: Type.String({ enum: [...CHANNEL_STATUSES] }),
  settings: Type.Object({}, { additionalProperties: true, description: 'Provider settings; secret values masked as ••••••••' }),
  capabilities: CapabilitiesSchema,
  parcel_defaults: Nullable(ParcelDefaultsSchema),
  price_list: Nullable(PriceListSchema),
  dispatch_at: Nullable(Type.String({ description: "HH:MM in the station's time zone: the channel's dispatch is made then, each day, by itself (null: by hand)" })),
  last_validated_at: Nullable(Timestamp),
  validation_error: Nullable(Type.Object({ message: Type.String(), errors: FieldErrorsSchema })),
  created_at: Timestamp,
  updated_at: Timestamp,
});

const CreateBody = Type.Object({
  name: PlainText({ minLength: 1, maxLength: 255 }),
  provider: Type.String({ minLength: 1, description: `One of ${PROVIDER_CODES.join(', ')}` }),
  settings: FreeObject,
  description: Type.Optional(Nullable(PlainText({ maxLength: 1000, multiline: true }))),
  parcel_defaults: Type.Optional(Nullable(ParcelDefaultsSchema)),
  price_list: Type.Optional(Nullable(PriceListSchema)),
  dispatch_at: Type.Optional(Nullable(Type.String({ minLength: 5, maxLength: 5, description: "HH:MM: make the channel's dispatch then each day (the station's time zone)" }))),
});

const UpdateBody = Type.Object({
  name: Type.Optional(PlainText({ minLength: 1, maxLength: 255 })),
  description: Type.Optional(Nullable(PlainText({ maxLength: 1000, multiline: true }))),
  settings: Type.Optional(FreeObject),
  status: Type.Optional(Type.String({ enum: ['active', 'inactive'] })),
  parcel_defaults: Type.Optional(Nullable(ParcelDefaultsSchema)),
  price_list: Type.Optional(Nullable(PriceListSchema)),
  dispatch_at: Type.Optional(Nullable(Type.String({ minLength: 5, maxLength: 5, description: "HH:MM: make the channel's dispatch then each day (the station's time zone)" }))),
});

export const AuthorizationSchema = Type.Object({
  status: Type.String({ enum: ['none', 'pending', 'authorized', 'denied', 'expired', 'revoked'] }),
  user_code: Nullable(Type.String({ description: 'The code the person enters at the verification URL (while pending)' })),
  verification_uri: Nullable(Type.String()),
  verification_uri_complete: Nullable(Type.String({ description: 'The verification URL with the code filled in' })),
  expires_at: Nullable(Timestamp),
  authorized_at: Nullable(Timestamp),
  message: Nullable(Type.String({ description: 'Why the last authorization ended without a grant, or the grant was lost' })),
});

const tags = ['Shipping channels'];

export function channelRoutes(ctx: ServiceContext): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.post('/v1/shipping-channels', {
      config: { mergeValidation: true },
      schema: {
        tags, summary: 'Create a shipping channel (validated with the carrier at once)', body: CreateBody,
        response: { 201: Envelope(ChannelSchema), ...errorResponses(400, 401, 403, 409, 413, 422, 429) },
      },
    }, async (request, reply) => {
      const data = await createChannel(ctx, caller(request).account.id, request.body, request.fieldErrors);
      return reply.code(201).send({ data, message: 'Shipping channel created' });
    });

    app.get('/v1/shipping-channels', {
      schema: {
        tags, summary: 'List shipping channels',
        querystring: PageQuery(20, {
          provider: Type.Optional(Type.String({ enum: [...PROVIDER_CODES] })),
          status: Type.Optional(Type.String({ enum: [...CHANNEL_STATUSES] })),
        }),
        response: { 200: ListEnvelope(ChannelSchema), ...errorResponses(401, 422, 429) },
      },
    }, async (request) => {
      const page = pageOf(request);
      return listBody(request, page, await listChannels(ctx, caller(request).account.id, request.query, page));
    });

    app.get('/v1/shipping-channels/:id', {
      schema: {
        tags, summary: 'Get a shipping channel', params: IdParams,
        response: { 200: Envelope(ChannelSchema), ...errorResponses(401, 403, 404, 429) },
      },
    }, async (request) => ({
      data: presentChannel(ctx, await getChannelRow(ctx, caller(request).account.id, request.params.id)),
      message: 'Shipping channel retrieved',
    }));

    for (const method of ['PATCH', 'PUT'] as const) {
      app.route({
        method, url: '/v1/shipping-channels/:id',
        config: { mergeValidation: true },
        schema: {
          tags, summary: 'Update a shipping channel (settings merged key by key)', params: IdParams, body: UpdateBody,
          response: { 200: Envelope(ChannelSchema), ...errorResponses(400, 401, 403, 404, 413, 422, 429) },
        },
        handler: async (request) => ({
          data: await updateChannel(ctx, caller(request).account.id, request.params.id, request.body, request.fieldErrors),
          message: 'Shipping channel updated',
        }),
      });
    }

    app.delete('/v1/shipping-channels/:id', {
      schema: {
        tags, summary: 'Delete a shipping channel', params: IdParams,
        response: { 200: MessageEnvelope, ...errorResponses(401, 403, 404, 422, 429) },
      },
    }, async (request) => {
      await deleteChannel(ctx, caller(request).account.id, request.params.id);
      return { message: 'Shipping channel deleted' };
    });

    app.post('/v1/shipping-channels/:id/validate', {
      schema: {
        tags, summary: "Check the channel's credentials with the carrier", params: IdParams,
        response: { 200: Envelope(ChannelSchema), ...errorResponses(401, 403, 404, 422, 429, 503) },
      },
    }, async (request) => {
      const data = await validateChannel(ctx, caller(request).account.id, request.params.id);
      return { data, message: data.status === 'active' ? 'Shipping channel validated' : 'Shipping channel validation failed' };
    });

    app.post('/v1/shipping-channels/:id/authorize', {
      schema: {
        tags, summary: "Start the carrier's device flow: a person approves packdesk at the verification URL", params: IdParams,
        response: { 200: Envelope(AuthorizationSchema), ...errorResponses(401, 403, 404, 422, 429, 503) },
      },
    }, async (request) => {
      const data = await startAuthorization(ctx, caller(request).account.id, request.params.id);
      return { data, message: `Open ${data.verification_uri_complete ?? data.verification_uri} and enter the code ${data.user_code}` };
    });

    app.get('/v1/shipping-channels/:id/authorization', {
      schema: {
        tags, summary: "The channel's authorization by a person (never its tokens)", params: IdParams,
        response: { 200: Envelope(AuthorizationSchema), ...errorResponses(401, 403, 404, 422, 429) },
      },
    }, async (request) => ({
      data: await getAuthorization(ctx, caller(request).account.id, request.params.id),
      message: 'Authorization retrieved',
    }));
  };
}
