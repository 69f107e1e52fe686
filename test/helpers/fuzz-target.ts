import { Agent } from 'node:http';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import fc from 'fast-check';
import { startEmulators, type RunningEmulators } from '../../src/carriers/emulator/server.js';
import { isolatedEnv, runCliJson, startDaemon, type DaemonProcess, type Env, type InitOutput } from './cli.js';
import type { LagFigures } from '../../daemon/http/event-loop.js';
import { call, type FuzzAnswer } from './fuzz-http.js';
import {
  HOSTILE_FILE_NAMES, HOSTILE_MAPPINGS, HOSTILE_PATHS, HOSTILE_URLS, hostileCsvContents, utf8Bytes, type OddHeaderName,
} from './fuzz-hostile.js';
import { makeLinkedPlaces } from './fuzz-places.js';
import type { FieldHints } from './fuzz-schema.js';
import { collectionOf, operationsOf, type FuzzRequest, type IdsByCollection, type Operation, type RequestWorld } from './fuzz-requests.js';
import { csvText, ORDER_COLUMNS, orderRow } from './order-files.js';
import { shipmentBody } from './shipments.js';

/** The PPL client secret of every channel the run makes: answers show it masked, never as it is. */
const CARRIER_SECRET = 'fuzz-carrier-secret-0042';

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
  /** The daemon's only files root: whatever it accepts as a place must lie in it once symbolic links are followed. */
  filesRoot: string;
  /** Directories outside the files root that symbolic links in it lead to: nothing may appear in them. */
  outsidePlaces: string[];
  /** Signs the desk in again after a request signed it out, so later requests still reach the desk's checks. */
  renewDeskSession(): Promise<void>;
  send(request: FuzzRequest, timeoutMs: number): Promise<FuzzAnswer>;
  /** `GET /healthz`; rejects when no answer came within `timeoutMs`. */
  health(timeoutMs: number): Promise<HealthReading>;
  /** Removes the temporary directory and stops the emulator (and the daemon, if it still runs). */
  dispose(): Promise<void>;
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
  await data('POST', '/v1/orders', { ...shipmentBody(channel.id), reference_number: `ORDER ${name}` });
  await data('POST', '/v1/dispatches', { shipping_channel_id: channel.id });
  await data('POST', '/v1/shipping-rules', { name: `Rule ${name}`, conditions: { reference_pattern: 'RULE-*' }, action: { type: 'use_channel', shipping_channel_id: channel.id } });
  await data('PUT', `/v1/stations/desk-${name.replace(/\W+/g, '-')}/settings`, { shipping_channel_id: channel.id, printers: { pdf: printer.id }, auto_print: true });
  if (!trackingNumber) throw new Error(`the seeded shipment is ${String(shipment.status)}, without a tracking number`);
  const hook = await data('POST', '/v1/webhook-subscriptions', { name: `Hooks ${name}`, url: 'http://127.0.0.1:9/hooks', events: ['*'] });
  await data('POST', `/v1/webhook-subscriptions/${hook.id}/test`);
  await data('POST', '/v1/watched-folders', { path: join(places, 'orders'), shipping_channel_id: channel.id, label_format: 'pdf', mapping: 'default' });
  await data('POST', '/v1/imports', {
    file_name: 'orders.csv', content_base64: Buffer.from(csvText([orderRow('FUZZ-1')])).toString('base64'), shipping_channel_id: channel.id,
  });
  return trackingNumber;
}

/**
 * Collections that list nothing unasked, and how the fuzz names theirs: pickup points are searched at the seeded PPL
 * channel's carrier; a shipment's documents are named by their type.
 */
const SEARCHED: Readonly<Record<string, { ids?: string[]; list?: string; key?: string }>> = {
  '/v1/shipments/{id}/documents': { ids: ['commercial_invoice'] },
  '/v1/pickup-points': { ids: ['ppl'] },
  '/v1/pickup-points/{provider}': { list: '/v1/pickup-points?provider=ppl&country=CZ&city=Praha', key: 'provider_point_id' },
};

/** The ids of every collection a path parameter can name, listed through the API, parents before children. */
async function listIds(api: (method: string, path: string) => Promise<{ data?: unknown }>, collections: string[]): Promise<IdsByCollection> {
  const ids: IdsByCollection = {};
  for (const collection of [...collections].sort((a, b) => a.length - b.length)) {
    const searched = SEARCHED[collection];
    if (searched) {
      ids[collection] = searched.ids ?? ((await api('GET', searched.list!)).data as Record<string, string>[]).map((item) => item[searched.key!]!);
      continue;
    }
    const parameters = collection.match(/\{\w+\}/g) ?? [];
    let concrete = [collection];
    for (const parameter of parameters) {
      const parent = collection.slice(0, collection.indexOf(parameter) - 1);
      concrete = concrete.flatMap((path) => (ids[parent] ?? []).map((id) => path.replace(parameter, id)));
    }
    ids[collection] = [];
    for (const path of concrete) {
      // providers are named by their code, stations by their name
      const list = (await api('GET', `${path}?per_page=100`)).data as { id?: string; code?: string; station?: string }[];
      ids[collection].push(...list.map((item) => (item.id ?? item.code ?? item.station)!));
    }
  }
  return ids;
}

/**
 * Places are where the worst harm lies: an otherwise working body names a hostile one half the time. Files and
 * mappings are odd one time in three, so that an upload odd in one way often gets far enough to be read.
 */
function orHostile<T>(working: fc.Arbitrary<T>, hostile: readonly T[], oneIn = 2): fc.Arbitrary<T> {
  return fc.oneof({ weight: oneIn - 1, arbitrary: working }, { weight: 1, arbitrary: fc.constantFrom(...hostile) });
}

/** Printer URIs naming the run's own places in odd ways: undecodable escapes, links out of the root, detours. */
function oddPrinterUris(labels: string, linked: readonly string[]): string[] {
  const labelsUri = pathToFileURL(labels).href;
  return [
    `${labelsUri}/a%2fb`, `${labelsUri}%2F..%2F..`, `${labelsUri}/%`, `${labelsUri}/%zz`, `${labelsUri}/50%`, `${labelsUri}/%ff%fe`, `${labelsUri}/%00`,
    `${labelsUri}/%0a`, `${labelsUri}/%2e%2e/%2e%2e/%2e%2e`, `${labelsUri}?copies=2`, `${labelsUri}#x`, `file:${labels}`, `file://localhost${labels}`,
    `file://${labels}`, `${labelsUri}/${'d'.repeat(300)}`, ...linked.map((path) => pathToFileURL(path).href),
  ];
}

/** Places and odd values a run names on top of the common hostile ones. */
interface OddThings {
  /** Paths through symbolic links in the files root (see makeLinkedPlaces). */
  linked: string[];
  printerUris: string[];
}

const ORDER_HEADER = ORDER_COLUMNS.join(',');
const orderLine = (reference: string) => csvText([orderRow(reference)]).split('\r\n')[1]!;

/** Field values that get a generated body past the handlers' own checks, drawn from the seeded world. */
function hintsFor(named: IdsByCollection, pplUrl: string, places: string, providers: string[], trackingNumber: string, odd: OddThings): FieldHints {
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
    uri: orHostile(fc.constantFrom(pathToFileURL(join(places, 'labels')).href, 'tcp://127.0.0.1:9', 'ipp://127.0.0.1:9/ipp/print'), [...HOSTILE_URLS, ...odd.printerUris]),
    path: orHostile(fc.constantFrom(...folders), [...HOSTILE_PATHS, ...odd.linked]),
    file_name: orHostile(fc.constantFrom('orders.csv', 'export.txt', 'Objednávky září.csv', 'זמנות.csv', 'a"b;c.csv'), HOSTILE_FILE_NAMES, 3),
    content_base64: orHostile(fc.constantFrom(
      Buffer.from(csvText([orderRow('FUZZ-2'), orderRow('FUZZ-3')])).toString('base64'),
      Buffer.from('reference_number\nA\n').toString('base64'),
      Buffer.from([0xff, 0xfe, 0x00, 0x41]).toString('base64'),
    ), hostileCsvContents(orderLine, ORDER_HEADER).map((bytes) => bytes.toString('base64')), 3),
    mapping: orHostile(fc.constantFrom<unknown>('default', null, { columns: { ref: 'reference_number' } }), HOSTILE_MAPPINGS, 3),
    tracking_number: fc.constantFrom(trackingNumber, trackingNumber.replace(/\d$/, (d) => String((Number(d) + 1) % 10))),
  };
}

interface DeskSignIn {
  cookie: string;
  csrfToken: string;
  /** The session token the cookie carries: a secret like a key. */
  token: string;
}

/** Signs a browser in to the desk with a key, as the desk's sign-in page does. */
async function openDeskSession(daemonUrl: string, apiKey: string): Promise<DeskSignIn> {
  const res = await fetch(`${daemonUrl}/v1/desk/sessions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ api_key: apiKey }) });
  const body = await res.json() as { data?: { csrf_token?: string } };
  const cookie = res.headers.getSetCookie()[0]?.split(';')[0];
  if (res.status !== 201 || !cookie || !body.data?.csrf_token) throw new Error(`the desk did not sign in: ${res.status} ${JSON.stringify(body)}`);
  return { cookie, csrfToken: body.data.csrf_token, token: cookie.slice(cookie.indexOf('=') + 1) };
}

/**
 * Odd header values made from the world's own secrets and port: the real CSRF token, session, key and host with a
 * byte changed (same length, more bytes in UTF-8), added or cut; a handler comparing them byte for byte trips first.
 */
function oddHeadersFor(desk: DeskSignIn, apiKey: string, port: string): Partial<Record<OddHeaderName, string[]>> {
  const { csrfToken: csrf, token } = desk;
  const name = desk.cookie.slice(0, desk.cookie.indexOf('='));
  const sameLength = (text: string) => `${text.slice(0, -1)}\xe9`;
  const host = `127.0.0.1:${port}`;
  return {
    'x-csrf-token': [sameLength(csrf), `\xe9${csrf.slice(1)}`, '\xe9'.repeat(csrf.length), `${csrf}\xe9`, csrf.slice(0, -1), csrf.toUpperCase(), `${csrf}\x00`, `${csrf} `, utf8Bytes('ř').repeat(csrf.length / 2)],
    cookie: [
      `${name}=${sameLength(token)}`, `${name}=${token}\xe9`, `${name}=${'\xe9'.repeat(token.length)}`, `${name}=${token}; ${name}=x`, `${name}=x; ${name}=${token}`,
      `${name}=`, name, `${name}=${token}\x00`, `${'x=1; '.repeat(3_000)}${desk.cookie}`, `${name.replace(/\d+$/, '1')}=${token}`, `${name}=${'a'.repeat(17_000)}`,
      `${name}=${utf8Bytes('🍪')}`, `=${token}`, `;;${desk.cookie};;`,
    ],
    authorization: [
      `Bearer ${sameLength(apiKey)}`, `Bearer ${apiKey}\xe9`, `Bearer ${apiKey}\x00`, `bearer ${apiKey}`, `Bearer  ${apiKey}`, `Bearer\t${apiKey}`,
      `Bearer ${'\xe9'.repeat(apiKey.length)}`, `Bearer ${utf8Bytes('ř').repeat(apiKey.length / 2)}`, `Basic ${Buffer.from(`${apiKey}:`).toString('base64')}`, `\xe9 ${apiKey}`,
    ],
    host: [sameLength(host), `\xe9:${port}`, `127.0.0.1:${port}\x00`, '[::1', `[::1]:${port}`, '127.0.0.1:99999', 'localhost:abc', `${'h'.repeat(300)}:${port}`, `${host}, evil.example`, 'evil.example', `${host}:1`, utf8Bytes(`příklad.cz:${port}`)],
    origin: [sameLength(`http://${host}`), `http://${host}`, 'null', 'http://evil.example', `HTTP://${host}`, `http://${host}/`, `http://\xe9:${port}`, utf8Bytes(`http://příklad.cz:${port}`)],
    'idempotency-key': ['\xe9'.repeat(64), utf8Bytes('klíč-🚚'), 'k'.repeat(10_000), '\x00', 'a\x7fb', `${'\xe9'.repeat(255)}`],
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
    const outside = join(tmp, 'outside');
    const linked = makeLinkedPlaces({
      at: join(filesRoot, 'own', 'links'), dataDir, outside, othersFolder: join(filesRoot, 'other', 'orders'), inside: join(filesRoot, 'own', 'folder-0'),
    });
    // spares for when a request signs the desk out and the account's rate limit refuses a new sign-in
    const [desk, ...spareDesks] = await Promise.all(Array.from({ length: 4 }, () => openDeskSession(daemon!.url, init.api_key)));
    const secrets = [init.api_key, readOnly.api_key, otherKey, CARRIER_SECRET, ...[desk!, ...spareDesks].map((d) => d.token)];
    const world: RequestWorld = {
      document, own: inPaths, other: await listIds(other, collections),
      hints: hintsFor(namedInBodies, pplUrl, join(filesRoot, 'own'), providers, trackingNumber, { linked, printerUris: oddPrinterUris(join(filesRoot, 'own', 'labels'), linked) }),
      deskSession: { cookie: desk!.cookie, csrfToken: desk!.csrfToken },
      oddHeaders: oddHeadersFor(desk!, init.api_key, url.port),
      authorizations: {
        'own key': `Bearer ${init.api_key}`, 'read-only key': `Bearer ${readOnly.api_key}`, 'other account key': `Bearer ${otherKey}`,
        'no key': undefined, 'a wrong key': `Bearer ${init.api_key}x`, 'a bare Bearer': 'Bearer', 'Basic credentials': 'Basic dXNlcjpwYXNz',
        'a 20 kB header': `Bearer ${'k'.repeat(20_000)}`,
      },
    };
    return {
      daemon, operations, world, providers, send, dispose, secrets, filesRoot, outsidePlaces: [outside],
      renewDeskSession: async () => {
        const renewed = await openDeskSession(daemon!.url, init.api_key).then((signIn) => {
          secrets.push(signIn.token);
          return signIn;
        }, () => spareDesks.shift());
        // with no session left, desk requests go without one (and are answered 401)
        world.deskSession = renewed ? { cookie: renewed.cookie, csrfToken: renewed.csrfToken } : undefined;
        if (renewed) world.oddHeaders = oddHeadersFor(renewed, init.api_key, url.port);
      },
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
