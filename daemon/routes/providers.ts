import { Type, type TString } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { listProviders, settingsSchema } from '../../src/carriers/registry.js';
import { PICKUP_POINT_TYPES, type ProviderDefinition } from '../../src/carriers/types.js';
import { LABEL_FORMATS, type LabelFormat } from '../../src/domain/labels.js';
import { presentCapabilities } from '../../src/services/capability-records.js';
import { listSettingOptions } from '../../src/services/channels.js';
import type { ServiceContext } from '../../src/services/context.js';
import { Envelope, errorResponses, FreeObject, PlainText } from '../http/schemas.js';

const SettingSchema = Type.Object({
  key: Type.String(),
  type: Type.String({ enum: ['string', 'boolean', 'integer', 'number'] }),
  required: Type.Boolean(),
  secret: Type.Boolean(),
  description: Type.String(),
  default: Type.Optional(Type.Union([Type.String(), Type.Number(), Type.Boolean()])),
  enum: Type.Optional(Type.Array(Type.String())),
  listed: Type.Optional(Type.Boolean({ description: 'The carrier lists the values for the credentials: POST /v1/providers/{code}/setting-options' })),
  pattern: Type.Optional(Type.String({ description: "The carrier's format: a regular expression (ECMAScript) the whole value matches" })),
  pattern_description: Type.Optional(Type.String({ description: '`pattern` in words (e.g. "9 to 12 digits")' })),
  min_length: Type.Optional(Type.Integer({ description: 'Fewest characters of a string value' })),
  max_length: Type.Optional(Type.Integer({ description: 'Most characters of a string value' })),
  minimum: Type.Optional(Type.Number({ description: 'Smallest integer or number value' })),
  maximum: Type.Optional(Type.Number({ description: 'Largest integer or number value' })),
});

const CapabilityProperties = {
  label_sources: Type.Object(
    Object.fromEntries(LABEL_FORMATS.map((f) => [f, Type.String({ enum: ['carrier', 'converted'] })])) as Record<LabelFormat, TString>,
    { description: 'Per format: the carrier\'s own label, or one packdesk converts offline from the carrier\'s other format' },
  ),
  cash_on_delivery: Type.Boolean(),
  multi_parcel: Type.Boolean(),
  max_parcels: Type.Integer(),
  cancel: Type.Boolean({ description: 'A created shipment can be cancelled at the carrier (POST /v1/shipments/{id}/cancel)' }),
  tracking_per_shipment: Type.Boolean({ description: 'The carrier reports one state for a whole shipment, shared by its parcels' }),
  unavailable_because: Type.Object(
    { cancel: Type.Optional(Type.String()) },
    { description: 'Why a capability is off, by its name: the carrier lacks it, or the settings turn it off (and which)' },
  ),
};

/** What a channel can do with its settings: its provider's capabilities less those the settings turn off. */
export const CapabilitiesSchema = Type.Object(CapabilityProperties);

export const ProviderSchema = Type.Object({
  code: Type.String(),
  name: Type.String(),
  regions: Type.Array(Type.String()),
  label_formats: Type.Array(Type.String({ enum: [...LABEL_FORMATS] }), { description: 'Every provider gives every format' }),
  ...CapabilityProperties,
  settings: Type.Array(SettingSchema),
  dispatch: Type.Object({ close: Type.Boolean(), protocol: Type.Boolean(), pickup: Type.Boolean() }, {
    description: "What the carrier does at the end-of-day hand-over (POST /v1/dispatches): close the day's shipments, give its protocol, book a courier; all false: packdesk's own hand-over list",
  }),
  pickup_points: Type.Object({
    types: Type.Array(Type.String({ enum: [...PICKUP_POINT_TYPES] }), { description: "The point types its shipments deliver to (a shipment's pickup_point); empty: doors only" }),
    search: Type.Boolean({ description: 'Whether GET /v1/pickup-points searches its points (through a channel of it)' }),
  }),
  customs: Type.Boolean({ description: "Ships across a customs border, sending the shipment's customs declaration (false: such a route is refused with 422)" }),
  returns: Type.Boolean({ description: 'Makes return labels: POST /v1/shipments/{id}/return creates the return with its return product' }),
  products: Type.Array(Type.Object({ code: Type.String(), name: Type.String() }), {
    description: "The carrier's products named as its documents name them (PRIV: PPL Parcel CZ Private); a setting whose choices are these codes picks the channel's",
  }),
}, { description: 'Capabilities as a channel has them with the default settings; a channel\'s own are in its `capabilities`' });

export function presentProvider(p: ProviderDefinition) {
  return {
    code: p.code, name: p.name, regions: [...p.regions], label_formats: [...LABEL_FORMATS],
    ...presentCapabilities(p, {}),
    settings: settingsSchema(p).map((s) => ({
      key: s.key, type: s.type, required: s.required, secret: s.secret, description: s.description,
      ...(s.default !== undefined ? { default: s.default } : {}), ...(s.enum ? { enum: [...s.enum] } : {}), ...(s.listed ? { listed: true } : {}),
      ...(s.pattern !== undefined ? { pattern: s.pattern, pattern_description: s.patternDescription } : {}),
      ...(s.minLength !== undefined ? { min_length: s.minLength } : {}), ...(s.maxLength !== undefined ? { max_length: s.maxLength } : {}),
      ...(s.minimum !== undefined ? { minimum: s.minimum } : {}), ...(s.maximum !== undefined ? { maximum: s.maximum } : {}),
    })),
    dispatch: { ...(p.adapter.dispatch?.capabilities ?? { close: false, protocol: false, pickup: false }) },
    pickup_points: {
      types: [...(p.adapter.pickupPoints?.types ?? [])], search: p.adapter.pickupPoints?.finder !== undefined,
    },
    customs: p.capabilities.customs === true,
    returns: p.capabilities.returns === true,
    products: Object.entries(p.products ?? {}).map(([code, { name }]) => ({ code, name })),
  };
}

const SettingOptionsBody = Type.Object({
  key: PlainText({ minLength: 1, maxLength: 100 }),
  settings: FreeObject,
});

const SettingOptionSchema = Type.Object({ value: Type.String(), name: Type.String() });

export const providerRoutes = (ctx: ServiceContext): FastifyPluginAsyncTypebox => async (app) => {
  app.get('/v1/providers', {
    schema: {
      tags: ['Providers'], summary: 'Every carrier provider, its capabilities and settings schema',
      response: { 200: Type.Object({ data: Type.Array(ProviderSchema), message: Type.String() }), ...errorResponses(401, 429) },
    },
  }, async () => ({ data: listProviders().map(presentProvider), message: 'Providers retrieved' }));

  app.post('/v1/providers/:code/setting-options', {
    schema: {
      tags: ['Providers'], operationId: 'listProviderSettingOptions',
      summary: "The values the carrier lists for a setting, asked with the credentials entered so far",
      params: Type.Object({ code: Type.String() }), body: SettingOptionsBody,
      response: { 200: Envelope(Type.Array(SettingOptionSchema)), ...errorResponses(400, 401, 413, 422, 429, 503) },
    },
  }, async (request) => ({
    data: await listSettingOptions(ctx, request.params.code, request.body.key, request.body.settings),
    message: 'Setting options retrieved',
  }));
};
