import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { assertConnectable, createGuardedLookup, type GuardedLookup, type Resolver } from '../src/net/addresses.js';

/** IPP over HTTP: messages encoded by the `ipp` package (loaded on first use), sent with a time limit of our own. */

type IppModule = { serialize(message: object): Buffer; parse(buffer: Buffer): unknown };
let ippModule: Promise<IppModule> | undefined;

function loadIpp(): Promise<IppModule> {
  ippModule ??= import('ipp').then((m) => ((m as { default?: IppModule }).default ?? (m as unknown as IppModule)));
  return ippModule;
}

export type IppAttributes = Record<string, unknown>;

export interface IppResponse {
  statusCode: string;
  operationAttributes: IppAttributes;
  /** One entry per job group (Get-Jobs answers several). */
  jobs: IppAttributes[];
  printer: IppAttributes;
}

/** The request never reached the printer (nothing was delivered). */
export class IppConnectError extends Error {}
/** The request went out but no answer came back (it may have been acted on). */
export class IppNoAnswerError extends Error {}
/**
 * What answered is no IPP printer (an HTTP error, or an answer that is not IPP): its HTTP status stays in
 * `httpStatus`, and neither the status nor the answer ever reaches the message, so a printer URI is no port scanner.
 */
export class NoIppPrinterError extends Error {
  constructor(readonly httpStatus: number, endpoint: URL) {
    super(`no IPP printer answers at ${endpoint.host}`);
  }
}

const NOT_DELIVERED = new Set(['ECONNREFUSED', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN', 'EADDRNOTAVAIL']);

function groups(value: unknown): IppAttributes[] {
  if (value === undefined) return [];
  return (Array.isArray(value) ? value : [value]) as IppAttributes[];
}

export class IppClient {
  private readonly endpoint: URL;
  private readonly lookup: GuardedLookup;

  /** Names resolve through `resolve` (the system's by default); an address the outbound address policy forbids is never connected to. */
  constructor(private readonly printerUri: URL, private readonly timeoutMs: number, resolve?: Resolver) {
    this.endpoint = new URL(printerUri.href.replace(/^ipp(s?):/, 'http$1:'));
    if (!printerUri.port) this.endpoint.port = '631';
    this.lookup = createGuardedLookup(resolve);
  }

  async execute(operation: string, operationAttributes: IppAttributes, extra: { job?: IppAttributes; data?: Buffer } = {}): Promise<IppResponse> {
    const ipp = await loadIpp();
    const message = ipp.serialize({
      version: '2.0',
      operation,
      // charset and language go first (the serializer sorts them there), then printer-uri, as RFC 8011 §4.1.5 orders them
      'operation-attributes-tag': {
        'attributes-charset': 'utf-8', 'attributes-natural-language': 'en', 'printer-uri': this.printerUri.href,
        'requesting-user-name': 'packdesk', ...operationAttributes,
      },
      ...(extra.job ? { 'job-attributes-tag': extra.job } : {}),
      ...(extra.data ? { data: extra.data } : {}),
    });
    const answer = await this.post(message);
    let parsed: Record<string, unknown>;
    try {
      parsed = ipp.parse(answer) as Record<string, unknown>;
    } catch {
      throw new NoIppPrinterError(200, this.endpoint);
    }
    if (!/^[12]\./.test(String(parsed.version))) throw new NoIppPrinterError(200, this.endpoint);
    return {
      statusCode: String(parsed.statusCode ?? 'unknown'),
      operationAttributes: (parsed['operation-attributes-tag'] as IppAttributes | undefined) ?? {},
      jobs: groups(parsed['job-attributes-tag']),
      printer: groups(parsed['printer-attributes-tag'])[0] ?? {},
    };
  }

  private post(body: Buffer): Promise<Buffer> {
    const secure = this.endpoint.protocol === 'https:';
    const send = secure ? httpsRequest : httpRequest;
    return new Promise((resolve, reject) => {
      let sent = false;
      try {
        assertConnectable(this.endpoint.hostname);
      } catch (err) {
        return reject(new IppConnectError(`cannot reach ${this.endpoint.host} (${(err as Error).message})`));
      }
      const req = send(this.endpoint, {
        method: 'POST',
        lookup: this.lookup,
        // a fresh connection per request, so "connected" tells whether the request could have reached the printer
        agent: false,
        headers: { 'content-type': 'application/ipp', 'content-length': body.length },
        // printers serve self-signed certificates; like CUPS, we encrypt without pinning a CA
        ...(secure ? { rejectUnauthorized: false } : {}),
      }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          clearTimeout(timer);
          if (res.statusCode !== 200) reject(new NoIppPrinterError(res.statusCode ?? 0, this.endpoint));
          else resolve(Buffer.concat(chunks));
        });
        res.on('error', (err) => reject(new IppNoAnswerError(err.message)));
      });
      const timer = setTimeout(() => req.destroy(new Error(`no answer within ${this.timeoutMs} ms`)), this.timeoutMs);
      req.on('socket', (socket) => socket.once('connect', () => { sent = true; }));
      req.on('error', (err: Error & { code?: string }) => {
        clearTimeout(timer);
        const reason = err.code === 'EADDRFORBIDDEN' ? err.message : err.code ?? err.message;
        if (!sent || NOT_DELIVERED.has(err.code ?? '')) reject(new IppConnectError(`cannot reach ${this.endpoint.host} (${reason})`));
        else reject(new IppNoAnswerError(`${this.endpoint.host} gave no answer (${reason})`));
      });
      req.end(body);
    });
  }
}

export function isSuccess(statusCode: string): boolean {
  return statusCode.startsWith('successful-ok');
}
