import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pino from 'pino';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDaemon, type RunningDaemon } from '../../daemon/main.js';
import { startEmulators, type RunningEmulators } from '../../src/carriers/emulator/server.js';
import { createAccount, createApiKey } from '../../src/services/accounts.js';
import { closeContext, openContext } from '../../src/services/open.js';
import { decodeZplBarcodes } from '../helpers/barcodes.js';
import { launchChromium } from '../helpers/browser.js';
import { csvText, orderRow, readCsvFile } from '../helpers/order-files.js';
import { pplEmulatorControl } from '../helpers/shipments.js';
import { startZebra, type ZebraPrinter } from '../helpers/zebra.js';

/** Pictures of the main screens, for people reviewing a change (git-ignored). */
/** How long the page may take to show what a step did (a label's first pictures start the conversion thread). */
const WAIT = { timeout: 15_000 };
const SCREENSHOTS = fileURLToPath(new URL('../.generated/desk-screenshots/', import.meta.url));

interface Keys { full: string; readOnly: string; other: string }

describe('the packing desk in a browser', () => {
  let dataDir: string;
  /** Where the ERP's watched folder lies: a files root of the daemon, apart from its data directory. */
  let erpDir: string;
  let channelId: string;
  let emu: RunningEmulators;
  let zebra: ZebraPrinter;
  let daemon: RunningDaemon;
  let port: number;
  let browser: Browser;
  let desk: BrowserContext;
  let page: Page;
  let keys: Keys;
  let shipmentId: string;
  let trackingNumbers: string[];
  /** What the page asked with confirm(), and whether the person says yes. */
  const asked: string[] = [];
  let confirming = true;

  const start = async () => {
    daemon = await startDaemon({ dataDir, host: '127.0.0.1', port, log: pino({ level: 'silent' }), desk: { printerCheckMs: 300 }, filesRoots: [erpDir] });
    port = Number(new URL(daemon.url).port);
  };
  const url = (path = '/') => `http://127.0.0.1:${port}${path}`;
  const api = async (key: string, method: string, path: string, body?: unknown) => {
    const res = await fetch(url(path), { method, headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) }, body: body ? JSON.stringify(body) : undefined });
    return { status: res.status, body: await res.json().catch(() => null) as { data: Record<string, unknown> & { id: string } } };
  };
  const shoot = (name: string) => page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });
  const fill = async (fields: Record<string, string>) => {
    for (const [name, value] of Object.entries(fields)) await page.fill(`[name="${name}"]`, value);
  };
  const focused = () => page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.name);

  beforeAll(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    dataDir = mkdtempSync(join(tmpdir(), 'packdesk-desk-'));
    erpDir = mkdtempSync(join(tmpdir(), 'packdesk-desk-erp-'));
    const setup = openContext({ dataDir, log: pino({ level: 'silent' }) });
    const account = await createAccount(setup, { name: 'Sklad Brno', plan: 'enterprise' });
    const another = await createAccount(setup, { name: 'Another shop', plan: 'enterprise' });
    keys = {
      full: (await createApiKey(setup, { accountId: account.id })).apiKey,
      readOnly: (await createApiKey(setup, { accountId: account.id, scope: 'read_only' })).apiKey,
      other: (await createApiKey(setup, { accountId: another.id })).apiKey,
    };
    await closeContext(setup);
    emu = await startEmulators({ providers: ['ppl'], port: 0 });
    zebra = await startZebra();
    port = 0;
    await start();
    const channel = await api(keys.full, 'POST', '/v1/shipping-channels', {
      name: 'PPL', provider: 'ppl', settings: { clientId: 'desk', clientSecret: 'desk-secret', baseUrl: emu.urls.ppl },
    });
    expect(channel.body.data.status).toBe('active');
    channelId = channel.body.data.id;
    const printer = await api(keys.full, 'POST', '/v1/printers', { name: 'Zebra at the desk', uri: zebra.uri, formats: ['zpl'], default_for: ['zpl'] });
    expect(printer.status, JSON.stringify(printer.body)).toBe(201);
    // the sender and pickup address every station of the account ships from
    const settings = await api(keys.full, 'PUT', '/v1/station-settings', {
      sender_contact: { company_name: 'Sklad Brno s.r.o.', email_address: 'sklad@example.cz', phone_number: '+420601111222' },
      origin_address: { street_name: 'Skladová', house_number: '12', city_name: 'Praha', postal_code: '11000', country_code: 'CZ' },
    });
    expect(settings.status, JSON.stringify(settings.body)).toBe(200);
    browser = await launchChromium();
    desk = await browser.newContext({ viewport: { width: 1280, height: 720 }, locale: 'en-GB' });
    page = await desk.newPage();
    page.on('dialog', (dialog) => {
      asked.push(dialog.message());
      void (confirming ? dialog.accept() : dialog.dismiss());
    });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await daemon?.close();
    await zebra?.stop();
    await emu?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    if (erpDir) rmSync(erpDir, { recursive: true, force: true });
  });

  it('signs in with an API key once: a wrong key is refused on the form, the right one leaves only an HttpOnly session cookie', async () => {
    await page.goto(url());
    await page.fill('input[name="api_key"]', 'pdk_live_wrongwrongwrongwrongwrongwrong12');
    await page.click('button[type="submit"]');
    await expect.poll(() => page.locator('.sign-in .error').textContent(), WAIT).toContain('Invalid or missing API key');
    await shoot('sign-in');
    await page.fill('input[name="api_key"]', keys.full);
    await page.click('button[type="submit"]');
    await page.waitForSelector('header nav');
    expect(await page.locator('.account').textContent()).toBe('Sklad Brno');
    const [cookie] = await desk.cookies();
    expect(cookie).toMatchObject({ name: `packdesk_session_${port}`, httpOnly: true, sameSite: 'Strict' });
    expect(cookie!.value).not.toContain(keys.full);
    expect(await page.evaluate(() => document.cookie)).toBe('');
  });

  it('ships a 2-parcel COD order: the API\'s field messages beside the inputs, progress, the label preview, then Print sends the bytes once', async () => {
    await page.goto(url('/#/ship'));
    await page.waitForSelector('select[name="shipping_channel_id"] option', { state: 'attached' });
    // a reference nobody sent yet: the recipient's fields open for typing, the sender is the station's
    await page.fill('input[name="reference_number"]', 'DESK-1001');
    await page.press('input[name="reference_number"]', 'Enter');
    await expect.poll(focused, WAIT).toBe('recipient_contact.first_name');
    await fill({
      'recipient_contact.first_name': 'Řehoř', 'recipient_contact.last_name': 'Šťastný',
      'recipient_contact.email_address': 'rehor@example.cz', 'recipient_contact.phone_number': '12',
      'destination_address.street_name': 'Údolní', 'destination_address.house_number': '5', 'destination_address.city_name': 'Brno',
      'destination_address.postal_code': '60200', 'destination_address.country_code': 'CZ',
      cash_on_delivery_amount: '1 249,90', cash_on_delivery_currency: 'CZK',
      'parcels.0.weight_amount': '2,4', 'parcels.0.length_dimension': '30', 'parcels.0.width_dimension': '20', 'parcels.0.height_dimension': '10',
      parcel_count: '2',
    });
    await fill({ 'parcels.1.weight_amount': '-1', 'parcels.1.length_dimension': '40', 'parcels.1.width_dimension': '30', 'parcels.1.height_dimension': '20' });
    await page.selectOption('select[name="label_format"]', 'zpl');
    await page.click('button[name="ship"]');
    // the 422's field paths land on their inputs
    const phoneError = page.locator('[data-field="recipient_contact.phone_number"] .error');
    await phoneError.waitFor();
    expect(await phoneError.textContent()).toMatch(/international|\+/i);
    expect(await page.locator('[data-field="parcels.1.weight_amount"] .error').textContent()).toBeTruthy();
    expect(await page.locator('[data-field="parcels.0.weight_amount"] .error').count()).toBe(0);
    await shoot('ship-invalid');

    await fill({ 'recipient_contact.phone_number': '+420 602 333 444', 'parcels.1.weight_amount': '3,1' });
    await page.click('button[name="ship"]');
    await page.locator('.created').waitFor({ timeout: 30_000 });
    await expect.poll(() => page.locator('.pictures img').count(), WAIT).toBe(2);
    await shoot('ship-created');
    const shipments = (await api(keys.full, 'GET', '/v1/shipments?search=DESK-1001')).body.data as unknown as { id: string }[];
    expect(shipments).toHaveLength(1);
    shipmentId = shipments[0]!.id;
    const shipment = (await api(keys.full, 'GET', `/v1/shipments/${shipmentId}`)).body.data as unknown as { cash_on_delivery_amount: number; parcels: { tracking_number: string; weight_amount: number }[]; sender_contact: { company_name: string } };
    expect(shipment.cash_on_delivery_amount).toBe(1249.9);
    expect(shipment.parcels.map((p) => p.weight_amount)).toEqual([2.4, 3.1]);
    expect(shipment.sender_contact.company_name).toBe('Sklad Brno s.r.o.');
    trackingNumbers = shipment.parcels.map((p) => p.tracking_number);
    expect(await page.locator('.created').textContent()).toContain(trackingNumbers[0]);

    // the station does not print on its own: the label waits for Print, on the account's default ZPL printer
    expect(await page.locator('.print-status').textContent()).toBe('Not printed: auto-print is off.');
    expect(await page.locator('select[name="printer"] option:checked').textContent()).toBe('Zebra at the desk');
    await page.click('button[name="print"]');
    await expect.poll(() => zebra.labelBytes().toString('latin1').match(/\^XA/g)?.length, WAIT).toBe(2);
    await expect.poll(async () => (await api(keys.full, 'GET', `/v1/print-jobs?shipment_id=${shipmentId}`)).body.data, WAIT)
      .toMatchObject([{ status: 'printed' }]);
    await expect.poll(() => page.locator('.print-status').textContent(), WAIT).toBe('Printed on Zebra at the desk');
    // printed once: one label per parcel, whose barcodes are the tracking numbers
    expect(await decodeZplBarcodes(zebra.labelBytes().toString('utf8'))).toEqual(trackingNumbers.map((n) => [n]));
  });

  it('fills a scanned reference from the earlier shipment and asks before shipping it again', async () => {
    await page.goto(url('/#/ship'));
    await page.fill('input[name="reference_number"]', 'DESK-1001');
    await page.press('input[name="reference_number"]', 'Enter');
    // the form still holds the order just shipped: wait for the lookup to say it filled the form
    await expect.poll(() => page.locator('form .notice').textContent(), WAIT).toContain('Filled from shipment DESK-1001');
    expect(await page.locator('.recipient [data-name="recipient"]').textContent()).toBe('Řehoř Šťastný');
    expect(await page.locator('.recipient .cod').textContent()).toBe('Cash on delivery: 1249.90 CZK');
    expect(await page.locator('[name="parcels.1.weight_amount"]').inputValue()).toBe('3.1');
    // Enter moved on to the weight, as a scanner's Enter should
    expect(await focused()).toBe('parcels.0.weight_amount');
    expect(await page.locator('.warning').textContent()).toContain('Order DESK-1001 was shipped before (Created)');
    confirming = false;
    await page.keyboard.press('F9');
    await expect.poll(() => asked.at(-1), WAIT).toBe('Order DESK-1001 was shipped before (Created). Ship it again?');
    confirming = true;
    expect((await api(keys.full, 'GET', '/v1/shipments?search=DESK-1001')).body.data).toHaveLength(1);
  });

  it('shows the print queue live: paper out on the printer turns its chip without a reload, and back to ready', async () => {
    await page.goto(url('/#/printers'));
    const printer = page.locator('.printer');
    await printer.waitFor();
    await expect.poll(() => printer.getAttribute('data-state'), WAIT).toBe('ready');
    await expect.poll(() => page.locator('.printer tr[data-status="printed"]').count(), WAIT).toBe(1);
    zebra.flags.paperOut = true;
    await expect.poll(() => printer.getAttribute('data-state'), { timeout: 10_000 }).toBe('paper_out');
    expect(await printer.locator('h2 .chip').textContent()).toBe('Paper out');
    expect(await printer.locator('[data-name="problems"]').textContent()).toBe('paper out');
    await shoot('printers-paper-out');
    // the printer's words in the desk's language, not as the printer said them
    try {
      await page.selectOption('header select', 'cs');
      expect(await printer.locator('h2 .chip').textContent()).toBe('Došel papír');
      expect(await printer.locator('[data-name="problems"]').textContent()).toBe('došel papír');
      await page.selectOption('header select', 'pl');
      expect(await printer.locator('[data-name="problems"]').textContent()).toBe('brak papieru');
    } finally {
      await page.selectOption('header select', 'en');
    }
    zebra.flags.paperOut = false;
    await expect.poll(() => printer.getAttribute('data-state'), { timeout: 10_000 }).toBe('ready');
  });

  it('finds the shipment by scanning a tracking number, shows its parcels, and cancels it', async () => {
    await page.goto(url('/#/shipments'));
    await page.fill('input[name="search"]', trackingNumbers[1]!);
    await page.press('input[name="search"]', 'Enter');
    await page.waitForURL(new RegExp(`#/shipments/${shipmentId}$`));
    await expect.poll(() => page.locator('td.tracking-number').allTextContents(), WAIT).toEqual(trackingNumbers);
    await shoot('shipment');
    await page.click('button[name="cancel"]'); // the confirmation is accepted
    await expect.poll(() => page.locator('h1 .chip').getAttribute('data-status'), WAIT).toBe('cancelled');
    expect((await api(keys.full, 'GET', `/v1/shipments/${shipmentId}`)).body.data.status).toBe('cancelled');
    await page.goto(url('/#/shipments'));
    await page.selectOption('select[name="status"]', 'cancelled');
    await expect.poll(() => page.locator('tbody tr').count(), WAIT).toBe(1);
    await shoot('shipments');
  });

  it('keeps what was typed across a daemon restart and ships it once the daemon is back', async () => {
    await page.goto(url('/#/ship'));
    await page.fill('input[name="reference_number"]', 'DESK-1002');
    await page.press('input[name="reference_number"]', 'Enter');
    await expect.poll(() => page.locator('form .notice').textContent(), WAIT).toBe('No earlier order DESK-1002: fill it in.');
    await fill({
      'recipient_contact.first_name': 'Jan', 'recipient_contact.last_name': 'Novák', 'recipient_contact.email_address': 'jan@example.cz',
      'recipient_contact.phone_number': '+420603444555', 'destination_address.street_name': 'Masarykova', 'destination_address.house_number': '1',
      'destination_address.city_name': 'Brno', 'destination_address.postal_code': '60200',
      'parcels.0.weight_amount': '1', 'parcels.0.length_dimension': '20', 'parcels.0.width_dimension': '20', 'parcels.0.height_dimension': '20',
    });
    await daemon.close();
    await page.locator('.banner.offline').waitFor({ timeout: 15_000 });
    await start();
    await page.locator('.banner.offline').waitFor({ state: 'detached', timeout: 15_000 });
    expect(await page.inputValue('[name="recipient_contact.last_name"]')).toBe('Novák');
    await page.click('button[name="ship"]');
    await page.locator('.created').waitFor({ timeout: 30_000 });
    expect((await api(keys.full, 'GET', '/v1/shipments?search=DESK-1002')).body.data).toHaveLength(1);
  });

  it('shows a shipment\'s tracking timeline with the carrier\'s own codes, newest first, updated live', async () => {
    const [summary] = (await api(keys.full, 'GET', '/v1/shipments?search=DESK-1002')).body.data as unknown as { id: string }[];
    const shipment = (await api(keys.full, 'GET', `/v1/shipments/${summary!.id}`)).body.data as unknown as { parcels: { tracking_number: string }[] };
    const number = shipment.parcels[0]!.tracking_number;
    await page.goto(url(`/#/shipments/${summary!.id}`));
    await page.locator('main.shipment').waitFor();
    const { advance } = pplEmulatorControl(() => emu.url);
    await advance(number, 'in_transit');
    const [tracked] = (await api(keys.full, 'GET', `/v1/tracking-parcels?search=${number}`)).body.data as unknown as { id: string }[];
    expect((await api(keys.full, 'POST', `/v1/tracking-parcels/${tracked!.id}/refresh`)).status).toBe(200);
    // no reload: the shipment's change reaches the page as a live event
    // the carrier's own codes, newest first, as the API has them
    const updates = (await api(keys.full, 'GET', `/v1/tracking-parcels/${tracked!.id}`)).body.data.status_updates as { carrier_status: { code: string } }[];
    expect(updates.length).toBeGreaterThan(1);
    await expect.poll(() => page.locator('.timeline li code').allTextContents(), WAIT).toEqual(updates.map((u) => u.carrier_status.code));
    expect(await page.locator('h1 .chip').getAttribute('data-status')).toBe('shipped');
    expect(await page.locator('.timeline li').first().locator('.chip').textContent()).toBe('In transit');
    expect(await page.locator('header nav a.active').allTextContents()).toEqual(['Shipments']);
    await page.locator('.pictures img').first().waitFor();
    await shoot('shipment-tracking');
  });

  it('shows what became of an imported file\'s orders as its result file says, and its failed rows', async () => {
    const added = await api(keys.full, 'POST', '/v1/watched-folders', { path: join(erpDir, 'eshop'), shipping_channel_id: channelId, label_format: 'pdf' });
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    const folder = added.body.data as unknown as { id: string; folders: { in: string } };
    writeFileSync(join(folder.folders.in, 'orders.csv'), csvText([
      orderRow('ERP-1'), orderRow('ERP-2'), orderRow('ERP-3'),
      orderRow('ERP-4', { destination_address_postal_code: '79999' }), // no post office has it: the carrier refuses it
      orderRow('ERP-5', { recipient_contact_email_address: 'not-an-email' }),
    ]));
    type Finished = { id: string; status: string; result_path: string };
    const finished = async () => ((await api(keys.full, 'GET', `/v1/imports?watched_folder_id=${folder.id}`)).body.data as unknown as Finished[])[0];
    await expect.poll(async () => (await finished())?.status, { timeout: 30_000 }).toBe('done');
    const record = (await finished())!;
    expect(readCsvFile(record.result_path).map((line) => line.status)).toEqual(['created', 'created', 'created', 'failed', 'error']);
    await page.goto(url('/#/imports'));
    const row = page.locator('main.imports tbody tr', { hasText: 'orders.csv' });
    await row.waitFor(WAIT);
    // the table as a packer reads it: each column's heading with the file's cell under it
    const headings = await page.locator('main.imports thead th').allTextContents();
    const cells = await row.locator('td').allTextContents();
    expect(Object.fromEntries(headings.map((h, i) => [h, cells[i]]).filter(([h]) => h !== ''))).toEqual({
      File: 'orders.csv', Rows: '5/5', 'Shipments created': '3', 'Refused by the carrier': '1', 'Invalid orders': '1 Failed rows: 1', 'Queued for packing': '0',
    });
    await row.locator('button[name="failed_rows"]').click();
    await expect.poll(() => page.locator('.failed-rows td').allTextContents(), WAIT).toEqual(['Row 6', 'recipient_contact.email_address', 'must be a valid e-mail address']);
    await shoot('imports');
  });

  it('refuses changes without the CSRF token or from another origin, and shows nothing of another account', async () => {
    const cookie = (await desk.cookies()).map((c) => `${c.name}=${c.value}`).join('; ');
    const session = await (await fetch(url('/v1/desk/session'), { headers: { cookie } })).json() as { data: { csrf_token: string } };
    const cancel = (headers: Record<string, string>) => fetch(url(`/v1/shipments/${shipmentId}/retry`), { method: 'POST', headers: { cookie, ...headers } });
    const noToken = await cancel({});
    expect(noToken.status).toBe(403);
    expect((await noToken.json()).message).toContain('X-CSRF-Token');
    const elsewhere = await cancel({ 'x-csrf-token': session.data.csrf_token, origin: 'https://evil.example' });
    expect(elsewhere.status).toBe(403);
    const theirs = await api(keys.other, 'POST', '/v1/desk/login-links');
    const intruder = await browser.newContext();
    const theirPage = await intruder.newPage();
    await theirPage.goto(String(theirs.body.data.url));
    await theirPage.waitForSelector('header nav');
    // the API's rule for another account's resource: 403, and nothing of it in the answer
    const seen = await theirPage.evaluate(async (id) => {
      const res = await fetch(`/v1/shipments/${id}`);
      return { status: res.status, body: await res.text() };
    }, shipmentId);
    expect(seen.status).toBe(403);
    expect(seen.body).not.toContain('DESK-1001');
    await theirPage.goto(url('/#/shipments'));
    await theirPage.locator('main.shipments').waitFor();
    expect(await theirPage.locator('tbody tr').count()).toBe(0);
    await intruder.close();
  });

  it('opens a read-only desk for a read-only key through a one-time link, which works once', async () => {
    const link = String((await api(keys.readOnly, 'POST', '/v1/desk/login-links')).body.data.url);
    const readOnly = await browser.newContext({ locale: 'cs-CZ', viewport: { width: 1024, height: 600 } });
    const tablet = await readOnly.newPage();
    await tablet.goto(link);
    await tablet.waitForSelector('header nav');
    expect(await tablet.locator('.banner').textContent()).toContain('jen pro čtení');
    expect(await tablet.locator('button[name="ship"]').count()).toBe(0);
    expect(await tablet.locator('header nav a').allTextContents()).toEqual(['Odeslat', 'Zásilky', 'Konec dne', 'Stanoviště', 'Tiskárny', 'Importy', 'Pravidla']);
    await tablet.screenshot({ path: join(SCREENSHOTS, 'read-only-cs-tablet.png'), fullPage: true });
    const again = await browser.newContext();
    const second = await again.newPage();
    await second.goto(link);
    await second.locator('.sign-in .error').waitFor();
    expect(await second.locator('.sign-in .error').textContent()).toContain('used already or has expired');
    await Promise.all([readOnly.close(), again.close()]);
  });
});
