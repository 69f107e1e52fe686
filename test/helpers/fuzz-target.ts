import { Agent, request as httpRequest } from 'node:http';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import fc from 'fast-check';
import { startEmulators, type RunningEmulators } from '../../src/carriers/emulator/server.js';
import { isolatedEnv, runCliJson, startDaemon, type DaemonProcess, type Env, type InitOutput } from './cli.js';
import type { LagFigures } from '../../daemon/http/event-loop.js';
import { HOSTILE_PATHS, HOSTILE_URLS } from './fuzz-hostile.js';
import type { FieldHints } from './fuzz-schema.js';
import { collectionOf, operationsOf, type FuzzRequest, type IdsByCollection, type Operation, type RequestWorld } from './fuzz-requests.js';
import { csvText, orderRow } from './order-files.js';
import { shipmentBody } from './shipments.js';

/** The PPL client secret of every channel the run makes: answers show it masked, never as it is. */
const CARRIER_SECRET = 'fuzz-carrier-secret-0042';

/** What came back: a status and body, or why nothing did. */
export type FuzzAnswer =
  | { status: number; contentType: string; body: Buffer }
  | { error: string };

export interface HealthReading {
  status: number;
  lag: LagFigures;
}

/** A real daemon process on a temporary data directory, two accounts with resources, and the PPL emulator. */
export interface FuzzTarget {
  daemon: DaemonProcess;
  /** The operations of the daemon's own GET /v1/openapi.json. */
  operations: Operation[];
  world: RequestWorld;
  /** Every API key the run holds, which no answer may show. */
  secrets: string[];
  /** Provider codes, by which a 503's message names the unreachable carrier. */
  providers: string[];
  send(request: FuzzRequest, timeoutMs: number): Promise<FuzzAnswer>;
  /** `GET /healthz`; rejects when no answer came within `timeoutMs`. */
  health(timeoutMs: number): Promise<HealthReading>;
  /** Removes the temporary directory and stops the emulator (and the daemon, if it still runs). */
  dispose(): Promise<void>;
}

/**
 * One HTTP exchange. A kept-alive socket the daemon closed just before it was reused fails at once; like browsers,
 * that one is sent again on a new connection, so the failure is not laid at the next request's door.
 */
async function call(url: URL, agent: Agent, method: string, path: string, headers: Record<string, string>, body: string | undefined, timeoutMs: number): Promise<FuzzAnswer> {
  const first = await exchange(url, agent, method, path, headers, body, timeoutMs);
  const answer = 'stale' in first ? await exchange(url, agent, method, path, headers, body, timeoutMs) : first;
  return 'stale' in answer ? { error: 'the connection was reset twice' } : answer;
}

function exchange(url: URL, agent: Agent, method: string, path: string, headers: Record<string, string>, body: string | undefined, timeoutMs: number): Promise<FuzzAnswer | { stale: true }> {
  return new Promise((resolve) => {
    let req: ReturnType<typeof httpRequest>;
    try {
      req = httpRequest({ host: url.hostname, port: url.port, method, path, headers, agent, timeout: timeoutMs });
    } catch (err) {
      resolve({ error: `the client refused to send it: ${(err as Error).message}` });
      return;
    }
    req.on('timeout', () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    let answered = false;
    const closedUnderIt = (err: NodeJS.ErrnoException) => req.reusedSocket && !answered && (err.code === 'ECONNRESET' || err.code === 'EPIPE');
    req.on('error', (err) => resolve(closedUnderIt(err) ? { stale: true } : { error: err.message }));
    req.on('response', (res) => {
      answered = true;
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', (err) => resolve({ error: err.message }));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, contentType: String(res.headers['content-type'] ?? ''), body: Buffer.concat(chunks) }));
    });
    req.end(body);
  });
}

/** Creates what the fuzz needs real ids of, for one account (the ids are listed afterwards); returns a tracking number. */
async function seedResources(api: (method: string, path: string, body?: unknown) => Promise<{ data?: unknown }>, pplUrl: string, places: string, name: string): Promise<string> {
  const data = async (method: string, path: string, body?: unknown) => (await api(method, path, body)).data as Record<string, unknown> & { id: string };
  mkdirSync(join(places, 'labels'), { recursive: true });
  mkdirSync(join(places, 'orders'), { recursive: true });
  const channel = await data('POST', '/v1/shipping-channels', {
    name: `PPL ${name}`, provider: 'ppl', settings: { clientId: 'fuzz-1', clientSecret: CARRIER_SECRET, baseUrl: pplUrl },
  });
  if (channel.status !== 'active') throw new Error(`the PPL channel is ${String(channel.status)}`);
  const printer = await data('POST', '/v1/printers', { name: `Labels ${name}`, uri: pathToFileURL(join(places, 'labels')).href, formats: ['pdf', 'zpl', 'epl'], default_for: ['pdf'] });
  // tracked by default: its parcel becomes a tracking parcel
  const shipment = await data('POST', '/v1/shipments?wait=20', shipmentBody(channel.id));
  await data('POST', `/v1/shipments/${shipment.id}/print`, { printer_id: printer.id });
  const trackingNumber = (shipment.parcels as { tracking_number: string | null }[])[0]?.tracking_number;
  if (!trackingNumber) throw new Error(`the seeded shipment is ${String(shipment.status)}, without a tracking number`);
  const hook = await data('POST', '/v1/webhook-subscriptions', { name: `Hooks ${name}`, url: 'http://127.0.0.1:9/hooks', events: ['*'] });
  await data('POST', `/v1/webhook-subscriptions/${hook.id}/test`);
  await data('POST', '/v1/watched-folders', { path: join(places, 'orders'), shipping_channel_id: channel.id, label_format: 'pdf', mapping: 'default' });
  await data('POST', '/v1/imports', {
    file_name: 'orders.csv', content_base64: Buffer.from(csvText([orderRow('FUZZ-1')])).toString('base64'), shipping_channel_id: channel.id,
  });
  return trackingNumber;
}

/** The ids of every collection a path parameter can name, listed through the API, parents before children. */
async function listIds(api: (method: string, path: string) => Promise<{ data?: unknown }>, collections: string[]): Promise<IdsByCollection> {
  const ids: IdsByCollection = {};
  for (const collection of [...collections].sort((a, b) => a.length - b.length)) {
    const parameters = collection.match(/\{\w+\}/g) ?? [];
    let concrete = [collection];
    for (const parameter of parameters) {
      const parent = collection.slice(0, collection.indexOf(parameter) - 1);
      concrete = concrete.flatMap((path) => (ids[parent] ?? []).map((id) => path.replace(parameter, id)));
    }
    ids[collection] = [];
    for (const path of concrete) {
      // providers are named by their code
      const list = (await api('GET', `${path}?per_page=100`)).data as { id?: string; code?: string }[];
      ids[collection].push(...list.map((item) => (item.id ?? item.code)!));
    }
  }
  return ids;
}

/** Places are where the worst harm lies: an otherwise working body names a hostile one half the time. */
function orHostile(working: fc.Arbitrary<string>, hostile: readonly string[]): fc.Arbitrary<string> {
  return fc.oneof(working, fc.constantFrom(...hostile));
}

/** Field values that get a generated body past the handlers' own checks, drawn from the seeded world. */
function hintsFor(named: IdsByCollection, pplUrl: string, places: string, providers: string[], trackingNumber: string): FieldHints {
  const idsOf = (collection: string, junk: string) => fc.constantFrom(...(named[collection]?.length ? named[collection] : [junk]));
  const folders = Array.from({ length: 8 }, (_, i) => join(places, `folder-${i}`));
  for (const folder of folders) mkdirSync(folder, { recursive: true });
  return {
    shipping_channel_id: idsOf('/v1/shipping-channels', 'ch_missing'),
    printer_id: idsOf('/v1/printers', 'prn_missing'),
    shipment_id: idsOf('/v1/shipments', 'sh_missing'),
    watched_folder_id: idsOf('/v1/watched-folders', 'wf_missing'),
    provider: fc.oneof({ weight: 4, arbitrary: fc.constant('ppl') }, { weight: 1, arbitrary: fc.constantFrom(...providers) }),
    key: fc.constantFrom('courierCode', 'accountId', 'clientId'), // settings the carrier lists values for, and one it does not
    settings: fc.oneof(
      { weight: 4, arbitrary: fc.constant({ clientId: 'fuzz-2', clientSecret: CARRIER_SECRET, baseUrl: pplUrl }) },
      { weight: 1, arbitrary: fc.dictionary(fc.constantFrom('clientId', 'clientSecret', 'baseUrl', 'x'), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 4 }) },
    ),
    label_format: fc.constantFrom('pdf', 'zpl'), // what PPL prints
    country_code: fc.constantFrom('CZ', 'SK', 'DE', 'PL', 'AT'),
    phone_number: fc.constantFrom('+420601111222', '+420 602 333 444', '+421905123456'),
    recipient_phone: fc.constantFrom('+420601111222', null),
    postal_code: fc.constantFrom('11000', '60200', '811 01'),
    cash_on_delivery_currency: fc.constantFrom('CZK', 'EUR', null),
    shipping_date: fc.constant(new Date().toISOString().slice(0, 10)),
    url: orHostile(fc.constantFrom('http://127.0.0.1:9/hooks', 'http://localhost:9/other', 'https://hooks.example.com/packdesk'), HOSTILE_URLS),
    events: fc.constantFrom(['*'], ['shipment.created', 'shipment.status_changed'], ['webhook.test']),
    uri: orHostile(fc.constantFrom(pathToFileURL(join(places, 'labels')).href, 'tcp://127.0.0.1:9', 'ipp://127.0.0.1:9/ipp/print'), HOSTILE_URLS),
    path: orHostile(fc.constantFrom(...folders), HOSTILE_PATHS),
    file_name: fc.constantFrom('orders.csv', 'export.txt', 'Objednávky září.csv', 'זמנות.csv', 'a"b;c.csv'),
    content_base64: fc.constantFrom(
      Buffer.from(csvText([orderRow('FUZZ-2'), orderRow('FUZZ-3')])).toString('base64'),
      Buffer.from('reference_number\nA\n').toString('base64'),
      Buffer.from([0xff, 0xfe, 0x00, 0x41]).toString('base64'),
    ),
    mapping: fc.constantFrom('default', null, { columns: { ref: 'reference_number' } }),
    tracking_number: fc.constantFrom(trackingNumber, trackingNumber.replace(/\d$/, (d) => String((Number(d) + 1) % 10))),
  };
}

/**
 * Starts `packdesk daemon` with its own `--files-root` on a fresh data directory made by `packdesk init`, adds a second
 * account and a read-only key, and gives both accounts one resource of every kind on the PPL emulator.
 */
export async function startFuzzTarget(): Promise<FuzzTarget> {
  const tmp = mkdtempSync(join(tmpdir(), 'packdesk-fuzz-'));
  const dataDir = join(tmp, 'data');
  const filesRoot = join(tmp, 'files');
  mkdirSync(filesRoot);
  const env: Env = { ...isolatedEnv(), XDG_CONFIG_HOME: join(tmp, 'cfg'), CI: 'true' };
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const healthAgent = new Agent({ keepAlive: true, maxSockets: 1 });
  let emulators: RunningEmulators | undefined;
  let daemon: DaemonProcess | undefined;
  const dispose = async () => {
    agent.destroy();
    healthAgent.destroy();
    await daemon?.stop('SIGKILL');
    await emulators?.close();
    rmSync(tmp, { recursive: true, force: true });
  };
  try {
    const init = await runCliJson<InitOutput>(['init', '--data-dir', dataDir, '--yes', '--json'], env);
    const readOnly = await runCliJson<{ api_key: string }>(['keys', 'create', '--account', init.account_id, '--scope', 'read_only', '--data-dir', dataDir, '--json'], env);
    const otherId = (await runCliJson<{ account_id: string }>(['accounts', 'create', '--name', 'Other warehouse', '--plan', 'enterprise', '--data-dir', dataDir, '--json'], env)).account_id;
    const otherKey = (await runCliJson<{ api_key: string }>(['keys', 'create', '--account', otherId, '--data-dir', dataDir, '--json'], env)).api_key;
    emulators = await startEmulators({ providers: ['ppl'], port: 0 });
    const pplUrl = emulators.urls.ppl!;
    daemon = await startDaemon(dataDir, env, ['--files-root', filesRoot]);
    const url = new URL(daemon.url);
    const send = (request: FuzzRequest, timeoutMs: number) => call(url, agent, request.method, request.path, request.headers, request.body, timeoutMs);
    const apiOf = (key: string) => async (method: string, path: string, body?: unknown) => {
      const answer = await call(url, agent, method, path, {
        authorization: `Bearer ${key}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      }, body === undefined ? undefined : JSON.stringify(body), 60_000);
      if ('error' in answer || answer.status >= 300) throw new Error(`${method} ${path} while seeding: ${'error' in answer ? answer.error : `${answer.status} ${answer.body}`}`);
      return JSON.parse(answer.body.toString('utf8')) as { data?: unknown };
    };
    const own = apiOf(init.api_key);
    const other = apiOf(otherKey);
    const document = await own('GET', '/v1/openapi.json') as Parameters<typeof operationsOf>[0];
    const operations = operationsOf(document);
    const collections = [...new Set(operations.flatMap((op) => op.parameters.filter((p) => p.in === 'path').map((p) => collectionOf(op.path, p.name))))];
    // bodies name resources that path parameters never reach, so a fuzzed DELETE or PATCH cannot take them away
    const trackingNumber = await seedResources(own, pplUrl, join(filesRoot, 'own', 'named-in-bodies'), 'for bodies');
    const namedInBodies = await listIds(own, collections);
    await seedResources(own, pplUrl, join(filesRoot, 'own', 'in-paths'), 'for paths');
    await seedResources(other, pplUrl, join(filesRoot, 'other'), 'of another account');
    const providers = ((await own('GET', '/v1/providers')).data as { code: string }[]).map((p) => p.code);
    const inPaths = Object.fromEntries(Object.entries(await listIds(own, collections))
      .map(([collection, ids]) => [collection, ids.filter((id) => !namedInBodies[collection]?.includes(id))]));
    const world: RequestWorld = {
      document, own: inPaths, other: await listIds(other, collections),
      hints: hintsFor(namedInBodies, pplUrl, join(filesRoot, 'own'), providers, trackingNumber),
      authorizations: {
        'own key': `Bearer ${init.api_key}`, 'read-only key': `Bearer ${readOnly.api_key}`, 'other account key': `Bearer ${otherKey}`,
        'no key': undefined, 'a wrong key': `Bearer ${init.api_key}x`, 'a bare Bearer': 'Bearer', 'Basic credentials': 'Basic dXNlcjpwYXNz',
        'a 20 kB header': `Bearer ${'k'.repeat(20_000)}`,
      },
    };
    return {
      daemon, operations, world, providers, send, dispose,
      secrets: [init.api_key, readOnly.api_key, otherKey, CARRIER_SECRET],
      health: async (timeoutMs) => {
        const answer = await call(url, healthAgent, 'GET', '/healthz', {}, undefined, timeoutMs);
        if ('error' in answer) throw new Error(answer.error);
        const body = JSON.parse(answer.body.toString('utf8')) as { event_loop?: { lag_ms?: LagFigures } };
        if (!body.event_loop?.lag_ms) throw new Error(`/healthz tells no event-loop lag: ${answer.body}`);
        return { status: answer.status, lag: body.event_loop.lag_ms };
      },
    };
  } catch (err) {
    await dispose();
    throw err;
  }
}
