import { request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startEmulators, type RunningEmulators } from '../../src/carriers/emulator/server.js';
import { MAX_CARRIER_ANSWER_BYTES } from '../../src/carriers/http.js';
import { startTestDaemon, type TestAccount, type TestDaemon } from '../helpers/harness.js';
import { emulatorProxy } from '../helpers/recording-proxy.js';
import { pplChannel, shipmentBody } from '../helpers/shipments.js';

/** How a carrier misbehaves on one path: an answer without end (chunked, or declaring 200 MB), or an HTML page. */
type Misbehaviour = 'endless' | 'declares_200_mb' | 'html';

/** What the carrier saw of one misbehaving answer. */
interface Flood {
  sent: number;
  /** Resolves when the connection closed, with whether the answer had been sent whole. */
  closed: Promise<{ whole: boolean }>;
}

const CHUNK = Buffer.alloc(64 * 1024, 'A');
/** The flood stops here even if nobody hangs up, so a daemon that reads on fails the test instead of hanging it. */
const FLOOD_LIMIT = 200 * 1024 * 1024;

/** Writes until the client hangs up (or the limit), honouring backpressure: nothing is allocated beyond one chunk. */
function flood(res: ServerResponse, declareLength: boolean): Flood {
  const seen: Flood = { sent: 0, closed: new Promise((resolve) => res.once('close', () => resolve({ whole: res.writableFinished }))) };
  res.writeHead(200, { 'content-type': 'application/json', ...(declareLength ? { 'content-length': FLOOD_LIMIT } : {}) });
  res.write('{"items":["');
  const pump = () => {
    while (!res.destroyed && seen.sent < FLOOD_LIMIT) {
      seen.sent += CHUNK.length;
      if (!res.write(CHUNK)) return void res.once('drain', pump);
    }
    if (!res.destroyed) res.end();
  };
  pump();
  return seen;
}

/** A carrier in front of the PPL emulator that misbehaves on the paths a test names and passes everything else on. */
async function startMisbehavingCarrier(emulatorUrl: string) {
  const emulator = new URL(emulatorUrl);
  const misbehaving = new Map<string, Misbehaviour>();
  const floods: Flood[] = [];
  const server: Server = emulatorProxy((req: IncomingMessage, res: ServerResponse) => {
    const how = misbehaving.get(`${req.method} ${req.url!.split('?')[0]}`);
    if (how === 'html') return void res.writeHead(200, { 'content-type': 'text/html' }).end('<html><body>Maintenance</body></html>');
    if (how) return void floods.push(flood(res, how === 'declares_200_mb'));
    const forwarded = httpRequest({ host: emulator.hostname, port: emulator.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    req.pipe(forwarded);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}${emulator.pathname.replace(/\/$/, '')}`;
  const path = (p: string) => `${emulator.pathname.replace(/\/$/, '')}${p}`;
  return {
    url,
    misbehave: (method: string, p: string, how: Misbehaviour) => misbehaving.set(`${method} ${path(p)}`, how),
    behave: () => misbehaving.clear(),
    floods,
    close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}

describe('a carrier answer larger than packdesk reads', () => {
  let d: TestDaemon;
  let emu: RunningEmulators;
  let carrier: Awaited<ReturnType<typeof startMisbehavingCarrier>>;
  let a: TestAccount;
  let channel: string;
  const cap = `${MAX_CARRIER_ANSWER_BYTES / 1024 / 1024} MiB`;

  beforeAll(async () => {
    emu = await startEmulators({ providers: ['ppl'], port: 0 });
    carrier = await startMisbehavingCarrier(emu.urls.ppl!);
    d = await startTestDaemon({ carrierTimeoutMs: 5000 });
    a = await d.account('Flooded shop');
    channel = await pplChannel(a, carrier.url);
  });
  afterAll(async () => {
    await d?.close();
    await carrier?.close();
    await emu?.close();
  });
  beforeEach(() => {
    carrier.behave();
    carrier.floods.length = 0;
  });

  it('hangs up on an endless answer after the cap, keeps the shipment for a retry, and creates it once the carrier answers sanely', async () => {
    carrier.misbehave('POST', '/shipment/batch', 'endless');
    const id = (await a.request('POST', '/v1/shipments', shipmentBody(channel, { reference_number: 'FLOOD-1' }))).json().data.id;
    await d.runJobs();

    expect(carrier.floods).toHaveLength(1);
    const [seen] = carrier.floods;
    expect(await seen!.closed).toEqual({ whole: false });
    // what was sent is what was read plus what sat in socket buffers: near the cap, far from the 200 MB on offer
    expect(seen!.sent).toBeGreaterThan(MAX_CARRIER_ANSWER_BYTES);
    expect(seen!.sent).toBeLessThan(MAX_CARRIER_ANSWER_BYTES + 32 * 1024 * 1024);
    const waiting = (await a.request('GET', `/v1/shipments/${id}`)).json().data;
    expect(waiting).toMatchObject({ status: 'pending', failure: { message: `ppl answered with more than ${cap}`, attempts: 1 } });
    expect(waiting.next_attempt_at).not.toBeNull();

    carrier.behave();
    d.clock.advance(3600_000);
    await d.runJobs();
    expect((await a.request('GET', `/v1/shipments/${id}`)).json().data).toMatchObject({ status: 'created', failure: null });
  });

  it('hangs up at once on an answer that declares more than the cap, and says so as a carrier outage (503), not a bad request', async () => {
    carrier.misbehave('GET', '/codelist/product', 'declares_200_mb');
    const checked = await a.request('POST', `/v1/shipping-channels/${channel}/validate`);
    expect(checked.statusCode).toBe(503);
    expect(checked.json()).toEqual({ message: `ppl answered with more than ${cap}` });
    expect(carrier.floods).toHaveLength(1);
    expect(await carrier.floods[0]!.closed).toEqual({ whole: false });
    expect(carrier.floods[0]!.sent).toBeLessThan(MAX_CARRIER_ANSWER_BYTES);
  });

  it('reports an answer that is not JSON as the carrier\'s, never as "The request body is not valid JSON"', async () => {
    carrier.misbehave('POST', '/login/getAccessToken', 'html');
    // a channel of its own logs in afresh (the first channel's token is cached)
    const created = await a.request('POST', '/v1/shipping-channels', {
      name: 'PPL behind a maintenance page', provider: 'ppl', settings: { clientId: 'station-2', clientSecret: 'ppl-secret-value', baseUrl: carrier.url },
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json().data.status).toBe('pending_validation');
    const checked = await a.request('POST', `/v1/shipping-channels/${created.json().data.id}/validate`);
    expect(checked.statusCode).toBe(503);
    expect(checked.json()).toEqual({ message: 'ppl answered HTTP 200 with a body that is not JSON' });
  });
});
