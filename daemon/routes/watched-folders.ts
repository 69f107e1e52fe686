import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { ServiceContext } from '../../src/services/context.js';
import {
  createWatchedFolder, deleteWatchedFolder, getWatchedFolderRow, listWatchedFolders, presentWatchedFolder, updateWatchedFolder,
  WATCHED_FOLDER_STATUSES, type WatchedFolderInput,
} from '../../src/services/imports/watched-folders.js';
import { caller } from '../http/conventions.js';
import { listBody, pageOf } from '../http/reply.js';
import { Envelope, errorResponses, IdParams, ListEnvelope, PageQuery } from '../http/schemas.js';
import { CreateWatchedFolderBody, UpdateWatchedFolderBody, WatchedFolderSchema } from './import-schemas.js';

const tags = ['Watched folders'];

export function watchedFolderRoutes(ctx: ServiceContext): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.post('/v1/watched-folders', {
      config: { mergeValidation: true },
      schema: {
        tags, summary: 'Watch a folder for order CSV files (creates in/, processing/, done/, failed/, out/ in it)', body: CreateWatchedFolderBody,
        response: { 201: Envelope(WatchedFolderSchema), ...errorResponses(400, 401, 403, 409, 413, 422, 429) },
      },
    }, async (request, reply) => {
      const data = await createWatchedFolder(ctx, caller(request).account.id, request.body as WatchedFolderInput, request.fieldErrors);
      return reply.code(201).send({ data, message: 'Watched folder created' });
    });

    app.get('/v1/watched-folders', {
      schema: {
        tags, summary: 'List watched folders',
        querystring: PageQuery(20, { status: Type.Optional(Type.String({ enum: [...WATCHED_FOLDER_STATUSES] })) }),
        response: { 200: ListEnvelope(WatchedFolderSchema), ...errorResponses(401, 422, 429) },
      },
    }, async (request) => {
      const page = pageOf(request);
      return listBody(request, page, await listWatchedFolders(ctx, caller(request).account.id, request.query, page));
    });

    app.get('/v1/watched-folders/:id', {
      schema: {
        tags, summary: 'Get a watched folder', params: IdParams,
        response: { 200: Envelope(WatchedFolderSchema), ...errorResponses(401, 403, 404, 429) },
      },
    }, async (request) => ({
      data: presentWatchedFolder(await getWatchedFolderRow(ctx, caller(request).account.id, request.params.id)),
      message: 'Watched folder retrieved',
    }));

    app.patch('/v1/watched-folders/:id', {
      config: { mergeValidation: true },
      schema: {
        tags, summary: 'Update a watched folder (status paused stops taking files; active takes them again)', params: IdParams,
        body: UpdateWatchedFolderBody,
        response: { 200: Envelope(WatchedFolderSchema), ...errorResponses(400, 401, 403, 404, 413, 422, 429) },
      },
    }, async (request) => ({
      data: await updateWatchedFolder(ctx, caller(request).account.id, request.params.id, request.body as WatchedFolderInput, request.fieldErrors),
      message: 'Watched folder updated',
    }));

    app.delete('/v1/watched-folders/:id', {
      schema: {
        tags, summary: 'Stop watching a folder (the folder and its files stay; its imports stay listed)', params: IdParams,
        response: { 204: Type.Null({ description: 'Deleted' }), ...errorResponses(401, 403, 404, 429) },
      },
    }, async (request, reply) => {
      await deleteWatchedFolder(ctx, caller(request).account.id, request.params.id);
      return reply.code(204).send(null);
    });
  };
}
