import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { FastifyInstance, InjectOptions } from 'fastify';
import openapiTS, { astToString, type OpenAPI3 } from 'openapi-typescript';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulators, type RunningEmulators } from '../../src/carriers/emulator/server.js';
import { startTestDaemon, type TestAccount, type TestDaemon } from '../helpers/harness.js';
import { pplChannel, shipmentBody } from '../helpers/shipments.js';

/** Under the project, so that the program resolves `openapi-fetch` from its node_modules (git-ignored). */
const GENERATED_ROOT = fileURLToPath(new URL('../.generated/', import.meta.url));

/**
 * What a warehouse developer writes against a client generated from GET /v1/openapi.json with openapi-typescript and
 * openapi-fetch: the first page of shipments (no paging arguments), a new shipment, its PDF label. `labelFormat` is
 * the TypeScript expression the creation body carries.
 */
function clientProgram(labelFormat: string): string {
  return `import createClient from 'openapi-fetch';
import type { paths } from './packdesk-api.js';

/** A packdesk client for one API key; \`fetch\` carries its requests to the daemon. */
export function packdesk(apiKey: string, fetch: (request: Request) => Promise<Response>) {
  return createClient<paths>({ baseUrl: 'http://packdesk.test', headers: { Authorization: \`Bearer \${apiKey}\` }, fetch });
}
type Packdesk = ReturnType<typeof packdesk>;

export async function firstPageOfShipments(client: Packdesk): Promise<{ page: number; perPage: number; ids: string[] }> {
  const { data, error } = await client.GET('/v1/shipments');
  if (!data) throw new Error(error?.message);
  return { page: data.meta.current_page, perPage: data.meta.per_page, ids: data.data.map((shipment) => shipment.id) };
}

export async function shipToBrno(client: Packdesk, channelId: string): Promise<string> {
  const { data, error } = await client.POST('/v1/shipments', {
    body: {
      shipping_channel_id: channelId,
      label_format: ${labelFormat},
      sender_contact: { company_name: 'Sklad Praha s.r.o.', email_address: 'sklad@example.cz', phone_number: '+420601111222' },
      recipient_contact: { first_name: 'Řehoř', last_name: 'Šťastný', email_address: 'rehor@example.cz', phone_number: '+420602333444' },
      origin_address: { street_name: 'Skladová', house_number: '12', city_name: 'Praha', postal_code: '11000', country_code: 'CZ' },
      destination_address: { street_name: 'Údolní', house_number: '5', city_name: 'Brno', postal_code: '60200', country_code: 'CZ' },
      parcels: [{ weight_amount: 1.5, length_dimension: 30, width_dimension: 20, height_dimension: 10 }],
    },
  });
  if (!data) throw new Error(error?.message);
  return data.data.id;
}

export async function downloadLabel(client: Packdesk, id: string): Promise<{ contentType: string | null; bytes: Uint8Array }> {
  const { data, error, response } = await client.GET('/v1/shipments/{id}/label', {
    params: { path: { id } }, headers: { Accept: 'application/pdf' }, parseAs: 'arrayBuffer',
  });
  if (!data) throw new Error(error?.message);
  return { contentType: response.headers.get('content-type'), bytes: new Uint8Array(data) };
}
`;
}

interface ClientProgram {
  packdesk(apiKey: string, fetch: (request: Request) => Promise<Response>): unknown;
  firstPageOfShipments(client: unknown): Promise<{ page: number; perPage: number; ids: string[] }>;
  shipToBrno(client: unknown, channelId: string): Promise<string>;
  downloadLabel(client: unknown, id: string): Promise<{ contentType: string | null; bytes: Uint8Array }>;
}

/** The last program checked: the next one reuses its unchanged files (the generated client, the libraries). */
let previousProgram: ts.Program | undefined;

/** The type errors of `file` under strict options, as a TypeScript user compiling it would see them. */
function typeErrors(file: string): readonly ts.Diagnostic[] {
  previousProgram = ts.createProgram([file], {
    strict: true, noEmit: true, skipLibCheck: true, target: ts.ScriptTarget.ES2022, lib: ['lib.es2023.d.ts'], types: ['node'],
    module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext,
  }, undefined, previousProgram);
  return ts.getPreEmitDiagnostics(previousProgram);
}

function formatted(diagnostics: readonly ts.Diagnostic[]): string {
  return ts.formatDiagnostics(diagnostics, { getCanonicalFileName: (f) => f, getCurrentDirectory: () => process.cwd(), getNewLine: () => '\n' });
}

/** A `fetch` that hands each request to the in-process daemon. */
function daemonFetch(app: FastifyInstance) {
  return async (request: Request): Promise<Response> => {
    const url = new URL(request.url);
    const payload = request.body ? Buffer.from(await request.arrayBuffer()) : undefined;
    const res = await app.inject({
      method: request.method as InjectOptions['method'], url: `${url.pathname}${url.search}`,
      headers: Object.fromEntries(request.headers), ...(payload ? { payload } : {}),
    });
    const headers = Object.entries(res.headers).flatMap(([name, value]) => (value === undefined ? [] : [[name, String(value)] as [string, string]]));
    return new Response(res.statusCode === 204 ? null : res.rawPayload, { status: res.statusCode, headers });
  };
}

describe('a TypeScript client generated from GET /v1/openapi.json', () => {
  let d: TestDaemon;
  let emu: RunningEmulators;
  let a: TestAccount;
  let channel: string;
  let dir: string;
  let document: OpenAPI3;

  beforeAll(async () => {
    emu = await startEmulators({ providers: ['ppl'], port: 0 });
    d = await startTestDaemon();
    a = await d.account('Client shop');
    channel = await pplChannel(a, emu.urls.ppl!);
    const res = await d.app.inject({ method: 'GET', url: '/v1/openapi.json' });
    expect(res.statusCode).toBe(200);
    document = res.json();
    mkdirSync(GENERATED_ROOT, { recursive: true });
    dir = mkdtempSync(join(GENERATED_ROOT, 'openapi-client-'));
    writeFileSync(join(dir, 'packdesk-api.ts'), astToString(await openapiTS(document, { silent: true })));
  }, 120_000);
  afterAll(async () => {
    if (dir) rmSync(dir, { recursive: true, force: true });
    await d?.close();
    await emu?.close();
  });

  it('is the document the desk\'s committed client types were generated from (npm run desk:api)', async () => {
    const { deskApiSchema, SCHEMA_FILE } = await import('../../scripts/desk-api-schema.mjs');
    expect(readFileSync(SCHEMA_FILE, 'utf8'), 'web/src/api-schema.d.ts is stale: run npm run desk:api').toBe(await deskApiSchema(document));
  });

  it('compiles a program that lists without paging arguments, creates a shipment and downloads a label', () => {
    const file = join(dir, 'client-story.ts');
    writeFileSync(file, clientProgram("'pdf'"));
    const errors = typeErrors(file);
    expect(formatted(errors)).toBe('');
    expect(errors).toHaveLength(0);
  }, 60_000);

  it('refuses the same program when the shipment body carries a wrong type (label_format: 42)', () => {
    const file = join(dir, 'client-story-wrong.ts');
    const text = clientProgram('42');
    writeFileSync(file, text);
    const errors = typeErrors(file);
    expect(errors, formatted(errors)).toHaveLength(1);
    const line = text.slice(0, errors[0]!.start).split('\n').length;
    expect(text.split('\n')[line - 1], formatted(errors)).toContain('label_format: 42');
    expect(ts.flattenDiagnosticMessageText(errors[0]!.messageText, '\n')).toMatch(/'number' is not assignable to type '"pdf" \| "zpl" \| "epl"( \| undefined)?'/);
  }, 60_000);

  it('runs that program against the daemon: a default first page, a created shipment, its PDF label', async () => {
    const file = join(dir, 'client-run.ts');
    writeFileSync(file, clientProgram("'pdf'"));
    const program = await import(pathToFileURL(file).href) as ClientProgram;
    const client = program.packdesk(a.key, daemonFetch(d.app));

    expect(await program.firstPageOfShipments(client)).toEqual({ page: 1, perPage: 20, ids: [] });
    const id = await program.shipToBrno(client, channel);
    expect(id).toMatch(/^sh_/);
    expect((await program.firstPageOfShipments(client)).ids).toEqual([id]);

    await d.runJobs();
    const label = await program.downloadLabel(client, id);
    expect(label.contentType).toBe('application/pdf');
    expect(Buffer.from(label.bytes).subarray(0, 5).toString('latin1')).toBe('%PDF-');
  }, 60_000);

  it('is answered by the label endpoint only in content types the document declares for it', async () => {
    const paths = document.paths as Record<string, { get: { responses: Record<string, { content?: object }> } }>;
    const declared = Object.keys(paths['/v1/shipments/{id}/label']!.get.responses['200']!.content ?? {});
    const answered = new Set<string>();
    for (const labelFormat of ['pdf', 'zpl', 'epl']) {
      const created = await a.request('POST', '/v1/shipments', shipmentBody(channel, { label_format: labelFormat, reference_number: `CT-${labelFormat}` }));
      expect(created.statusCode, created.body).toBe(201);
      await d.runJobs();
      const url = `/v1/shipments/${created.json().data.id}/label`;
      for (const accept of ['application/json', 'application/pdf', 'application/zpl', 'application/epl', 'application/octet-stream', 'image/png']) {
        for (const query of ['', '?download=1', '?format=png&parcel=1']) {
          const res = await a.request('GET', `${url}${query}`, undefined, { accept });
          expect(res.statusCode, `${labelFormat} ${accept} ${query}: ${res.body.slice(0, 200)}`).toBe(200);
          answered.add(String(res.headers['content-type']).split(';')[0]!);
        }
      }
    }
    expect([...answered].sort()).toEqual([...declared].sort());
  }, 120_000);
});
