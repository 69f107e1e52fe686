import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { PICKUP_POINT_TYPES } from '../../src/carriers/types.js';
import type { ServiceContext } from '../../src/services/context.js';
import { getPickupPoint, searchPickupPoints, type PointSearchQuery } from '../../src/services/pickup-points.js';
import { caller } from '../http/conventions.js';
import { Envelope, errorResponses, Nullable } from '../http/schemas.js';
import { AddressSchema } from './shipment-schemas.js';

const tags = ['Pickup points'];

const PickupPointSchema = Type.Object({
  provider: Type.String(),
  provider_point_id: Type.String({ description: "The carrier's id of the point: a shipment's pickup_point.provider_point_id" }),
  name: Type.String(),
  type: Type.String({ enum: [...PICKUP_POINT_TYPES] }),
  address: AddressSchema,
  opening_hours: Type.Array(Type.Object({
    day: Type.Integer({ minimum: 1, maximum: 7, description: 'ISO weekday: 1 Monday … 7 Sunday' }), from: Type.String(), to: Type.String(),
  }), { description: 'Intervals in local time; a day absent is closed' }),
  location: Nullable(Type.Object({ lat: Type.Number(), lon: Type.Number() })),
  cash_on_delivery: Type.Boolean({ description: 'Whether a parcel with cash on delivery may go to the point' }),
  open: Type.Boolean({ description: 'false: the point takes no parcels now' }),
});

const Whose = {
  provider: Type.Optional(Type.String({ minLength: 1, maxLength: 32, description: "The carrier's code (GET /v1/providers): asked through the account's oldest active channel of it" })),
  shipping_channel_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: "Ask through this channel: its carrier, credentials and sandbox" })),
};

export function pickupPointRoutes(ctx: ServiceContext): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get('/v1/pickup-points', {
      schema: {
        tags, operationId: 'searchPickupPoints', summary: "Search a carrier's pickup points and lockers near a postal code, in a city or near coordinates",
        querystring: Type.Object({
          ...Whose,
          country: Type.String({ minLength: 2, maxLength: 2, description: 'ISO 3166-1 alpha-2' }),
          postal_code: Type.Optional(Type.String({ minLength: 1, maxLength: 16 })),
          city: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
          near: Type.Optional(Type.String({ minLength: 3, maxLength: 40, description: 'latitude,longitude' })),
          type: Type.Optional(Type.String({ enum: [...PICKUP_POINT_TYPES] })),
          limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
        }),
        response: { 200: Envelope(Type.Array(PickupPointSchema)), ...errorResponses(401, 422, 429, 503) },
      },
    }, async (request) => ({
      data: await searchPickupPoints(ctx, caller(request).account.id, request.query as PointSearchQuery),
      message: 'Pickup points found',
    }));

    app.get('/v1/pickup-points/:provider/:id', {
      schema: {
        tags, operationId: 'getPickupPoint', summary: 'One pickup point, checked at its carrier',
        params: Type.Object({ provider: Type.String({ minLength: 1, maxLength: 32 }), id: Type.String({ minLength: 1, maxLength: 64 }) }),
        querystring: Type.Object({ shipping_channel_id: Whose.shipping_channel_id }),
        response: { 200: Envelope(PickupPointSchema), ...errorResponses(401, 404, 422, 429, 503) },
      },
    }, async (request) => ({
      data: await getPickupPoint(ctx, caller(request).account.id, request.params.provider, request.params.id, request.query.shipping_channel_id),
      message: 'Pickup point retrieved',
    }));
  };
}
