import type { FastifyReply, FastifyRequest } from 'fastify';
import { pageEnvelope, type PageRequest } from '../../src/domain/pagination.js';

/** The page the client asked for (validated by the route's query schema). */
export function pageOf(request: FastifyRequest): PageRequest {
  const q = request.query as { page: number; per_page: number };
  return { page: q.page, perPage: q.per_page };
}

/** `{data, meta, links}` with absolute links that keep the request's filters. */
export function listBody<T>(request: FastifyRequest, page: PageRequest, result: { items: T[]; total: number }) {
  const path = `${request.protocol}://${request.host}${request.url.split('?')[0]}`;
  const filters: Record<string, string> = {};
  for (const [k, v] of Object.entries(request.query as Record<string, unknown>)) {
    if (k !== 'page' && k !== 'per_page' && v !== undefined && v !== '') filters[k] = String(v);
  }
  return { data: result.items, ...pageEnvelope(page, result.total, result.items.length, path, filters) };
}

/** JSON serialized and encoded already (a cached page): sent as it is, past the route's response serializer. */
export function sendJson<Reply extends FastifyReply>(reply: Reply, body: Buffer): Reply {
  return reply.type('application/json; charset=utf-8').send(body) as Reply;
}

/**
 * `Content-Disposition` for a download. A name beyond printable ASCII (or with quotes) gets an ASCII fallback (those
 * characters become `_`) and the real name as RFC 6266 / 5987 `filename*`, so no file name can break the header.
 */
export function attachment(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]|["\\]/g, '_');
  if (ascii === fileName) return `attachment; filename="${fileName}"`;
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName.replace(/\p{Cs}/gu, '_'))}`;
}
