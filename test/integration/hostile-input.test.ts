import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulators, type RunningEmulators } from '../../src/carriers/emulator/server.js';
import { startTestDaemon, type TestAccount, type TestDaemon } from '../helpers/harness.js';
import { lastAnswer, rawClient } from '../helpers/raw-client.js';
import { pplChannel, shipmentBody } from '../helpers/shipments.js';

/** Sends raw bytes and reads the answer (for what the HTTP parser itself refuses). */
async function rawRequest(url: string, bytes: string): Promise<{ status: number; body: string }> {
  const client = await rawClient(url);
  client.socket.end(bytes);
  return lastAnswer(await client.closed);
}

/** Requests an attacker or a careless client sends: each gets a clear 4xx in the error envelope, never a 500. */
describe('hostile input', () => {
  let d: TestDaemon;
  let a: TestAccount;
  let emu: RunningEmulators;
  let channelId: string;
  let shipmentId: string;

  const envelopeOf = (res: { statusCode: number; body: string }) => {
    const body = JSON.parse(res.body) as { message?: unknown; errors?: unknown };
    expect(typeof body.message, res.body).toBe('string');
    expect(Object.keys(body).every((k) => k === 'message' || k === 'errors'), res.body).toBe(true);
    return body as { message: string; errors?: Record<string, string[]> };
  };

  beforeAll(async () => {
    emu = await startEmulators({ providers: ['ppl'], port: 0 });
    d = await startTestDaemon();
    a = await d.account();
    channelId = await pplChannel(a, `${emu.url}/ppl`);
    const created = await a.request('POST', '/v1/shipments', shipmentBody(channelId));
    expect(created.statusCode, created.body).toBe(201);
    shipmentId = created.json().data.id;
  });
  afterAll(async () => {
    await d.close();
    await emu.close();
  });

  it('searches shipments by one or two characters: a whole reference number, case-insensitively', async () => {
    const short = await a.request('POST', '/v1/shipments', shipmentBody(channelId, { reference_number: 'a7' }));
    expect(short.statusCode, short.body).toBe(201);
    for (const term of ['1', 'OR', '%', '_x']) {
      const res = await a.request('GET', `/v1/shipments?search=${encodeURIComponent(term)}`);
      expect(res.statusCode, `${term}: ${res.body}`).toBe(200);
      expect(res.json().data, term).toEqual([]);
    }
    const hit = await a.request('GET', '/v1/shipments?search=A7');
    expect(hit.json().data.map((s: { id: string }) => s.id)).toEqual([short.json().data.id]);
    const substring = await a.request('GET', '/v1/shipments?search=DER-10');
    expect(substring.json().data.map((s: { id: string }) => s.id)).toEqual([shipmentId]);
  });

  it('answers 422 for pages beyond any list instead of rounding or failing', async () => {
    const lists = ['/v1/shipments', '/v1/shipping-channels', '/v1/tracking-parcels', '/v1/webhook-subscriptions', '/v1/printers',
      '/v1/print-jobs', '/v1/watched-folders', '/v1/imports'];
    for (const list of lists) {
      for (const page of ['1e308', '99999999999999999999', '9007199254740993', '1.5', '-1']) {
        const res = await a.request('GET', `${list}?page=${page}`);
        expect(res.statusCode, `${list}?page=${page}: ${res.body}`).toBe(422);
        expect(envelopeOf(res).errors).toHaveProperty('page');
      }
    }
    const last = await a.request('GET', '/v1/shipments?page=1000000');
    expect(last.statusCode, last.body).toBe(200);
    expect(last.json().data).toEqual([]);
  });

  it('answers a JSON null, array, string or number body with 422 on every write', async () => {
    const openapi = (await d.app.inject({ method: 'GET', url: '/v1/openapi.json' })).json() as {
      paths: Record<string, Record<string, { requestBody?: unknown }>>;
    };
    const ids: Record<string, string> = { '/v1/shipments/': shipmentId, '/v1/shipping-channels/': channelId };
    let writes = 0;
    for (const [template, operations] of Object.entries(openapi.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        if (!operation.requestBody || !['post', 'put', 'patch'].includes(method)) continue;
        const prefix = Object.keys(ids).find((p) => template.startsWith(p));
        const url = template.replace(/\{[^}]+\}/g, prefix ? ids[prefix]! : 'x_00000000000000000000');
        for (const body of ['null', '[]', '"x"', '123']) {
          const res = await a.request(method.toUpperCase() as 'POST', url, body);
          expect([400, 404, 422], `${method} ${url} ${body}: ${res.body}`).toContain(res.statusCode);
          envelopeOf(res);
        }
        writes++;
      }
    }
    expect(writes).toBeGreaterThanOrEqual(17);
  });

  it('refuses a body nested deeper than any field needs with 400, and keeps answering', async () => {
    const deep = `{"metadata":${'{"a":'.repeat(20_000)}1${'}'.repeat(20_000)}}`;
    const res = await a.request('PATCH', `/v1/shipments/${shipmentId}`, deep);
    expect(res.statusCode, res.body).toBe(400);
    expect(envelopeOf(res).message).toMatch(/nest/);
    const arrays = await a.request('POST', '/v1/shipments', `{"parcels":${'['.repeat(50_000)}${']'.repeat(50_000)}}`);
    expect(arrays.statusCode, arrays.body).toBe(400);
    const health = await d.app.inject({ method: 'GET', url: '/healthz' });
    expect(health.statusCode).toBe(200);
  });

  it('answers file names of the wrong type or with a NUL byte on an import with 422', async () => {
    for (const fileName of [123, true, [], {}, 'orders\u0000.csv', '../../etc/passwd', 'a/b.csv']) {
      const res = await a.request('POST', '/v1/imports', {
        file_name: fileName, content_base64: Buffer.from('reference_number\nA\n').toString('base64'), shipping_channel_id: channelId,
      });
      expect(res.statusCode, `${JSON.stringify(fileName)}: ${res.body}`).toBe(422);
      expect(envelopeOf(res).errors).toHaveProperty('file_name');
    }
  });

  it('answers an over-long id (414) and over-large headers (431) in the error envelope', async () => {
    const long = await a.request('GET', `/v1/shipments/sh_${'x'.repeat(200)}`);
    expect(long.statusCode, long.body).toBe(414);
    expect(envelopeOf(long).message).toBe('A path segment is longer than 100 characters.');
    const url = await d.app.listen({ host: '127.0.0.1', port: 0 });
    const headers = await rawRequest(url, `GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${'y'.repeat(20_000)}\r\n\r\n`);
    expect(headers.status).toBe(431);
    expect(JSON.parse(headers.body)).toEqual({ message: 'The request headers are too large.' });
    const garbage = await rawRequest(url, 'NOT HTTP AT ALL\r\n\r\n');
    expect(garbage.status).toBe(400);
    expect(JSON.parse(garbage.body)).toEqual({ message: 'The request is not valid HTTP.' });
  });

  it('answers a JSON body sent as text/plain with 400', async () => {
    const res = await a.request('POST', '/v1/shipments', JSON.stringify(shipmentBody(channelId)), { 'content-type': 'text/plain' });
    expect(res.statusCode, res.body).toBe(400);
    expect(envelopeOf(res).message).toBe('Content-Type must be application/json.');
  });

  it('answers a cancel the carrier refuses with 422 naming the carrier, not a 500', async () => {
    const created = await a.request('POST', '/v1/shipments', shipmentBody(channelId, { reference_number: 'FORGOTTEN-1' }));
    await d.runJobs();
    const id = created.json().data.id as string;
    expect((await a.request('GET', `/v1/shipments/${id}`)).json().data.status).toBe('created');
    await fetch(`${emu.url}/_emulator/ppl/reset`, { method: 'POST' }); // PPL no longer knows the shipment
    const res = await a.request('POST', `/v1/shipments/${id}/cancel`);
    expect(res.statusCode, res.body).toBe(422);
    expect(envelopeOf(res).message).toMatch(/PPL/);
    expect((await a.request('GET', `/v1/shipments/${id}`)).json().data.status).toBe('created');
  });

  it('takes fields named like Object members as any other, and ignores unknown fields on a PATCH', async () => {
    for (const body of [{ constructor: null }, { toString: 1 }, { hasOwnProperty: 1, __proto__x: 2 }, { colour: 'blue' }]) {
      const res = await a.request('PATCH', `/v1/shipments/${shipmentId}`, body);
      expect(res.statusCode, `${JSON.stringify(body)}: ${res.body}`).toBe(200);
    }
    const bad = await a.request('POST', '/v1/webhook-subscriptions', { name: 'x', url: 'https://example.com/h', events: ['*'], constructor: 1, toString: 'x' });
    expect(bad.statusCode, bad.body).toBe(201);
  });

  it('refuses NUL and control characters in stored text, naming each field', async () => {
    const body = shipmentBody(channelId, {
      reference_number: 'ORD\u0000-1',
      recipient_contact: { first_name: 'Jana', last_name: 'N\u0007ováková', email_address: 'jana@example.cz\u0000', phone_number: '+420602333444' },
      destination_address: { street_name: 'Údolní\u001b[2J', house_number: '5', city_name: 'Brno', postal_code: '60200', country_code: 'CZ' },
      label_comment: 'fragile\r\nthis side up\tplease',
    });
    const res = await a.request('POST', '/v1/shipments', body);
    expect(res.statusCode, res.body).toBe(422);
    const errors = envelopeOf(res).errors!;
    expect(Object.keys(errors).sort()).toEqual([
      'destination_address.street_name', 'recipient_contact.email_address', 'recipient_contact.last_name', 'reference_number',
    ]);
    expect(errors.reference_number).toEqual(['must not contain control characters']);
  });

  it('bounds weights, dimensions and money to what can be stored exactly', async () => {
    const res = await a.request('POST', '/v1/shipments', shipmentBody(channelId, {
      parcels: [{ weight_amount: 1e308, length_dimension: 1e308, width_dimension: 20, height_dimension: 10 }],
      cash_on_delivery_amount: 12345678901234567890, cash_on_delivery_currency: 'CZK',
    }));
    expect(res.statusCode, res.body).toBe(422);
    expect(Object.keys(envelopeOf(res).errors!).sort()).toEqual(['cash_on_delivery_amount', 'parcels.0.length_dimension', 'parcels.0.weight_amount']);
    const openapi = (await d.app.inject({ method: 'GET', url: '/v1/openapi.json' })).body;
    expect(openapi).toMatch(/"maximum":1000000/);
  });
});
