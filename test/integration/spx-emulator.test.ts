import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulators, type RunningEmulators } from '../../src/carriers/emulator/server.js';

/** What the SP Express emulator refuses, the way SP Express refuses it (sp-express/php-sdk error codes). */
describe('the SP Express emulator', () => {
  let emu: RunningEmulators;
  const { request } = JSON.parse(readFileSync(new URL('../../src/carriers/spx/fixtures/create-request.plain.json', import.meta.url), 'utf8'));
  const post = (path: string, body: unknown, auth = 'shop-1:spx-key') => fetch(`${emu.urls.spx}${path}`, {
    method: 'POST', body: JSON.stringify(body),
    headers: { 'content-type': 'application/json', authorization: `Basic ${Buffer.from(auth).toString('base64')}` },
  });
  const held = async () => ((await (await fetch(`${emu.url}/_emulator/spx/shipments`)).json()) as { shipments: unknown[] }).shipments;

  beforeAll(async () => {
    emu = await startEmulators({ providers: ['spx'], port: 0 });
  });
  afterAll(() => emu.close());

  it('creates an order from the documented request, one package id and base64 PDF label per package', async () => {
    const res = await post('/V1/courier/create-pre-routing', request);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { result: string; response: { packages: { package_id: string; labels: string[] }[] } };
    expect(body.result).toBe('OK');
    expect(body.response.packages[0]!.package_id).toMatch(/^\d{15}$/);
    expect(Buffer.from(body.response.packages[0]!.labels[0]!, 'base64').subarray(0, 5).toString()).toBe('%PDF-');
  });

  it('refuses a misspelt field with its validation error and stores nothing', async () => {
    const before = (await held()).length;
    const { weight, ...rest } = request.package;
    const res = await post('/V1/courier/create-pre-routing', { ...request, package: { ...rest, weigth: weight } });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ result: 'FAIL', error: { error_code: 1101, details: { weigth: ['Unknown parameter.'] } } });
    expect(await held()).toHaveLength(before);
  });

  it('refuses credentials starting with "bad" with 401 and a Basic challenge', async () => {
    const res = await post('/V1/track/courier', { ids: [] }, 'shop-1:bad-key');
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(/^Basic/);
  });
});
