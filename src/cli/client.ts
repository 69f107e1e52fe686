import type { PageLinks, PageMeta } from '../domain/pagination.js';
import type { Health } from './api-types.js';
import { clientConfig } from './config.js';
import { CliError, EXIT } from './exit-codes.js';

/** A list response of the API. */
export interface Page<T> {
  data: T[];
  meta: PageMeta;
  links: PageLinks;
}

export interface ApiResponse<T> {
  status: number;
  body: T;
}

/**
 * The exit code of a refused request. 404 → not found. 503 means a carrier is unreachable, not the daemon: a plain
 * failure.
 */
export function exitCodeOf(status: number, errors: Record<string, string[]> | undefined, path: string): number {
  if (status === 404) return EXIT.notFound;
  const fields = Object.keys(errors ?? {});
  const query = new URLSearchParams(path.split('?')[1] ?? '');
  // A 422 on query parameters only judged the flags a command turned into them: a usage error; on a body, the data was refused.
  if (status === 422 && fields.length > 0 && fields.every((field) => query.has(field.split(/[.[]/)[0]!))) return EXIT.usage;
  return EXIT.failure;
}

/** A small client of the daemon's /v1 API; every non-2xx answer becomes a CliError with the right exit code. */
export class ApiClient {
  constructor(readonly baseUrl: string, private readonly apiKey: string) {}

  static fromConfig(): ApiClient {
    const { url, apiKey } = clientConfig();
    return new ApiClient(url, apiKey);
  }

  async request<T = unknown>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<ApiResponse<T>> {
    const res = await this.send(method, path, {
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...headers,
    }, body !== undefined ? JSON.stringify(body) : undefined);
    const text = await res.text();
    let parsed: unknown = text;
    if ((res.headers.get('content-type') ?? '').includes('json') && text) parsed = JSON.parse(text);
    if (!res.ok) throw ApiClient.failure(res.status, parsed, path);
    return { status: res.status, body: parsed as T };
  }

  /** Like `request` without a body, but answers the raw bytes (e.g. a label file) with the response headers. */
  async requestRaw(method: string, path: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: Headers; body: Buffer }> {
    const res = await this.send(method, path, headers);
    const body = Buffer.from(await res.arrayBuffer());
    if (!res.ok) {
      const text = body.toString('utf8');
      let parsed: unknown = text;
      if ((res.headers.get('content-type') ?? '').includes('json') && text) parsed = JSON.parse(text);
      throw ApiClient.failure(res.status, parsed, path);
    }
    return { status: res.status, headers: res.headers, body };
  }

  private async send(method: string, path: string, headers: Record<string, string>, body?: string): Promise<Response> {
    try {
      return await fetch(this.baseUrl + path, {
        method,
        headers: { authorization: `Bearer ${this.apiKey}`, ...headers },
        body,
        signal: AbortSignal.timeout(60_000),
      });
    } catch (err) {
      const cause = (err as { cause?: { code?: string } }).cause?.code ?? (err as Error).message;
      throw new CliError(`cannot reach the packdesk daemon at ${this.baseUrl} (${cause}); is \`packdesk daemon\` running?`, EXIT.unreachable);
    }
  }

  private static failure(status: number, parsed: unknown, path: string): CliError {
    const envelope = (typeof parsed === 'object' && parsed !== null ? parsed : {}) as { message?: string; errors?: Record<string, string[]> };
    const message = envelope.message ?? `HTTP ${status}`;
    return new CliError(message, exitCodeOf(status, envelope.errors, path), envelope.errors);
  }

  get<T = unknown>(path: string) {
    return this.request<T>('GET', path);
  }
  post<T = unknown>(path: string, body?: unknown, headers?: Record<string, string>) {
    return this.request<T>('POST', path, body, headers);
  }
  patch<T = unknown>(path: string, body: unknown) {
    return this.request<T>('PATCH', path, body);
  }
  delete<T = unknown>(path: string) {
    return this.request<T>('DELETE', path);
  }
}

/** The station the daemon the CLI talks to serves (`station` of its health report). */
export async function daemonStation(client: ApiClient): Promise<string> {
  return (await client.get<Health>('/healthz')).body.station;
}

/** Moves a printer or watched folder (at `path` in the API) to the station of the daemon the CLI talks to. */
export async function moveToDaemonStation<T>(path: string): Promise<{ station: string; data: T }> {
  const client = ApiClient.fromConfig();
  const station = await daemonStation(client);
  return { station, data: (await client.patch<{ data: T }>(path, { station })).body.data };
}
