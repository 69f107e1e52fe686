import type { PageLinks, PageMeta } from '../domain/pagination.js';
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

/** A small client of the daemon's /v1 API; every non-2xx answer becomes a CliError with the right exit code. */
export class ApiClient {
  constructor(readonly baseUrl: string, private readonly apiKey: string) {}

  static fromConfig(): ApiClient {
    const { url, apiKey } = clientConfig();
    return new ApiClient(url, apiKey);
  }

  async request<T = unknown>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<ApiResponse<T>> {
    let res: Response;
    try {
      res = await fetch(this.baseUrl + path, {
        method,
        headers: {
          authorization: `Bearer ${this.apiKey}`,
          ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
          ...headers,
        },
        body: body !== undefined ? JSON.stringify(body) : undefined,
        signal: AbortSignal.timeout(60_000),
      });
    } catch (err) {
      const cause = (err as { cause?: { code?: string } }).cause?.code ?? (err as Error).message;
      throw new CliError(`cannot reach the packdesk daemon at ${this.baseUrl} (${cause}); is \`packdesk daemon\` running?`, EXIT.unreachable);
    }
    const text = await res.text();
    let parsed: unknown = text;
    if ((res.headers.get('content-type') ?? '').includes('json') && text) parsed = JSON.parse(text);
    if (!res.ok) {
      const envelope = parsed as { message?: string; errors?: Record<string, string[]> };
      const message = envelope?.message ?? `HTTP ${res.status}`;
      // 503 means a carrier is unreachable, not the daemon: that is a plain failure here
      const code = res.status === 404 ? EXIT.notFound : EXIT.failure;
      throw new CliError(message, code, envelope?.errors);
    }
    return { status: res.status, body: parsed as T };
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
