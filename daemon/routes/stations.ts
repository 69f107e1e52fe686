import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { ServiceContext } from '../../src/services/context.js';
import {
  getAccountStationSettings, getStationSettings, listStations, putAccountStationSettings, putStationSettings, type StationSettings,
} from '../../src/services/station-settings.js';
import { caller } from '../http/conventions.js';
import { Envelope, errorResponses, Nullable, PlainText, Timestamp } from '../http/schemas.js';
import { AddressSchema, ContactSchema, StationNameSchema } from './shipment-schemas.js';

const tags = ['Stations'];
const Format = Type.String({ enum: ['pdf', 'zpl', 'epl'] });
const Dimension = Type.Number({ exclusiveMinimum: 0, maximum: 100_000 });
const PrinterId = Type.String({ minLength: 1, maxLength: 64 });

const BoxPresetSchema = Type.Object({
  name: PlainText({ minLength: 1, maxLength: 40 }),
  length_dimension: Dimension, width_dimension: Dimension, height_dimension: Dimension,
  weight_amount: Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum: 1_000_000, description: 'KG: what the empty box weighs, or a usual parcel in it' })),
}, { additionalProperties: false, description: 'A named box (centimetres) packers pick at the desk' });

const settingsFields = {
  sender_contact: Type.Optional(Nullable(ContactSchema)),
  origin_address: Type.Optional(Nullable({ ...AddressSchema, description: 'Where the carrier picks parcels up' })),
  shipping_channel_id: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 64 }))),
  label_format: Type.Optional(Nullable(Format)),
  printers: Type.Optional(Nullable(Type.Object(
    { pdf: Type.Optional(Nullable(PrinterId)), zpl: Type.Optional(Nullable(PrinterId)), epl: Type.Optional(Nullable(PrinterId)) },
    { additionalProperties: false, description: 'The printer for each label format (prn_…)' },
  ))),
  copies: Type.Optional(Nullable(Type.Integer({ minimum: 1, maximum: 20 }))),
  auto_print: Type.Optional(Nullable(Type.Boolean({ description: 'Print each label on the printer for its format as soon as it exists' }))),
  box_presets: Type.Optional(Nullable(Type.Array(BoxPresetSchema, { maxItems: 30 }))),
};

const SettingsBody = Type.Object(settingsFields, { description: 'Every field optional; null or absent: inherited (from the account, else the defaults)' });

const AccountSettingsSchema = Type.Object({ ...settingsFields, updated_at: Nullable(Timestamp) });

const EffectiveSchema = Type.Object({
  sender_contact: Nullable(ContactSchema),
  origin_address: Nullable(AddressSchema),
  shipping_channel_id: Nullable(Type.String()),
  label_format: Format,
  printers: Type.Object({ pdf: Nullable(Type.String()), zpl: Nullable(Type.String()), epl: Nullable(Type.String()) },
    { description: "The station's, else the account's, else the account's default printer for the format" }),
  copies: Type.Integer(),
  auto_print: Type.Boolean(),
  box_presets: Type.Array(BoxPresetSchema),
}, { description: "What the station works with: its own values, else the account's, else the defaults (pdf, 1 copy, no auto-print)" });

const StationSettingsSchema = Type.Object({
  station: Type.String(),
  settings: Type.Object(settingsFields, { description: "The station's own values" }),
  effective: EffectiveSchema,
  updated_at: Nullable(Timestamp),
});

const NameParams = Type.Object({ name: StationNameSchema });

export function stationRoutes(ctx: ServiceContext): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get('/v1/stations', {
      schema: {
        tags, operationId: 'listStations', summary: 'The stations: those a daemon serves now and those with settings of their own',
        response: {
          200: Envelope(Type.Array(Type.Object({
            station: Type.String(),
            served: Type.Boolean({ description: 'A daemon serving it was seen lately' }),
            this_daemon: Type.Boolean({ description: 'The daemon answering serves it' }),
            settings_updated_at: Nullable(Timestamp),
          }))),
          ...errorResponses(401, 429),
        },
      },
    }, async (request) => ({ data: await listStations(ctx, caller(request).account.id), message: 'Stations retrieved' }));

    app.get('/v1/station-settings', {
      schema: {
        tags, operationId: 'getAccountStationSettings', summary: "The account's station settings, which every station starts from",
        response: { 200: Envelope(AccountSettingsSchema), ...errorResponses(401, 429) },
      },
    }, async (request) => ({ data: await getAccountStationSettings(ctx, caller(request).account.id), message: 'Station settings retrieved' }));

    app.put('/v1/station-settings', {
      config: { mergeValidation: true },
      schema: {
        tags, operationId: 'putAccountStationSettings', summary: "Replace the account's station settings", body: SettingsBody,
        response: { 200: Envelope(AccountSettingsSchema), ...errorResponses(400, 401, 403, 413, 422, 429) },
      },
    }, async (request) => ({
      data: await putAccountStationSettings(ctx, caller(request).account.id, request.body as StationSettings, request.fieldErrors),
      message: 'Station settings saved',
    }));

    app.get('/v1/stations/:name/settings', {
      schema: {
        tags, operationId: 'getStationSettings', summary: "A station's own settings and those it works with", params: NameParams,
        response: { 200: Envelope(StationSettingsSchema), ...errorResponses(401, 422, 429) },
      },
    }, async (request) => ({ data: await getStationSettings(ctx, caller(request).account.id, request.params.name), message: 'Station settings retrieved' }));

    app.put('/v1/stations/:name/settings', {
      config: { mergeValidation: true },
      schema: {
        tags, operationId: 'putStationSettings', summary: "Replace a station's own settings (null: take the account's)", params: NameParams, body: SettingsBody,
        response: { 200: Envelope(StationSettingsSchema), ...errorResponses(400, 401, 403, 413, 422, 429) },
      },
    }, async (request) => ({
      data: await putStationSettings(ctx, caller(request).account.id, request.params.name, request.body as StationSettings, request.fieldErrors),
      message: 'Station settings saved',
    }));
  };
}
