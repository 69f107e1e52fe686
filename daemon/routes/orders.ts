import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { ServiceContext } from '../../src/services/context.js';
import {
  cancelOrder, createOrder, getOrder, listOrders, ORDER_STATUSES, patchOrder, shipOrder, type OrderDraft, type OrderStatus, type ShipOverrides,
} from '../../src/services/orders.js';
import { getShipment } from '../../src/services/shipments/manage.js';
import { caller } from '../http/conventions.js';
import { listBody, pageOf } from '../http/reply.js';
import { Envelope, errorResponses, IdParams, ListEnvelope, PageQuery } from '../http/schemas.js';
import { CreateOrderBody, OrderSchema, PatchOrderBody, ShipOrderBody } from './order-schemas.js';
import { ShipmentSchema } from './shipment-schemas.js';
import { WaitQuery, waitSeconds } from './shipments.js';

const tags = ['Orders'];

export function orderRoutes(ctx: ServiceContext): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.post('/v1/orders', {
      config: { mergeValidation: true },
      schema: {
        tags, summary: 'Queue an order to be packed and shipped later', body: CreateOrderBody,
        response: { 201: Envelope(OrderSchema), ...errorResponses(400, 401, 403, 409, 413, 422, 429) },
      },
    }, async (request, reply) => {
      const order = await createOrder(ctx, caller(request).account.id, request.body as OrderDraft, request.fieldErrors);
      return reply.code(201).send({ data: order, message: 'Order queued' });
    });

    app.get('/v1/orders', {
      schema: {
        tags, summary: 'List orders, oldest first (the queue in the order it came in)',
        querystring: PageQuery(20, {
          status: Type.Optional(Type.String({ enum: [...ORDER_STATUSES] })),
          search: Type.Optional(Type.String({ minLength: 1, maxLength: 255, description: "Part of the reference, the recipient's name or the postal code" })),
          created_from: Type.Optional(Type.String({ format: 'date-time' })),
          created_to: Type.Optional(Type.String({ format: 'date-time' })),
        }),
        response: { 200: ListEnvelope(OrderSchema), ...errorResponses(401, 422, 429) },
      },
    }, async (request) => {
      const q = request.query;
      const page = pageOf(request);
      return listBody(request, page, await listOrders(ctx, caller(request).account.id, {
        status: q.status as OrderStatus | undefined, search: q.search,
        createdFrom: q.created_from ? Date.parse(q.created_from) : undefined, createdTo: q.created_to ? Date.parse(q.created_to) : undefined,
      }, page));
    });

    app.get('/v1/orders/:id', {
      schema: { tags, summary: 'Get an order', params: IdParams, response: { 200: Envelope(OrderSchema), ...errorResponses(401, 403, 404, 422, 429) } },
    }, async (request) => ({ data: await getOrder(ctx, caller(request).account.id, request.params.id), message: 'Order retrieved' }));

    app.patch('/v1/orders/:id', {
      config: { mergeValidation: true },
      schema: {
        tags, summary: 'Change an awaiting order', params: IdParams, body: PatchOrderBody,
        response: { 200: Envelope(OrderSchema), ...errorResponses(400, 401, 403, 404, 413, 422, 429) },
      },
    }, async (request) => ({
      data: await patchOrder(ctx, caller(request).account.id, request.params.id, request.body as OrderDraft, request.fieldErrors),
      message: 'Order updated',
    }));

    app.delete('/v1/orders/:id', {
      schema: {
        tags, summary: 'Cancel an awaiting order (it stays listed as cancelled)', params: IdParams,
        response: { 200: Envelope(OrderSchema), ...errorResponses(401, 403, 404, 422, 429) },
      },
    }, async (request) => ({ data: await cancelOrder(ctx, caller(request).account.id, request.params.id), message: 'Order cancelled' }));

    app.post('/v1/orders/:id/ship', {
      config: { mergeValidation: true },
      // shipping as the order says needs no body
      preValidation: async (request) => { request.body ??= {}; },
      schema: {
        tags, summary: 'Ship an order: create its shipment (once; a second call answers with the same shipment, its message says which)', params: IdParams,
        body: ShipOrderBody, querystring: WaitQuery,
        headers: Type.Object({ prefer: Type.Optional(Type.String({ description: 'wait=N (≤ 30): answer once the carrier step finished' })) }),
        response: { 200: Envelope(ShipmentSchema), ...errorResponses(400, 401, 403, 404, 409, 413, 422, 429) },
      },
    }, async (request, reply) => {
      const accountId = caller(request).account.id;
      const { shipment, created } = await shipOrder(ctx, accountId, request.params.id, request.body as ShipOverrides, request.fieldErrors);
      const wait = waitSeconds(request);
      const data = wait > 0 ? await getShipment(ctx, accountId, shipment.id, wait) : shipment;
      return reply.send({ data, message: created ? 'Order shipped' : 'Order already shipped' });
    });
  };
}
