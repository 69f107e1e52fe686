import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestDaemon, type TestAccount, type TestDaemon } from '../helpers/harness.js';

/** No user value makes the daemon connect to a link-local or metadata address, or a webhook to loopback, however it is spelled. */
describe('outbound addresses', () => {
  let d: TestDaemon;
  let a: TestAccount;
  let web: Server;
  let webUrl: string;
  const hits: string[] = [];

  beforeAll(async () => {
    d = await startTestDaemon();
    a = await d.account();
    // a plain web server that is no IPP printer: what it answers must not come back to the caller
    const answers: Record<string, number> = { '/one': 418, '/two': 404, '/three': 200 };
    web = createServer((req, res) => {
      hits.push(req.url ?? '');
      res.writeHead(answers[req.url ?? ''] ?? 500, { 'content-type': 'text/plain' }).end('secret-intranet-page');
    });
    await new Promise<void>((resolve) => web.listen(0, '127.0.0.1', resolve));
    webUrl = `127.0.0.1:${(web.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await d.close();
    await new Promise((resolve) => web.close(resolve));
  });

  it('refuses webhook URLs at link-local and metadata addresses in any spelling', async () => {
    for (const url of ['https://[::ffff:169.254.169.254]/', 'https://[::ffff:a9fe:a9fe]/', 'https://2852039166/', 'https://[64:ff9b::a9fe:a9fe]/',
      'https://0xa9.0xfe.0xa9.0xfe/', 'https://[fe80::1]/', 'https://metadata.google.internal./x']) {
      const res = await a.request('POST', '/v1/webhook-subscriptions', { name: 'x', url, events: ['*'] });
      expect(res.statusCode, `${url}: ${res.body}`).toBe(422);
      expect(res.json().errors.url, url).toEqual(['must not point to a link-local or metadata address']);
    }
  });

  it('refuses webhook URLs to the station\'s own loopback services in any spelling, unless the station allows it', async () => {
    const port = webUrl.split(':')[1];
    const literal = 'must not point to a loopback address (allowed only when the daemon runs with --allow-loopback-webhooks)';
    const cases: [string, string][] = [
      ...[`http://${webUrl}/three`, `https://${webUrl}/three`, `http://127.1:${port}/`, `http://2130706433:${port}/`, `http://0x7f000001:${port}/`,
        `http://0177.0.0.1:${port}/`, `http://[::1]:${port}/`, `http://[::ffff:127.0.0.1]:${port}/`, `https://[::ffff:7f00:1]:${port}/`,
        `https://[64:ff9b::7f00:1]:${port}/`, `http://localhost:${port}/`, `http://LOCALHOST.:${port}/`, `http://shop.localhost:${port}/`,
      ].map((url): [string, string] => [url, literal]),
      // a name is resolved, not trusted: localhost reaches 127.0.0.1 here
      [`https://localhost:${port}/three`, 'resolves to a loopback address (allowed only when the daemon runs with --allow-loopback-webhooks)'],
    ];
    for (const [url, problem] of cases) {
      const res = await a.request('POST', '/v1/webhook-subscriptions', { name: 'probe', url, events: ['*'] });
      expect(res.statusCode, `${url}: ${res.body}`).toBe(422);
      expect(res.json().errors.url, url).toEqual([problem]);
    }
  });

  it('does not reach a loopback service through a webhook URL stored before, and logs no answer of it', async () => {
    const created = await a.request('POST', '/v1/webhook-subscriptions', { name: 'stored earlier', url: 'https://hooks.example.com/packdesk', events: ['*'] });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().data.id as string;
    // as if saved while the station allowed loopback: checked again when it is sent, and for a name, when it connects
    for (const [url, error] of [
      [`http://${webUrl}/three`, 'not sent: the url must not point to a loopback address (allowed only when the daemon runs with --allow-loopback-webhooks)'],
      [`https://localhost:${webUrl.split(':')[1]}/three`, 'not sent: localhost resolves to 127.0.0.1, a loopback address'],
    ]) {
      await d.ctx.store.run('UPDATE webhook_subscriptions SET url = ? WHERE id = ?', url, id);
      hits.length = 0;
      const sent = await a.request('POST', `/v1/webhook-subscriptions/${id}/test`);
      expect(sent.statusCode, sent.body).toBe(200);
      expect(sent.json().data, url).toMatchObject({ status: 'failed', response_status: null, response_body: null, error_message: error });
      expect(hits, url).toEqual([]);
      expect((await a.request('GET', `/v1/webhook-subscriptions/${id}/logs`)).body).not.toContain('secret-intranet-page');
    }
  });

  it('refuses printers at link-local and metadata addresses without connecting', async () => {
    for (const uri of ['tcp://169.254.169.254:9100', 'ipp://169.254.169.254/ipp/print', 'tcp://[fe80::1]:9100', 'tcp://0xa9fea9fe:9100',
      'ipp://0251.0376.0251.0376/x', 'ipps://[::ffff:169.254.169.254]/ipp/print', 'tcp://2852039166:9100']) {
      const res = await a.request('POST', '/v1/printers', { name: `p ${uri}`, uri, formats: uri.startsWith('tcp') ? ['zpl'] : ['pdf'] });
      expect(res.statusCode, `${uri}: ${res.body}`).toBe(422);
      expect(res.json().errors.uri, uri).toEqual(['must not point to a link-local or metadata address']);
    }
  });

  it('does not tell what answers at a host and port that is no IPP printer', async () => {
    for (const [path, status] of [['/one', '418'], ['/two', '404'], ['/three', '200']] as const) {
      hits.length = 0;
      const res = await a.request('POST', '/v1/printers', { name: `Not a printer ${path.slice(1)}`, uri: `ipp://${webUrl}${path}`, formats: ['pdf'] });
      expect(res.statusCode, res.body).toBe(201);
      expect(hits).toEqual([path]);
      const printer = res.json().data;
      expect(printer.status).toBe('offline');
      const { status_detail: detail } = (await a.request('GET', `/v1/printers/${printer.id}`)).json().data;
      expect(detail).toEqual({ reachable: false, problems: ['unreachable'], message: `no IPP printer answers at ${webUrl}` });
      expect(JSON.stringify(detail).replace(webUrl, '')).not.toMatch(new RegExp(`HTTP|${status}|secret-intranet-page|teapot|not found`, 'i'));
    }
  });

  it('refuses a carrier base URL at a link-local or metadata address', async () => {
    for (const baseUrl of ['http://169.254.169.254/', 'http://[::ffff:a9fe:a9fe]/', 'http://metadata.google.internal/']) {
      const res = await a.request('POST', '/v1/shipping-channels', {
        name: `PPL ${baseUrl}`, provider: 'ppl', settings: { clientId: 'me', clientSecret: 'secret-value', baseUrl },
      });
      expect(res.statusCode, `${baseUrl}: ${res.body}`).toBe(422);
      expect(res.json().errors['settings.baseUrl'], baseUrl).toEqual(['must not point to a link-local or metadata address']);
    }
    const notHttp = await a.request('POST', '/v1/shipping-channels', { name: 'PPL file', provider: 'ppl', settings: { clientId: 'me', clientSecret: 'secret-value', baseUrl: 'file:///etc/passwd' } });
    expect(notHttp.json().errors['settings.baseUrl']).toEqual(['must be an absolute http or https URL']);

    const created = await a.request('POST', '/v1/shipping-channels', {
      name: 'PPL on the LAN', provider: 'ppl', settings: { clientId: 'me', clientSecret: 'secret-value', baseUrl: `http://${webUrl}/` },
    });
    expect(created.statusCode, created.body).toBe(201);
    const moved = await a.request('PATCH', `/v1/shipping-channels/${created.json().data.id}`, { settings: { baseUrl: 'http://2852039166/' } });
    expect(moved.statusCode, moved.body).toBe(422);
    expect(moved.json().errors['settings.baseUrl']).toEqual(['must not point to a link-local or metadata address']);
    expect((await a.request('GET', `/v1/shipping-channels/${created.json().data.id}`)).json().data.settings.baseUrl).toBe(`http://${webUrl}/`);
  });
});
