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
import { findProvider } from '../../src/carriers/registry.js';
import { launchChromium, signedInDesk } from '../helpers/browser.js';
import { decodePdfBarcodes } from '../helpers/barcodes.js';
import { nextWorkingDay } from '../helpers/dispatch-adapter.js';
import { ippSkipReason, startIppPrinter, type IppPrinter } from '../helpers/ipp-server.js';
import { parcelsOf, shipmentBody } from '../helpers/shipments.js';

const WAIT = { timeout: 15_000 };
/** Time for the hand-over to run and its protocol to reach the printer. */
const HAND_OVER = { timeout: 30_000 };
const SCREENSHOTS = fileURLToPath(new URL('../.generated/desk-screenshots/', import.meta.url));
const STATION = 'desk-eod';

type Json = Record<string, unknown>;

const noIpp = ippSkipReason();
describe.skipIf(Boolean(noIpp))(noIpp ? `the end of the day on the desk (skipped: ${noIpp})` : 'the end of the day on the desk: close the channel, the protocol prints on the IPP printer', () => {
  let dataDir: string;
  let emu: RunningEmulators;
  let ipp: IppPrinter;
  let daemon: RunningDaemon;
  let browser: Browser;
  let page: Page;
  let key: string;
  let readOnlyKey: string;
  let channelId: string;

  const url = (path = '/') => `${daemon.url}${path}`;
  const api = async (method: string, path: string, body?: unknown, as = key) => {
    const res = await fetch(url(path), { method, headers: { authorization: `Bearer ${as}`, ...(body ? { 'content-type': 'application/json' } : {}) }, body: body ? JSON.stringify(body) : undefined });
    const json = await res.json().catch(() => null) as { data: Json & Json[] } | null;
    expect(res.status, `${method} ${path}: ${JSON.stringify(json)}`).toBeLessThan(300);
    return json!.data;
  };
  /** A shipment the carrier created, as the packer left it on the ship screen. */
  const shipped = async (reference: string, overrides: Json = {}) => {
    const made = await api('POST', '/v1/shipments', shipmentBody(channelId, { reference_number: reference, ...overrides }));
    const created = await api('GET', `/v1/shipments/${made.id}?wait=30`) as unknown as { status: string; parcels: { tracking_number: string }[] };
    expect(created.status).toBe('created');
    return created.parcels.map((p) => p.tracking_number);
  };
  const signIn = async (as: string, viewer: Browser) => signedInDesk(viewer, String((await api('POST', '/v1/desk/login-links', undefined, as)).url));

  beforeAll(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    dataDir = mkdtempSync(join(tmpdir(), 'packdesk-eod-'));
    const setup = openContext({ dataDir, log: pino({ level: 'silent' }) });
    const account = await createAccount(setup, { name: 'Sklad Brno', plan: 'enterprise' });
    key = (await createApiKey(setup, { accountId: account.id })).apiKey;
    readOnlyKey = (await createApiKey(setup, { accountId: account.id, scope: 'read_only' })).apiKey;
    await closeContext(setup);
    emu = await startEmulators({ providers: ['ppl', 'dpd_pl'], port: 0 });
    ipp = await startIppPrinter();
    daemon = await startDaemon({ dataDir, host: '127.0.0.1', port: 0, station: STATION, log: pino({ level: 'silent' }), desk: { printerCheckMs: 600_000 } });
    channelId = (await api('POST', '/v1/shipping-channels', {
      name: 'PPL evening', provider: 'ppl', settings: { clientId: 'desk', clientSecret: 'desk-secret', baseUrl: emu.urls.ppl },
    })).id as string;
    const office = (await api('POST', '/v1/printers', { name: 'Office IPP', uri: ipp.uri, formats: ['pdf'] })).id as string;
    await api('PUT', `/v1/stations/${STATION}/settings`, { printers: { pdf: office } });
    browser = await launchChromium();
    page = await signIn(key, browser);
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await daemon?.close();
    await ipp?.close();
    await emu?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('created PPL shipments → End of day → Close and print protocol: dispatched, and the IPP printer gets a PDF whose barcodes are every parcel', async () => {
    const numbers = [...await shipped('EOD-1'), ...await shipped('EOD-2', { parcels: parcelsOf(2), cash_on_delivery_amount: 1249.9, cash_on_delivery_currency: 'CZK' })];
    await page.click('header nav a[href="#/end-of-day"]');
    const card = page.locator(`.channel-close[data-channel="${channelId}"]`);
    await card.locator('[data-name="waiting"]').waitFor(WAIT);
    expect(await card.locator('h2').textContent()).toBe('PPL evening ppl');
    // the parcels are counted once the waiting shipments are read
    await expect.poll(() => card.locator('[data-name="waiting"]').textContent(), WAIT).toBe('Waiting: shipments 2, parcels 3');
    expect(await card.locator('[data-name="cod"]').textContent()).toMatch(/^Cash on delivery 1,249\.90 CZK$/);
    await expect.poll(() => card.locator('table.waiting tbody tr').count(), WAIT).toBe(2);
    // PPL books a courier through its API: the desk offers the pickup, left off
    expect(await card.locator('input[name="order_pickup"]').isChecked()).toBe(false);

    await card.locator('button[name="close_day"]').click();
    await card.locator('.dispatch-result[data-status="dispatched"]').waitFor(HAND_OVER);
    expect(await card.locator('.dispatch-result .done').textContent()).toBe('Handed over: shipments 2, parcels 3.');
    const printed = card.locator('.print-status[data-state="printed"]');
    await printed.waitFor(HAND_OVER);
    expect(await printed.textContent()).toBe('Printed on Office IPP');

    const [job] = ipp.jobs();
    expect(ipp.jobs()).toHaveLength(1);
    expect(job!.attributes.CONTENT_TYPE).toBe('application/pdf');
    expect((await decodePdfBarcodes(job!.content)).flat().sort()).toEqual([...numbers].sort());
    const dispatchId = await card.locator('.dispatch-result').getAttribute('data-dispatch');
    expect(await card.locator('a[data-name="document"]').getAttribute('href')).toBe(`/v1/dispatches/${dispatchId}/document`);
    // nothing waits any more; the dispatch is in the past ones with its protocol
    await page.locator(`.past-dispatches tr[data-dispatch="${dispatchId}"][data-status="dispatched"]`).waitFor(WAIT);
    expect(await card.locator('[data-name="waiting"]').count()).toBe(0);
    await page.screenshot({ path: join(SCREENSHOTS, 'end-of-day.png'), fullPage: true });
  }, 60_000);

  it('Order pickup at DPD Poland offers the day’s courier windows; the one picked is booked', async () => {
    const dpd = findProvider('dpd_pl')!;
    const dpdChannel = (await api('POST', '/v1/shipping-channels', { name: 'DPD PL', provider: 'dpd_pl', settings: { ...dpd.demo.settings, baseUrl: emu.urls.dpd_pl } })).id as string;
    const { cash_on_delivery_currency: _currency, ...parties } = dpd.demo.shipment;
    const made = await api('POST', '/v1/shipments', { ...parties, shipping_channel_id: dpdChannel, label_format: 'pdf', parcels: parcelsOf(1) });
    expect((await api('GET', `/v1/shipments/${made.id}?wait=30`)).status).toBe('created');
    const day = nextWorkingDay();
    const offered = (await api('GET', `/v1/dispatches/pickup-windows?shipping_channel_id=${dpdChannel}&date=${day}`) as unknown as { windows: { from: string; to: string }[] }).windows;
    expect(offered.length).toBeGreaterThan(0);

    // the desk reads its channels when it opens: the one just made needs a fresh page
    await page.goto(url('/#/end-of-day'));
    await page.reload();
    const card = page.locator(`.channel-close[data-channel="${dpdChannel}"]`);
    await card.locator('[data-name="waiting"]').waitFor(WAIT);
    await card.locator('input[name="order_pickup"]').check();
    await card.locator('input[name="pickup_date"]').fill(day);
    const choices = card.locator('button[name="pickup_window"]');
    await expect.poll(() => choices.count(), WAIT).toBe(offered.length);
    const last = offered.at(-1)!;
    await card.locator(`button[name="pickup_window"][data-window="${last.from}-${last.to}"]`).click();
    expect(await card.locator('input[name="pickup_from"]').inputValue()).toBe(last.from);
    expect(await card.locator('input[name="pickup_to"]').inputValue()).toBe(last.to);
    await page.screenshot({ path: join(SCREENSHOTS, 'end-of-day-pickup-windows.png'), fullPage: true });

    await card.locator('button[name="close_day"]').click();
    await card.locator('.dispatch-result[data-status="dispatched"]').waitFor(HAND_OVER);
    expect(await card.locator('.dispatch-result [data-name="pickup"]').textContent()).toMatch(new RegExp(`^Courier booked for ${day}, ${last.from}–${last.to} \\(confirmation \\d+\\)\\.$`));
  }, 60_000);

  it('a read-only session sees what waits, but cannot close the day', async () => {
    await shipped('EOD-3');
    const viewer = await signIn(readOnlyKey, browser);
    await viewer.goto(url('/#/end-of-day'));
    const card = viewer.locator(`.channel-close[data-channel="${channelId}"]`);
    await card.locator('[data-name="waiting"]').waitFor(WAIT);
    // the parcels are counted once the waiting shipments are read
    await expect.poll(() => card.locator('[data-name="waiting"]').textContent(), WAIT).toBe('Waiting: shipments 1, parcels 1');
    expect(await card.locator('button[name="close_day"]').isDisabled()).toBe(true);
    await viewer.screenshot({ path: join(SCREENSHOTS, 'end-of-day-read-only.png'), fullPage: true });
    await viewer.context().close();
  });
});
