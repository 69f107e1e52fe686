import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import type { PrintFormat } from '../../printers/index.js';
import type { ServiceContext } from '../../src/services/context.js';
import { printTestLabels } from '../../src/services/printing/print-jobs.js';
import {
  createPrinter, deletePrinter, getPrinter, listPrinters, PRINTER_STATES, updatePrinter, type PrinterInput,
} from '../../src/services/printing/printers.js';
import { caller } from '../http/conventions.js';
import { listBody, pageOf } from '../http/reply.js';
import { Envelope, errorResponses, IdParams, ListEnvelope, PageQuery } from '../http/schemas.js';
import { CreatePrinterBody, FormatSchema, PrinterSchema, PrintJobSchema, TestPrintBody, UpdatePrinterBody } from './printing-schemas.js';

const tags = ['Printers'];

/** POSTs whose body is optional: no body reads as `{}`. */
export async function emptyBodyAsObject(request: FastifyRequest): Promise<void> {
  if (request.body === undefined || request.body === null) request.body = {};
}

export function printerRoutes(ctx: ServiceContext): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.post('/v1/printers', {
      config: { mergeValidation: true },
      schema: {
        tags, summary: 'Add a printer (its status is checked at once)', body: CreatePrinterBody,
        response: { 201: Envelope(PrinterSchema), ...errorResponses(400, 401, 403, 409, 413, 422, 429) },
      },
    }, async (request, reply) => {
      const data = await createPrinter(ctx, caller(request).account.id, request.body as PrinterInput, request.fieldErrors);
      return reply.code(201).send({ data, message: 'Printer created' });
    });

    app.get('/v1/printers', {
      schema: {
        tags, summary: 'List printers with their status as last seen',
        querystring: PageQuery(20, {
          format: Type.Optional(FormatSchema),
          default_for: Type.Optional(FormatSchema),
          status: Type.Optional(Type.String({ enum: [...PRINTER_STATES] })),
        }),
        response: { 200: ListEnvelope(PrinterSchema), ...errorResponses(401, 422, 429) },
      },
    }, async (request) => {
      const page = pageOf(request);
      return listBody(request, page, await listPrinters(ctx, caller(request).account.id, request.query, page));
    });

    app.get('/v1/printers/:id', {
      schema: {
        tags, summary: 'Get a printer, asking it for its status now (paper out, head open, paused; IPP state and reasons)', params: IdParams,
        querystring: Type.Object({ refresh: Type.Boolean({ default: true, description: 'false: the status as last seen, without asking the printer' }) }),
        response: { 200: Envelope(PrinterSchema), ...errorResponses(401, 403, 404, 422, 429) },
      },
    }, async (request) => ({
      data: await getPrinter(ctx, caller(request).account.id, request.params.id, request.query.refresh),
      message: 'Printer retrieved',
    }));

    app.patch('/v1/printers/:id', {
      config: { mergeValidation: true },
      schema: {
        tags, summary: 'Update a printer (name, URI, formats, default_for, dpi, status_query) or move it to the station of the daemon asked', params: IdParams, body: UpdatePrinterBody,
        response: { 200: Envelope(PrinterSchema), ...errorResponses(400, 401, 403, 404, 413, 422, 429) },
      },
    }, async (request) => ({
      data: await updatePrinter(ctx, caller(request).account.id, request.params.id, request.body as PrinterInput, request.fieldErrors),
      message: 'Printer updated',
    }));

    app.delete('/v1/printers/:id', {
      schema: {
        tags, summary: 'Remove a printer and its print jobs', params: IdParams,
        response: { 204: Type.Null({ description: 'Deleted' }), ...errorResponses(401, 403, 404, 429) },
      },
    }, async (request, reply) => {
      await deletePrinter(ctx, caller(request).account.id, request.params.id);
      return reply.code(204).send(null);
    });

    app.post('/v1/printers/:id/test', {
      preValidation: emptyBodyAsObject,
      schema: {
        tags, summary: "Print a test label (barcode and the station's name) in each format the printer takes", params: IdParams, body: TestPrintBody,
        response: { 202: Envelope(Type.Array(PrintJobSchema)), ...errorResponses(400, 401, 403, 404, 413, 422, 429) },
      },
    }, async (request, reply) => {
      const data = await printTestLabels(ctx, caller(request).account.id, request.params.id, request.body.formats as PrintFormat[] | undefined);
      return reply.code(202).send({ data, message: `Test label${data.length === 1 ? '' : 's'} queued` });
    });
  };
}
