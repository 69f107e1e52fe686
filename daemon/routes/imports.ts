import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ImportLimits } from '../../src/imports/limits.js';
import type { ServiceContext } from '../../src/services/context.js';
import { getImportRow, IMPORT_STATUSES, listImports, presentImport } from '../../src/services/imports/records.js';
import { presentErrorRows, presentResultRows, readImportFile } from '../../src/services/imports/result-reads.js';
import { startUploadedImport, type UploadInput } from '../../src/services/imports/uploads.js';
import { caller } from '../http/conventions.js';
import { attachment, listBody, pageOf } from '../http/reply.js';
import { Envelope, errorResponses, IdParams, JsonOrFile, ListEnvelope, PageQuery } from '../http/schemas.js';
import { ErrorRowSchema, ImportSchema, ResultRowSchema, UploadImportBody } from './import-schemas.js';

const tags = ['Imports'];
/** An order file travels base64 in JSON (4 characters per 3 bytes): the body may hold the largest file imported. */
function uploadBodyLimit(limits: ImportLimits): number {
  return Math.ceil(limits.maxFileBytes / 3) * 4 + 2 ** 20;
}
const DownloadQuery = Type.Object({ download: Type.Optional(Type.String({ enum: ['1', 'true'] })) });

function wantsCsv(request: FastifyRequest): boolean {
  const accept = String(request.headers.accept ?? '').split(',').map((t) => t.split(';')[0]!.trim());
  return Boolean((request.query as { download?: string }).download) || accept.includes('text/csv');
}

function sendCsv(reply: FastifyReply, file: { fileName: string; content: Buffer }) {
  // the bytes as written: in the encoding of the input they answer
  return reply.header('content-type', 'text/csv').header('content-disposition', attachment(file.fileName)).send(file.content as never);
}

export function importRoutes(ctx: ServiceContext): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.post('/v1/imports', {
      bodyLimit: uploadBodyLimit(ctx.options.importLimits),
      config: { mergeValidation: true },
      schema: {
        tags, summary: 'Import an order CSV file (what `packdesk import` sends); runs in the background, GET the import for progress',
        body: UploadImportBody,
        response: { 202: Envelope(ImportSchema), ...errorResponses(400, 401, 403, 409, 413, 422, 429) },
      },
    }, async (request, reply) => {
      const data = await startUploadedImport(ctx, caller(request).account.id, request.body as UploadInput, request.fieldErrors);
      return reply.code(202).send({ data, message: 'Import queued' });
    });

    app.get('/v1/imports', {
      schema: {
        tags, summary: 'List imports (one per CSV file), newest first',
        querystring: PageQuery(20, {
          status: Type.Optional(Type.String({ enum: [...IMPORT_STATUSES] })),
          watched_folder_id: Type.Optional(Type.String()),
        }),
        response: { 200: ListEnvelope(ImportSchema), ...errorResponses(401, 422, 429) },
      },
    }, async (request) => {
      const page = pageOf(request);
      return listBody(request, page, await listImports(ctx, caller(request).account.id, request.query, page));
    });

    app.get('/v1/imports/:id', {
      schema: {
        tags, summary: 'Get an import: progress while processing, figures and file paths once finished', params: IdParams,
        response: { 200: Envelope(ImportSchema), ...errorResponses(401, 403, 404, 429) },
      },
    }, async (request) => ({
      data: await presentImport(ctx, await getImportRow(ctx, caller(request).account.id, request.params.id)),
      message: 'Import retrieved',
    }));

    app.get('/v1/imports/:id/result', {
      schema: {
        tags, summary: 'The result of each order (JSON; the CSV file itself with Accept: text/csv or ?download=1)', params: IdParams,
        querystring: DownloadQuery,
        response: {
          200: JsonOrFile(Envelope(Type.Array(ResultRowSchema)), { 'text/csv': 'The result file as written, in the encoding of the order file' },
            'The result of each order as JSON; the CSV file with Accept: text/csv or ?download=1'),
          ...errorResponses(401, 403, 404, 422, 429),
        },
      },
    }, async (request, reply) => {
      const file = await readImportFile(ctx, caller(request).account.id, request.params.id, 'result');
      if (wantsCsv(request)) return sendCsv(reply, file);
      return { data: presentResultRows(file.rows), message: 'Import result retrieved' };
    });

    app.get('/v1/imports/:id/errors', {
      schema: {
        tags, summary: 'The failed rows with their field paths and messages (JSON; the CSV with Accept: text/csv or ?download=1)', params: IdParams,
        querystring: DownloadQuery,
        response: {
          200: JsonOrFile(Envelope(Type.Array(ErrorRowSchema)), { 'text/csv': 'The failed rows as written, in the encoding of the order file' },
            'The failed rows as JSON; the CSV file with Accept: text/csv or ?download=1'),
          ...errorResponses(401, 403, 404, 422, 429),
        },
      },
    }, async (request, reply) => {
      const file = await readImportFile(ctx, caller(request).account.id, request.params.id, 'errors');
      if (wantsCsv(request)) return sendCsv(reply, file);
      return { data: presentErrorRows(file.rows), message: 'Import errors retrieved' };
    });
  };
}
