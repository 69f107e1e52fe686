import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { listProviders, settingsSchema } from '../../src/carriers/registry.js';
import type { ProviderDefinition } from '../../src/carriers/types.js';
import { LABEL_FORMATS } from '../../src/domain/labels.js';
import { errorResponses } from '../http/schemas.js';

const SettingSchema = Type.Object({
  key: Type.String(),
  type: Type.String({ enum: ['string', 'boolean', 'integer', 'number'] }),
  required: Type.Boolean(),
  secret: Type.Boolean(),
  description: Type.String(),
  default: Type.Optional(Type.Union([Type.String(), Type.Number(), Type.Boolean()])),
  enum: Type.Optional(Type.Array(Type.String())),
});

export const ProviderSchema = Type.Object({
  code: Type.String(),
  name: Type.String(),
  regions: Type.Array(Type.String()),
  label_formats: Type.Array(Type.String({ enum: [...LABEL_FORMATS] })),
  cash_on_delivery: Type.Boolean(),
  multi_parcel: Type.Boolean(),
  max_parcels: Type.Integer(),
  cancel: Type.Boolean(),
  adapter_available: Type.Boolean({ description: 'false while packdesk cannot yet talk to this carrier' }),
  settings: Type.Array(SettingSchema),
});

export function presentProvider(p: ProviderDefinition) {
  return {
    code: p.code, name: p.name, regions: [...p.regions], label_formats: [...p.capabilities.labelFormats],
    cash_on_delivery: p.capabilities.cashOnDelivery, multi_parcel: p.capabilities.multiParcel,
    max_parcels: p.capabilities.maxParcels, cancel: p.capabilities.cancel, adapter_available: p.adapter !== undefined,
    settings: settingsSchema(p).map((s) => ({
      key: s.key, type: s.type, required: s.required, secret: s.secret, description: s.description,
      ...(s.default !== undefined ? { default: s.default } : {}), ...(s.enum ? { enum: [...s.enum] } : {}),
    })),
  };
}

export const providerRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/v1/providers', {
    schema: {
      tags: ['Providers'], summary: 'The 13 carrier providers, their capabilities and settings schemas',
      response: { 200: Type.Object({ data: Type.Array(ProviderSchema), message: Type.String() }), ...errorResponses(401, 429) },
    },
  }, async () => ({ data: listProviders().map(presentProvider), message: 'Providers retrieved' }));
};
