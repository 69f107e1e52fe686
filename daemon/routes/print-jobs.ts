import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { ServiceContext } from '../../src/services/context.js';
import {
  printShipmentLabel, printShipmentLabels, type BatchPrintBody as BatchPrintInput, type ShipmentPrintBody as ShipmentPrintInput,
} from '../../src/services/printing/label-printing.js';
import { getPrintJob, listPrintJobs, PRINT_JOB_STATUSES, retryPrintJob } from '../../src/services/printing/print-jobs.js';
import { caller } from '../http/conventions.js';
import { listBody, pageOf } from '../http/reply.js';
import { Envelope, errorResponses, IdParams, ListEnvelope, PageQuery } from '../http/schemas.js';
import { emptyBodyAsObject } from './printers.js';
import { BatchPrintBody, PrintJobSchema, ShipmentPrintBody } from './printing-schemas.js';

const tags = ['Print jobs'];

export function printJobRoutes(ctx: ServiceContext): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get('/v1/print-jobs', {
      schema: {
        tags, summary: 'List print jobs, newest first',
        querystring: PageQuery(20, {
          status: Type.Optional(Type.String({ enum: [...PRINT_JOB_STATUSES] })),
          printer_id: Type.Optional(Type.String()),
          shipment_id: Type.Optional(Type.String()),
        }),
        response: { 200: ListEnvelope(PrintJobSchema), ...errorResponses(401, 422, 429) },
      },
    }, async (request) => {
      const page = pageOf(request);
      return listBody(request, page, await listPrintJobs(ctx, caller(request).account.id, request.query, page));
    });

    app.post('/v1/print-jobs', {
      config: { mergeValidation: true },
      schema: {
        tags, operationId: 'printShipmentLabels',
        summary: "Print many shipments' labels: merged into one job per label format, on the station's printer for it",
        body: BatchPrintBody,
        response: { 202: Envelope(Type.Array(PrintJobSchema)), ...errorResponses(400, 401, 403, 413, 422, 429) },
      },
    }, async (request, reply) => {
      const data = await printShipmentLabels(ctx, caller(request).account.id, request.body as BatchPrintInput, request.fieldErrors);
      return reply.code(202).send({ data, message: `${data.length} print job${data.length === 1 ? '' : 's'} queued` });
    });

    app.get('/v1/print-jobs/:id', {
      schema: {
        tags, summary: 'Get a print job', params: IdParams,
        response: { 200: Envelope(PrintJobSchema), ...errorResponses(401, 403, 404, 429) },
      },
    }, async (request) => ({ data: await getPrintJob(ctx, caller(request).account.id, request.params.id), message: 'Print job retrieved' }));

    app.post('/v1/print-jobs/:id/retry', {
      schema: {
        tags, summary: 'Queue a failed print job again (for another 24 h)', params: IdParams,
        response: { 200: Envelope(PrintJobSchema), ...errorResponses(401, 403, 404, 422, 429) },
      },
    }, async (request) => ({ data: await retryPrintJob(ctx, caller(request).account.id, request.params.id), message: 'Print job queued again' }));

    app.post('/v1/shipments/:id/print', {
      preValidation: emptyBodyAsObject,
      schema: {
        tags: ['Shipments'], operationId: 'printShipmentLabel',
        summary: "Print the shipment's merged label (on the given printer, or the station's printer for its format)", params: IdParams,
        body: ShipmentPrintBody,
        response: { 202: Envelope(PrintJobSchema), ...errorResponses(400, 401, 403, 404, 413, 422, 429) },
      },
    }, async (request, reply) => {
      const data = await printShipmentLabel(ctx, caller(request).account.id, request.params.id, request.body as ShipmentPrintInput, request.fieldErrors);
      return reply.code(202).send({ data, message: 'Print job queued' });
    });
  };
}
