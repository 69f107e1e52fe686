import { Type, type TSchema } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { ServiceContext } from '../../src/services/context.js';
import {
  createShippingRule, deleteShippingRule, getShippingRuleRow, listShippingRules, MAX_SHIPPING_RULES, presentShippingRule, testShippingRules,
  updateShippingRule, type ShippingRuleInput,
} from '../../src/services/shipping-rules.js';
import type { ShipmentBody } from '../../src/services/shipments/create.js';
import { caller } from '../http/conventions.js';
import { Envelope, errorResponses, IdParams, Nullable, PlainText, Timestamp } from '../http/schemas.js';
import { ChosenBySchema, QuoteBody, QuoteSchema } from './shipment-schemas.js';

const tags = ['Shipping rules'];
const Id = PlainText({ minLength: 1, maxLength: 64 });
const Pattern = PlainText({ minLength: 1, maxLength: 100, description: '`*` any run of characters, `?` one; case ignored' });

function Range(unit: string) {
  const end = Type.Optional(Nullable(Type.Number({ minimum: 0, maximum: 1e9 })));
  return Type.Object({ min: end, max: end }, { additionalProperties: false, description: `From min to max ${unit}, both included; either may be left open` });
}

const Conditions = Type.Object({
  destination_countries: Type.Optional(Type.Array(Type.String({ pattern: '^[A-Z]{2}$' }), { minItems: 1, maxItems: 250, uniqueItems: true })),
  destination_postal_code_prefixes: Type.Optional(Type.Array(PlainText({ minLength: 1, maxLength: 12 }), {
    minItems: 1, maxItems: 500, uniqueItems: true, description: 'A region: destination postal codes starting with one of these (spaces and dashes ignored)',
  })),
  weight_kg: Type.Optional(Range('kg, the parcels together')),
  parcel_count: Type.Optional(Range('parcels')),
  longest_side_cm: Type.Optional(Range('cm, the longest side of any parcel')),
  cash_on_delivery: Type.Optional(Type.Boolean({ description: 'true: with cash on delivery only; false: without only' })),
  cash_on_delivery_amount: Type.Optional(Range('in the COD currency')),
  order_value: Type.Optional(Range('of the customs items (quantity × unit value)')),
  pickup_point: Type.Optional(Type.Boolean({ description: 'true: to a pickup point or locker only; false: to a door only' })),
  reference_pattern: Type.Optional(Pattern),
  metadata: Type.Optional(Type.Record(PlainText({ minLength: 1, maxLength: 40 }), Pattern, { maxProperties: 20, description: "Metadata values by key (an order's tags, its shop …), as patterns" })),
  import_folder_ids: Type.Optional(Type.Array(Id, { minItems: 1, maxItems: 100, uniqueItems: true, description: 'The watched folders its file came from' })),
}, { additionalProperties: false, description: 'Every condition given must hold; none: the rule holds for every shipment (a default, placed last)' });

const Action = Type.Union([
  Type.Object({ type: Type.Literal('use_channel'), shipping_channel_id: Id }, { additionalProperties: false }),
  Type.Object({
    type: Type.String({ enum: ['cheapest', 'fastest'] }),
    shipping_channel_ids: Type.Array(Id, { minItems: 1, maxItems: 50, uniqueItems: true }),
  }, { additionalProperties: false, description: 'The cheapest, or the fastest (then the cheapest), of the channels that quote the shipment a price (POST /v1/rates)' }),
]);

const ruleFields = {
  name: PlainText({ minLength: 1, maxLength: 100 }),
  position: Type.Integer({ minimum: 1, maximum: MAX_SHIPPING_RULES, description: '1 is tried first; the rules from there on move down one' }),
  active: Type.Boolean({ description: 'An inactive rule is kept and skipped' }),
  conditions: Conditions,
  action: Action,
};

const optional = <T extends Record<string, TSchema>>(fields: T) => Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, Type.Optional(v)])) as { [K in keyof T]: ReturnType<typeof Type.Optional<T[K]>> };

const CreateRuleBody = Type.Object({
  ...optional(ruleFields), name: ruleFields.name, action: ruleFields.action,
}, { additionalProperties: false });
const UpdateRuleBody = Type.Object(optional(ruleFields), { additionalProperties: false });

const RuleSchema = Type.Object({
  id: Type.String({ description: 'rule_…' }),
  position: Type.Integer(),
  name: Type.String(),
  active: Type.Boolean(),
  conditions: Conditions,
  action: Action,
  created_at: Timestamp,
  updated_at: Timestamp,
});

const { shipping_channel_ids: _asked, ...quotedFields } = QuoteBody.properties;
const RulesTestBody = Type.Object({
  ...quotedFields,
  import_folder_id: Type.Optional(Nullable({ ...Id, description: 'Try it as an order of this watched folder\'s files' })),
});

const RuleTrialSchema = Type.Object({
  shipping_rule_id: Type.String(), position: Type.Integer(), name: Type.String(),
  chose: Type.Boolean(), reason: Type.String({ description: 'Why it chose, or why it did not (the first condition that fails, or why its action found no channel)' }),
});

const RulesTestSchema = Type.Object({
  shipping_channel_id: Nullable(Type.String({ description: 'The channel the shipment would ship with; null: none (a creation would be refused on shipping_channel_id)' })),
  chosen_by: Nullable(ChosenBySchema),
  fallback: Nullable(Type.String({ enum: ['station'], description: "station: no rule chose, and the station's channel stands" })),
  rules: Type.Array(RuleTrialSchema, { description: 'The active rules tried, in order, up to the one that chose' }),
  quotes: Nullable(Type.Array(QuoteSchema, { description: 'The quotes of the cheapest or fastest rule that chose' })),
});

export function shippingRuleRoutes(ctx: ServiceContext): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get('/v1/shipping-rules', {
      schema: {
        tags, summary: 'List the shipping rules in the order they are tried',
        response: { 200: Envelope(Type.Array(RuleSchema)), ...errorResponses(401, 429) },
      },
    }, async (request) => ({ data: await listShippingRules(ctx, caller(request).account.id), message: 'Shipping rules retrieved' }));

    app.post('/v1/shipping-rules', {
      config: { mergeValidation: true },
      schema: {
        tags, summary: 'Add a shipping rule (last, or at `position`)', body: CreateRuleBody,
        response: { 201: Envelope(RuleSchema), ...errorResponses(400, 401, 403, 409, 413, 422, 429) },
      },
    }, async (request, reply) => {
      const data = await createShippingRule(ctx, caller(request).account.id, request.body as ShippingRuleInput, request.fieldErrors);
      return reply.code(201).send({ data, message: 'Shipping rule created' });
    });

    app.post('/v1/shipping-rules/test', {
      config: { mergeValidation: true },
      schema: {
        tags, summary: 'What the rules would do with a shipment body: the channel, the rule, and each rule tried (nothing is created)', body: RulesTestBody,
        response: { 200: Envelope(RulesTestSchema), ...errorResponses(400, 401, 413, 422, 429) },
      },
    }, async (request) => {
      // a body the schema refused is tried on nothing: its errors are the answer
      request.fieldErrors.throwIfAny();
      const data = await testShippingRules(ctx, caller(request).account.id, request.body as Partial<ShipmentBody> & { station?: string; import_folder_id?: string | null });
      return { data, message: data.chosen_by ? `Rule ${data.chosen_by.name} chooses the channel` : 'No rule chooses a channel' };
    });

    app.get('/v1/shipping-rules/:id', {
      schema: { tags, summary: 'Get a shipping rule', params: IdParams, response: { 200: Envelope(RuleSchema), ...errorResponses(401, 403, 404, 429) } },
    }, async (request) => ({
      data: presentShippingRule(await getShippingRuleRow(ctx, caller(request).account.id, request.params.id)), message: 'Shipping rule retrieved',
    }));

    app.patch('/v1/shipping-rules/:id', {
      config: { mergeValidation: true },
      schema: {
        tags, summary: 'Change a shipping rule; `position` moves it (the rules between move by one)', params: IdParams, body: UpdateRuleBody,
        response: { 200: Envelope(RuleSchema), ...errorResponses(400, 401, 403, 404, 413, 422, 429) },
      },
    }, async (request) => ({
      data: await updateShippingRule(ctx, caller(request).account.id, request.params.id, request.body as ShippingRuleInput, request.fieldErrors),
      message: 'Shipping rule updated',
    }));

    app.delete('/v1/shipping-rules/:id', {
      schema: {
        tags, summary: 'Delete a shipping rule (the rules after it move up one; shipments it chose keep their chosen_by)', params: IdParams,
        response: { 204: Type.Null({ description: 'Deleted' }), ...errorResponses(401, 403, 404, 429) },
      },
    }, async (request, reply) => {
      await deleteShippingRule(ctx, caller(request).account.id, request.params.id);
      return reply.code(204).send(null);
    });
  };
}
