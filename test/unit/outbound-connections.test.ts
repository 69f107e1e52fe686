import type { LookupAddress } from 'node:dns';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createIppDriver } from '../../printers/ipp.js';
import { createRawTcpDriver } from '../../printers/raw-tcp.js';
import { PrinterUnavailableError } from '../../printers/index.js';
import { CarrierRefusedError } from '../../src/carriers/errors.js';
import { createCarrierFetch } from '../../src/carriers/http.js';
import type { Resolver } from '../../src/net/addresses.js';
import { startZebra, type ZebraPrinter } from '../helpers/zebra.js';

/**
 * A name resolving to a link-local or metadata address (a DNS answer re-pointed after the URI was saved) is refused
 * when printers and carriers connect. The names resolve through a resolver of the test's own: `*.lan.test` to the
 * loopback server only, `*.rebound.test` to the loopback server and the metadata address, so without the guard the
 * call would reach the loopback server.
 */
const resolver: Resolver = (name, _options, callback) => {
  const loopback: LookupAddress = { address: '127.0.0.1', family: 4 };
  if (name.endsWith('.lan.test')) return callback(null, [loopback]);
  if (name.endsWith('.rebound.test')) return callback(null, [loopback, { address: '169.254.169.254', family: 4 }]);
  callback(Object.assign(new Error(`${name} not found`), { code: 'ENOTFOUND' }), []);
};

describe('connecting to a name that resolves to a forbidden address', () => {
  let zebra: ZebraPrinter;
  let web: Server;
  let webPort: number;
  const webRequests: string[] = [];

  beforeAll(async () => {
    zebra = await startZebra();
    web = createServer((req, res) => {
      webRequests.push(`${req.method} ${req.url}`);
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
    await new Promise<void>((resolve) => web.listen(0, '127.0.0.1', resolve));
    webPort = (web.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await zebra.stop();
    await new Promise((resolve) => web.close(resolve));
  });

  it('sends nothing to a raw TCP printer whose name resolves to a metadata address', async () => {
    const driver = (host: string) => createRawTcpDriver(resolver)({ uri: new URL(`tcp://${host}:${zebra.port}`), formats: ['epl'], timeoutMs: 2000 });
    expect((await driver('zebra.lan.test').status()).state).toBe('ready');
    zebra.clear();

    const status = await driver('zebra.rebound.test').status();
    expect(status).toMatchObject({ state: 'offline', reachable: false });
    expect(status.message).toBe(`cannot connect to zebra.rebound.test:${zebra.port} (zebra.rebound.test resolves to 169.254.169.254, a link-local or metadata address)`);
    const job = { jobId: 'pj_1', format: 'epl' as const, content: Buffer.from('N\nP1\n'), copies: 1, media: 'label_100x150mm' as const, resumed: false };
    const printing = driver('zebra.rebound.test').print(job);
    await expect(printing).rejects.toBeInstanceOf(PrinterUnavailableError);
    await expect(printing).rejects.toMatchObject({ maybeDelivered: false });
    expect(zebra.connections()).toBe(0);
    expect(zebra.received().length).toBe(0);
  });

  it('sends nothing to an IPP printer whose name resolves to a metadata address', async () => {
    const status = await createIppDriver(resolver)({ uri: new URL(`ipp://cups.rebound.test:${webPort}/ipp/print`), formats: ['pdf'], timeoutMs: 2000 }).status();
    expect(status).toMatchObject({ state: 'offline', reachable: false });
    expect(status.message).toBe(`cannot reach cups.rebound.test:${webPort} (cups.rebound.test resolves to 169.254.169.254, a link-local or metadata address)`);
    expect(webRequests).toEqual([]);
  });

  it('fails a carrier call to a name that resolves to a metadata address as a refusal on the base URL, before sending', async () => {
    const carrierFetch = createCarrierFetch(resolver);
    const log = pino({ level: 'silent' });
    const reached = await carrierFetch(log, 'ppl', { method: 'GET', url: `http://carrier.lan.test:${webPort}/codelist/product` });
    expect(reached.status).toBe(200);
    expect(webRequests).toEqual(['GET /codelist/product']);
    webRequests.length = 0;

    const call = carrierFetch(log, 'ppl', { method: 'POST', url: `http://carrier.rebound.test:${webPort}/login/getAccessToken`, body: 'client_secret=s3cret' });
    await expect(call).rejects.toBeInstanceOf(CarrierRefusedError);
    await expect(call).rejects.toMatchObject({
      message: 'ppl not called: carrier.rebound.test resolves to 169.254.169.254, a link-local or metadata address',
      errors: { 'settings.baseUrl': ['carrier.rebound.test resolves to 169.254.169.254, a link-local or metadata address'] },
    });
    expect(webRequests).toEqual([]);
  });

  it('refuses a forbidden literal before any connection, where Node would not ask the resolver', async () => {
    const log = pino({ level: 'silent' });
    await expect(createCarrierFetch(resolver)(log, 'ppl', { method: 'GET', url: 'http://[::ffff:a9fe:a9fe]/' })).rejects.toMatchObject({
      errors: { 'settings.baseUrl': ['[::ffff:a9fe:a9fe] is a link-local or metadata address'] },
    });
    const status = await createRawTcpDriver(resolver)({ uri: new URL('tcp://0xa9fea9fe:9100'), formats: ['zpl'], timeoutMs: 2000 }).status();
    expect(status.message).toBe('cannot connect to 0xa9fea9fe:9100 (0xa9fea9fe is a link-local or metadata address)');
  });
});
