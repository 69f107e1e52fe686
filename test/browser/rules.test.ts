import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pino from 'pino';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDaemon, type RunningDaemon } from '../../daemon/main.js';
import { startEmulators, type RunningEmulators } from '../../src/carriers/emulator/server.js';
import { createAccount, createApiKey } from '../../src/services/accounts.js';
import { closeContext, openContext } from '../../src/services/open.js';
import { launchChromium, signedInDesk } from '../helpers/browser.js';
import { shipmentBody } from '../helpers/shipments.js';

const WAIT = { timeout: 15_000 };
const SCREENSHOTS = fileURLToPath(new URL('../.generated/desk-screenshots/', import.meta.url));

type Json = Record<string, unknown>;

describe('shipping rules on the desk: add them, order them, and see which one chose a shipment\'s channel', () => {
  let dataDir: string;
  let emu: RunningEmulators;
  let daemon: RunningDaemon;
  let browser: Browser;
  let page: Page;
  let key: string;
  const channels = { home: '', heavy: '' };

  const api = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${daemon.url}${path}`, { method, headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) }, body: body ? JSON.stringify(body) : undefined });
    const json = await res.json().catch(() => null) as { data: Json & Json[] } | null;
    expect(res.status, `${method} ${path}: ${JSON.stringify(json)}`).toBeLessThan(300);
    return json!.data;
  };
  /** The rules as the page lists them: name, on or off, conditions and action in words. */
  const listed = () => page.locator('main.rules tbody tr').evaluateAll((rows) => rows.map((row) => [...row.querySelectorAll('td')].slice(1, 5).map((td) => td.textContent?.trim())));

  beforeAll(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    dataDir = mkdtempSync(join(tmpdir(), 'packdesk-rules-'));
    const setup = openContext({ dataDir, log: pino({ level: 'silent' }) });
    key = (await createApiKey(setup, { accountId: (await createAccount(setup, { name: 'Sklad Brno', plan: 'enterprise' })).id })).apiKey;
    await closeContext(setup);
    emu = await startEmulators({ providers: ['ppl'], port: 0 });
    daemon = await startDaemon({ dataDir, host: '127.0.0.1', port: 0, log: pino({ level: 'silent' }), desk: { printerCheckMs: 600_000 } });
    for (const name of ['home', 'heavy'] as const) {
      channels[name] = (await api('POST', '/v1/shipping-channels', {
        name: `PPL ${name}`, provider: 'ppl', settings: { clientId: 'desk', clientSecret: 'desk-secret', baseUrl: emu.urls.ppl },
      })).id as string;
    }
    browser = await launchChromium();
    page = await signedInDesk(browser, String((await api('POST', '/v1/desk/login-links')).url));
    page.on('dialog', (dialog) => void dialog.accept());
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await daemon?.close();
    await emu?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('Rules → add a default and a heavy-parcel rule, move the heavy one first: a shipment of 24 kg without a channel says the heavy rule chose', async () => {
    await page.click('header nav a[href="#/rules"]');
    await expect.poll(() => page.locator('main.rules').textContent(), WAIT).toContain('No rules yet');

    await page.fill('form.add-rule [name="name"]', 'Default');
    await page.selectOption('form.add-rule [name="channel"]', channels.home);
    await page.click('form.add-rule button[type="submit"]');
    await expect.poll(listed, WAIT).toEqual([['Default', 'On', 'Every shipment (default)', 'Use PPL home']]);
    // the form is empty again for the next rule
    expect(await page.inputValue('form.add-rule [name="name"]')).toBe('');

    // a country the API does not know and a weight that is no number are refused on their fields, and nothing is added
    await page.fill('form.add-rule [name="name"]', 'Heavy');
    await page.fill('form.add-rule [name="countries"]', 'xx');
    await page.fill('form.add-rule [name="min_weight"]', 'twenty');
    await page.selectOption('form.add-rule [name="action"]', 'cheapest');
    await page.check(`form.add-rule input[name="channels"][value="${channels.heavy}"]`);
    await page.click('form.add-rule button[type="submit"]');
    await expect.poll(() => page.locator('form.add-rule [data-field="conditions.destination_countries"] .error').textContent(), WAIT)
      .toBe('must be an ISO 3166-1 alpha-2 country code');
    expect(await page.locator('form.add-rule [data-field="conditions.weight_kg"] .error').textContent()).toMatch(/number/);
    expect(await listed()).toHaveLength(1);

    await page.fill('form.add-rule [name="countries"]', 'cz, sk');
    await page.fill('form.add-rule [name="min_weight"]', '20');
    await page.selectOption('form.add-rule [name="cod"]', 'no');
    await page.click('form.add-rule button[type="submit"]');
    await expect.poll(listed, WAIT).toEqual([
      ['Default', 'On', 'Every shipment (default)', 'Use PPL home'],
      ['Heavy', 'On', 'To CZ, SK; Weight 20 kg or more; Without cash on delivery', 'Cheapest of PPL heavy'],
    ]);

    await page.click('main.rules tr[data-rule-name="Heavy"] button[name="up"]');
    await expect.poll(async () => (await listed()).map((r) => r[0]), WAIT).toEqual(['Heavy', 'Default']);
    expect(await page.locator('main.rules tr[data-rule-name="Heavy"] td').first().textContent()).toBe('1');
    expect(await page.locator('main.rules tr[data-rule-name="Heavy"] button[name="up"]').isDisabled()).toBe(true);
    await page.screenshot({ path: join(SCREENSHOTS, 'rules.png'), fullPage: true });

    // priced by its price list, the heavy channel is the cheapest (and only) one its rule may choose
    await api('PATCH', `/v1/shipping-channels/${channels.heavy}`, {
      price_list: { currency: 'CZK', zones: [{ name: 'home', countries: ['CZ', 'SK'] }], bands: [{ max_weight_kg: 31.5, prices: { home: 189 } }] },
    });
    const { shipping_channel_id: _none, ...body } = shipmentBody(channels.home, { reference_number: 'RULES-1', parcels: [{ weight_amount: 24, length_dimension: 60, width_dimension: 40, height_dimension: 40 }] });
    const made = await api('POST', '/v1/shipments', body);
    expect(made).toMatchObject({ shipping_channel_id: channels.heavy, chosen_by: { name: 'Heavy', reason: expect.stringContaining('189') } });
    await page.goto(`${daemon.url}/#/shipments/${made.id}`);
    const chosenBy = page.locator('[data-name="chosen-by"]');
    await chosenBy.waitFor(WAIT);
    expect(await chosenBy.textContent()).toBe(`Channel chosen by rule Heavy: ${(made.chosen_by as { reason: string }).reason}`);

    // switched off it stays listed as Off; deleted, it is gone
    await page.goto(`${daemon.url}/#/rules`);
    await page.click('main.rules tr[data-rule-name="Heavy"] button[name="disable"]');
    await expect.poll(async () => (await listed())[0]?.[1], WAIT).toBe('Off');
    await page.click('main.rules tr[data-rule-name="Heavy"] button[name="delete"]');
    await expect.poll(async () => (await listed()).map((r) => r[0]), WAIT).toEqual(['Default']);
  }, 60_000);

  it('the ship screen leaves the channel to the rules: a scanned order weighed at 24 kg ships with the heavy rule\'s channel, and the result says so', async () => {
    await api('POST', '/v1/shipping-rules', { name: 'Heavy', position: 1, conditions: { weight_kg: { min: 20 } }, action: { type: 'use_channel', shipping_channel_id: channels.heavy } });
    // the order comes measured, not weighed: the packer weighs it
    const { shipping_channel_id: _none, ...order } = shipmentBody(channels.home, { reference_number: 'RULES-2', parcels: [{ length_dimension: 60, width_dimension: 40, height_dimension: 40 }] });
    await api('POST', '/v1/orders', order);

    await page.goto(`${daemon.url}/#/ship`);
    await page.reload();
    await page.fill('input[name="reference_number"]', 'RULES-2');
    await page.press('input[name="reference_number"]', 'Enter');
    await page.locator('[name="parcels.0.weight_amount"]').waitFor(WAIT);
    expect(await page.inputValue('select[name="shipping_channel_id"]')).toBe('rules');
    expect(await page.locator('select[name="shipping_channel_id"] option:checked').textContent()).toBe('By the shipping rules');
    await page.fill('[name="parcels.0.weight_amount"]', '24');
    // compared, the channel the rules would choose is the one marked
    await page.click('button[name="quote"]');
    await expect.poll(() => page.locator('table.quotes tr.chosen').getAttribute('data-channel'), WAIT).toBe(channels.heavy);
    await page.press('[name="parcels.0.weight_amount"]', 'Enter');
    const chosenBy = page.locator('.result [data-name="chosen-by"]');
    await chosenBy.waitFor(WAIT);
    expect(await chosenBy.textContent()).toBe('Channel chosen by rule Heavy: ships with PPL heavy');
    const [shipped] = await api('GET', '/v1/shipments?search=RULES-2') as unknown as { id: string }[];
    expect(await api('GET', `/v1/shipments/${shipped!.id}`)).toMatchObject({ shipping_channel_id: channels.heavy, chosen_by: { name: 'Heavy' } });
  }, 60_000);

  it("keeps the header with the Rules link on one line on a 1024 px tablet, in each of the desk's languages", async () => {
    await page.setViewportSize({ width: 1024, height: 600 });
    for (const language of ['en', 'cs', 'pl']) {
      await page.selectOption('header select[aria-label="Language"]', language);
      const navTop = async (href: string) => (await page.locator(`header nav a[href="${href}"]`).boundingBox())!.y;
      const signOut = (await page.locator('header button').last().boundingBox())!;
      expect([await navTop('#/rules'), signOut.y < 30], language).toEqual([await navTop('#/ship'), true]);
      // the link is whole: the account's name, not the links, gives way
      const rules = (await page.locator('header nav a[href="#/rules"]').boundingBox())!;
      expect(rules.x + rules.width, language).toBeLessThanOrEqual((await page.locator('header .account').boundingBox())!.x);
      await page.screenshot({ path: join(SCREENSHOTS, `header-1024-${language}.png`), clip: { x: 0, y: 0, width: 1024, height: 60 } });
    }
    await page.selectOption('header select[aria-label="Language"]', 'en');
  });
});
