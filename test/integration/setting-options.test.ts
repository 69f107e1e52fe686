import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulators, type RunningEmulators } from '../../src/carriers/emulator/server.js';
import { startTestDaemon, type TestAccount, type TestDaemon } from '../helpers/harness.js';

/** Settings whose values the carrier lists for the credentials (Baselinker's couriers), offered before the channel exists. */
describe('setting options the carrier lists', () => {
  let d: TestDaemon;
  let emu: RunningEmulators;
  let a: TestAccount;
  const TOKEN = 'bl-token-options-77';
  const ask = (provider: string, body: unknown) => a.request('POST', `/v1/providers/${provider}/setting-options`, body);

  beforeAll(async () => {
    d = await startTestDaemon({ carrierTimeoutMs: 1500 });
    emu = await startEmulators({ providers: ['baselinker'], port: 0, clock: d.clock });
    a = await d.account('Base shop');
  });
  afterAll(async () => {
    await d?.close();
    await emu?.close();
  });

  it('marks the listed settings in the provider schema', async () => {
    const baselinker = (await a.request('GET', '/v1/providers')).json().data.find((p: { code: string }) => p.code === 'baselinker');
    const listed = baselinker.settings.filter((s: { listed?: boolean }) => s.listed).map((s: { key: string }) => s.key);
    expect(listed).toEqual(expect.arrayContaining(['courierCode', 'accountId']));
    expect(listed).not.toContain('apiToken');
  });

  it("lists the couriers for a token, then the chosen courier's accounts", async () => {
    const couriers = await ask('baselinker', { key: 'courierCode', settings: { apiToken: TOKEN, baseUrl: emu.urls.baselinker } });
    expect(couriers.statusCode, couriers.body).toBe(200);
    const courier = (couriers.json().data as { value: string; name: string }[])[0]!;
    expect(courier.value).toMatch(/\S/);
    expect(courier.name).toMatch(/\S/);
    const accounts = await ask('baselinker', { key: 'accountId', settings: { apiToken: TOKEN, courierCode: courier.value, baseUrl: emu.urls.baselinker } });
    expect(accounts.statusCode, accounts.body).toBe(200);
    expect(accounts.json().data.length).toBeGreaterThan(0);
  });

  it('answers 422 for a setting the carrier does not list, an unknown provider or key types, and a refused token', async () => {
    const notListed = await ask('baselinker', { key: 'apiToken', settings: { apiToken: TOKEN } });
    expect(notListed.statusCode).toBe(422);
    expect(notListed.json().errors.key[0]).toContain('courierCode');
    expect((await ask('nowhere', { key: 'courierCode', settings: {} })).json().errors).toHaveProperty('provider');
    const wrongType = await ask('baselinker', { key: 'courierCode', settings: { apiToken: 42 } });
    expect(wrongType.statusCode).toBe(422);
    expect(wrongType.json().errors).toHaveProperty(['settings.apiToken']);
    const refused = await ask('baselinker', { key: 'courierCode', settings: { apiToken: 'bad-token-value', baseUrl: emu.urls.baselinker } });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().message).toContain('Baselinker');
    expect(refused.body).not.toContain('bad-token-value');
  });
});
