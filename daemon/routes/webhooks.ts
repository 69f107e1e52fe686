import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { EVENT_TYPES } from '../../src/domain/events.js';
import type { ServiceContext } from '../../src/services/context.js';
import {
  clearDeliveries, createSubscription, deleteSubscription, getDelivery, getSubscriptionRow, listDeliveries, listSubscriptions,
  presentSubscription, updateSubscription, SUBSCRIPTION_STATUSES,
} from '../../src/services/webhooks.js';
import { redeliverLoggedEvent, sendTestWebhook } from '../../src/services/webhook-send.js';
import { caller } from '../http/conventions.js';
import { listBody, pageOf } from '../http/reply.js';
import { Envelope, errorResponses, IdParams, ListEnvelope, MessageEnvelope, Nullable, PageQuery, PlainText, Timestamp } from '../http/schemas.js';

const EventName = Type.String({ maxLength: 64, description: `An event name (${EVENT_TYPES.join(', ')}) or *` });

export const SubscriptionSchema = Type.Object({
  id: Type.String({ description: 'wh_…' }),
  name: Type.String(),
  url: Type.String(),
  events: Type.Array(Type.String()),
  status: Type.String({ enum: [...SUBSCRIPTION_STATUSES] }),
  secret: Type.String({ description: 'Always masked' }),
  created_at: Timestamp,
  updated_at: Timestamp,
});

export const DeliveryLogSchema = Type.Object({
  id: Type.String({ description: 'whl_…' }),
  webhook_subscription_id: Type.String(),
  event_id: Type.String(),
  event_type: Type.String(),
  attempt: Type.Integer(),
  status: Type.String({ enum: ['pending', 'success', 'failed'] }),
  url: Type.String(),
  request_headers: Type.Record(Type.String(), Type.String()),
  request_body: Type.String(),
  response_status: Nullable(Type.Integer()),
  response_body: Nullable(Type.String()),
  duration_ms: Nullable(Type.Integer()),
  error_message: Nullable(Type.String()),
  next_retry_at: Nullable(Timestamp),
  created_at: Timestamp,
});

const Secret = PlainText({ minLength: 16, maxLength: 255, description: '≥ 16 characters; whsec_… is base64-decoded after the prefix' });

const CreateBody = Type.Object({
  name: PlainText({ minLength: 1, maxLength: 255 }),
  url: PlainText({ minLength: 1, maxLength: 2048 }),
  events: Type.Array(EventName, { minItems: 1, maxItems: 64 }),
  secret: Type.Optional(Secret),
  status: Type.Optional(Type.String({ enum: ['active', 'paused'] })),
});

const UpdateBody = Type.Object({
  name: Type.Optional(PlainText({ minLength: 1, maxLength: 255 })),
  url: Type.Optional(PlainText({ minLength: 1, maxLength: 2048 })),
  events: Type.Optional(Type.Array(EventName, { minItems: 1, maxItems: 64 })),
  secret: Type.Optional(Secret),
  status: Type.Optional(Type.String({ enum: ['active', 'paused'] })),
});

const LogParams = Type.Object({ id: Type.String(), log_id: Type.String() });
const tags = ['Webhook subscriptions'];

export function webhookRoutes(ctx: ServiceContext): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.post('/v1/webhook-subscriptions', {
      config: { mergeValidation: true },
      schema: {
        tags, summary: 'Create a webhook subscription', body: CreateBody,
        response: { 201: Envelope(SubscriptionSchema), ...errorResponses(400, 401, 403, 409, 413, 422, 429) },
      },
    }, async (request, reply) => {
      const data = await createSubscription(ctx, caller(request).account.id, request.body, request.fieldErrors);
      return reply.code(201).send({ data, message: 'Webhook subscription created' });
    });

    app.get('/v1/webhook-subscriptions', {
      schema: {
        tags, summary: "List the account's webhook subscriptions", querystring: PageQuery(15),
        response: { 200: ListEnvelope(SubscriptionSchema), ...errorResponses(401, 422, 429) },
      },
    }, async (request) => {
      const page = pageOf(request);
      return listBody(request, page, await listSubscriptions(ctx, caller(request).account.id, page));
    });

    app.get('/v1/webhook-subscriptions/:id', {
      schema: {
        tags, summary: 'Get a webhook subscription', params: IdParams,
        response: { 200: Envelope(SubscriptionSchema), ...errorResponses(401, 403, 404, 429) },
      },
    }, async (request) => ({
      data: presentSubscription(await getSubscriptionRow(ctx, caller(request).account.id, request.params.id)),
      message: 'Webhook subscription retrieved',
    }));

    for (const method of ['PATCH', 'PUT'] as const) {
      app.route({
        method, url: '/v1/webhook-subscriptions/:id', config: { mergeValidation: true },
        schema: {
          tags, summary: 'Update a webhook subscription', params: IdParams, body: UpdateBody,
          response: { 200: Envelope(SubscriptionSchema), ...errorResponses(400, 401, 403, 404, 413, 422, 429) },
        },
        handler: async (request) => ({
          data: await updateSubscription(ctx, caller(request).account.id, request.params.id, request.body, request.fieldErrors),
          message: 'Webhook subscription updated',
        }),
      });
    }

    app.delete('/v1/webhook-subscriptions/:id', {
      schema: {
        tags, summary: 'Delete a webhook subscription (pending deliveries are dropped)', params: IdParams,
        response: { 204: Type.Null({ description: 'Deleted' }), ...errorResponses(401, 403, 404, 429) },
      },
    }, async (request, reply) => {
      await deleteSubscription(ctx, caller(request).account.id, request.params.id);
      return reply.code(204).send(null);
    });

    app.post('/v1/webhook-subscriptions/:id/test', {
      schema: {
        tags, summary: 'Send a webhook.test event to the subscription now (logged like any delivery, not retried)', params: IdParams,
        response: { 200: Envelope(DeliveryLogSchema), ...errorResponses(401, 403, 404, 429) },
      },
    }, async (request) => ({
      data: await sendTestWebhook(ctx, caller(request).account.id, request.params.id),
      message: 'Test webhook sent',
    }));

    app.get('/v1/webhook-subscriptions/:id/logs', {
      schema: {
        tags, summary: 'List delivery logs, newest first', params: IdParams,
        querystring: PageQuery(15, {
          status: Type.Optional(Type.String({ enum: ['pending', 'success', 'failed'] })),
          event_type: Type.Optional(Type.String()),
        }),
        response: { 200: ListEnvelope(DeliveryLogSchema), ...errorResponses(401, 403, 404, 422, 429) },
      },
    }, async (request) => {
      const page = pageOf(request);
      const { status, event_type: eventType } = request.query;
      return listBody(request, page, await listDeliveries(ctx, caller(request).account.id, request.params.id, { status, eventType }, page));
    });

    app.get('/v1/webhook-subscriptions/:id/logs/:log_id', {
      schema: {
        tags, summary: 'Get one delivery log entry', params: LogParams,
        response: { 200: Envelope(DeliveryLogSchema), ...errorResponses(401, 403, 404, 429) },
      },
    }, async (request) => ({
      data: await getDelivery(ctx, caller(request).account.id, request.params.id, request.params.log_id),
      message: 'Webhook log retrieved',
    }));

    app.delete('/v1/webhook-subscriptions/:id/logs', {
      schema: {
        tags, summary: 'Clear all delivery logs of the subscription', params: IdParams,
        response: { 200: MessageEnvelope, ...errorResponses(401, 403, 404, 429) },
      },
    }, async (request) => {
      await clearDeliveries(ctx, caller(request).account.id, request.params.id);
      return { message: 'Webhook logs cleared' };
    });

    app.post('/v1/webhook-subscriptions/:id/logs/:log_id/redeliver', {
      schema: {
        tags, summary: 'Send the logged event again now (a new log entry)', params: LogParams,
        response: { 200: Envelope(DeliveryLogSchema), ...errorResponses(401, 403, 404, 429) },
      },
    }, async (request) => ({
      data: await redeliverLoggedEvent(ctx, caller(request).account.id, request.params.id, request.params.log_id),
      message: 'Webhook redelivered',
    }));
  };
}
