import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulators, type RunningEmulators } from '../../src/carriers/emulator/server.js';
import { findProvider } from '../../src/carriers/registry.js';
import { shippingChannels } from '../../src/store/schema.js';
import { startTestDaemon, type TestAccount, type TestDaemon } from '../helpers/harness.js';

// a closed local port: nothing leaves the machine, and a channel that passes the checks waits for validation
const NOWHERE = 'http://127.0.0.1:9';
const demoSettings = (code: string) => ({ ...findProvider(code)!.demo.settings, baseUrl: NOWHERE });

/** Settings the carrier would refuse at the first shipment are refused when the channel is made or changed. */
describe('channel settings in the carrier\'s formats', () => {
  let d: TestDaemon;
  let emu: RunningEmulators;
  let a: TestAccount;
  const createChannel = (name: string, provider: string, settings: Record<string, unknown>) =>
    a.request('POST', '/v1/shipping-channels', { name, provider, settings });

  beforeAll(async () => {
    d = await startTestDaemon({ carrierTimeoutMs: 1500 });
    emu = await startEmulators({ providers: ['dhl'], port: 0, clock: d.clock });
    a = await d.account('Formats');
  });
  afterAll(async () => {
    await d?.close();
    await emu?.close();
  });

  it('shows each setting\'s format in GET /v1/providers', async () => {
    const providers = (await a.request('GET', '/v1/providers')).json().data as { code: string; settings: Record<string, unknown>[] }[];
    const setting = (code: string, key: string) => providers.find((p) => p.code === code)!.settings.find((s) => s.key === key);
    expect(setting('dhl', 'accountNumber')).toMatchObject({ pattern: '^\\d{9,12}$', pattern_description: '9 to 12 digits' });
    expect(setting('dhl', 'contentDescription')).toMatchObject({ min_length: 1, max_length: 70 });
    expect(setting('dpd_pl', 'masterFid')).toMatchObject({ minimum: 1, maximum: 2147483647 });
    expect(setting('dhl_pl', 'sapNumber')).toMatchObject({ pattern: '^\\d{1,7}$' });
  });

  it('refuses a new channel whose settings the carrier\'s schema would refuse, naming each settings.<key>', async () => {
    // DHL's own schema refuses this account at the first shipment (#/accounts/0/number: expected maxLength: 12)
    const dhl = await createChannel('DHL demo', 'dhl', { ...demoSettings('dhl'), accountNumber: 'demo-accountNumber', contentDescription: 'x'.repeat(71) });
    expect(dhl.statusCode, dhl.body).toBe(422);
    expect(dhl.json().errors).toEqual({
      'settings.accountNumber': ['must be 9 to 12 digits'],
      'settings.contentDescription': ['must be at most 70 characters'],
    });
    const dhlPl = await createChannel('DHL PL', 'dhl_pl', { ...demoSettings('dhl_pl'), sapNumber: 'SAP-1234567', parcelContent: '' });
    expect(dhlPl.statusCode, dhlPl.body).toBe(422);
    expect(dhlPl.json().errors).toEqual({ 'settings.sapNumber': ['must be up to 7 digits'], 'settings.parcelContent': ['must be at least 1 character'] });
    const dpdPl = await createChannel('DPD PL', 'dpd_pl', { ...demoSettings('dpd_pl'), masterFid: -1495 });
    expect(dpdPl.statusCode, dpdPl.body).toBe(422);
    expect(dpdPl.json().errors).toEqual({ 'settings.masterFid': ['must be at least 1'] });
    const poste = await createChannel('Poste', 'poste_italiane', { ...demoSettings('poste_italiane'), costCenterCode: 'CDC-000733520000000000' });
    expect(poste.statusCode, poste.body).toBe(422);
    expect(poste.json().errors).toEqual({ 'settings.costCenterCode': ['must be at most 20 characters'] });
    const listed = await a.request('GET', '/v1/shipping-channels');
    expect(listed.json().data).toEqual([]);
  });

  it('refuses a change to a malformed value and keeps the stored settings', async () => {
    const created = await createChannel('DHL to change', 'dhl', demoSettings('dhl'));
    expect(created.statusCode, created.body).toBe(201);
    const id: string = created.json().data.id;
    const changed = await a.request('PATCH', `/v1/shipping-channels/${id}`, { settings: { accountNumber: '12345' } });
    expect(changed.statusCode, changed.body).toBe(422);
    expect(changed.json().errors).toEqual({ 'settings.accountNumber': ['must be 9 to 12 digits'] });
    const row = (await d.ctx.db.select().from(shippingChannels).where(eq(shippingChannels.id, id)).get())!;
    expect(d.ctx.secrets.openJson(row.settingsEnc)).toEqual(demoSettings('dhl'));

    const fid = (await createChannel('DPD PL to change', 'dpd_pl', demoSettings('dpd_pl'))).json().data.id as string;
    const tooLarge = await a.request('PATCH', `/v1/shipping-channels/${fid}`, { settings: { masterFid: 2 ** 31 } });
    expect(tooLarge.statusCode, tooLarge.body).toBe(422);
    expect(tooLarge.json().errors).toEqual({ 'settings.masterFid': ['must be at most 2147483647'] });
  });

  it('validates a DHL Express channel with its account: one DHL does not know turns it to error with DHL\'s reason, a known one to active', async () => {
    const settings = { ...findProvider('dhl')!.demo.settings, baseUrl: emu.urls.dhl, accountNumber: '000000000' };
    const refused = await createChannel('DHL unknown account', 'dhl', settings);
    expect(refused.statusCode, refused.body).toBe(201);
    expect(refused.json().data.status).toBe('error');
    expect(refused.json().data.validation_error).toEqual({
      message: 'DHL Express refused the account number: The account number is not found or invalid. Please check the account number and retry.',
      errors: { 'settings.accountNumber': ['refused by DHL Express: The account number is not found or invalid. Please check the account number and retry.'] },
    });

    const fixed = await a.request('PATCH', `/v1/shipping-channels/${refused.json().data.id}`, { settings: { accountNumber: '123456789' } });
    expect(fixed.statusCode, fixed.body).toBe(200);
    expect(fixed.json().data).toMatchObject({ status: 'active', validation_error: null });
  });
});
