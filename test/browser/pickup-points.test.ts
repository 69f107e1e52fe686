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

const WAIT = { timeout: 15_000 };
const SCREENSHOTS = fileURLToPath(new URL('../.generated/desk-screenshots/', import.meta.url));
const STATION = 'desk-points';

interface Address { street_name: string; house_number?: string; city_name: string; postal_code: string; country_code: string }
interface Point {
  provider_point_id: string; name: string; type: string; address: Address;
  opening_hours: { day: number; from: string; to: string }[]; cash_on_delivery: boolean; open: boolean;
}
interface Shipment {
  id: string; status: string; destination_address: Address;
  pickup_point: { provider_point_id: string; type: string | null; name: string | null; address: Address | null } | null;
}

describe('pickup points on the desk: the packer finds a ParcelShop by postal code, ships to it, and the shipment shows it', () => {
  let dataDir: string;
  let emu: RunningEmulators;
  let daemon: RunningDaemon;
  let browser: Browser;
  let page: Page;
  let key: string;
  let channelId: string;

  const url = (path = '/') => `${daemon.url}${path}`;
  const api = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const res = await fetch(url(path), { method, headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) }, body: body ? JSON.stringify(body) : undefined });
    const json = await res.json().catch(() => null) as { data: T } | null;
    expect(res.status, `${method} ${path}: ${JSON.stringify(json)}`).toBeLessThan(300);
    return json!.data;
  };
  const fill = async (fields: Record<string, string>) => {
    for (const [name, value] of Object.entries(fields)) await page.fill(`[name="${name}"]`, value);
  };
  const shoot = (name: string) => page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });
  const card = () => page.locator('form .pickup-point');
  /** The points the carrier answers for the packer's search, as the API answers them. */
  const pointsOf = (query: string) => api<Point[]>('GET', `/v1/pickup-points?shipping_channel_id=${channelId}&country=CZ&${query}`);
  /** Types a postal code or a city into the point search and waits for the carrier's list. */
  const searchPoints = async (place: string) => {
    await card().locator('button[name="search_point"]').click();
    await page.fill('input[name="point_search"]', place);
    await page.press('input[name="point_search"]', 'Enter');
    await card().locator('.point-list li').first().waitFor(WAIT);
  };
  const scan = async (reference: string) => {
    await page.fill('input[name="reference_number"]', reference);
    await page.press('input[name="reference_number"]', 'Enter');
  };

  beforeAll(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    dataDir = mkdtempSync(join(tmpdir(), 'packdesk-points-'));
    const setup = openContext({ dataDir, log: pino({ level: 'silent' }) });
    const account = await createAccount(setup, { name: 'Sklad Brno', plan: 'enterprise' });
    key = (await createApiKey(setup, { accountId: account.id })).apiKey;
    await closeContext(setup);
    emu = await startEmulators({ providers: ['ppl'], port: 0 });
    daemon = await startDaemon({ dataDir, host: '127.0.0.1', port: 0, station: STATION, log: pino({ level: 'silent' }), desk: { printerCheckMs: 600_000 } });
    channelId = (await api<{ id: string }>('POST', '/v1/shipping-channels', {
      name: 'PPL', provider: 'ppl', settings: { clientId: 'desk', clientSecret: 'desk-secret', baseUrl: emu.urls.ppl },
    })).id;
    await api('PUT', '/v1/station-settings', {
      sender_contact: { company_name: 'Sklad Brno s.r.o.', email_address: 'sklad@example.cz', phone_number: '+420601111222' },
      origin_address: { street_name: 'Skladová', house_number: '12', city_name: 'Praha', postal_code: '11000', country_code: 'CZ' },
      shipping_channel_id: channelId,
    });
    browser = await launchChromium();
    page = await signedInDesk(browser, String((await api<{ url: string }>('POST', '/v1/desk/login-links')).url));
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await daemon?.close();
    await emu?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('a new COD shipment: a Brno postal code lists the points with hours and COD, one without COD is marked, the one chosen is shipped to and shown on the shipment', async () => {
    // a postal code with a point that takes no COD and an open ParcelShop that does, as the carrier's emulator has them
    const inBrno = await pointsOf('city=Brno&limit=100');
    const postalCode = [...new Set(inBrno.map((p) => p.address.postal_code))].find((code) => {
      const here = inBrno.filter((p) => p.address.postal_code === code);
      return here.some((p) => !p.cash_on_delivery) && here.some((p) => p.type === 'parcelshop' && p.open && p.cash_on_delivery);
    })!;
    expect(postalCode, 'a Brno postal code with a point without COD and a ParcelShop with').toBeTruthy();
    const typed = `${postalCode.slice(0, 3)} ${postalCode.slice(3)}`;
    const listed = await pointsOf(`postal_code=${encodeURIComponent(typed)}`);
    const noCod = listed.find((p) => !p.cash_on_delivery)!;
    const shop = listed.find((p) => p.type === 'parcelshop' && p.open && p.cash_on_delivery)!;
    const other = listed.find((p) => p !== shop && p.open && p.cash_on_delivery);

    await page.goto(url('/#/ship'));
    await page.waitForSelector('select[name="shipping_channel_id"] option', { state: 'attached' });
    await scan('POINT-DESK-1');
    await expect.poll(() => page.locator('form .notice').textContent(), WAIT).toBe('No earlier order POINT-DESK-1: fill it in.');
    // the recipient's contact, no address: the point's is the destination
    await fill({
      'recipient_contact.first_name': 'Řehoř', 'recipient_contact.last_name': 'Šťastný',
      'recipient_contact.email_address': 'rehor@example.cz', 'recipient_contact.phone_number': '+420 602 333 444',
      cash_on_delivery_amount: '499', cash_on_delivery_currency: 'CZK',
      'parcels.0.weight_amount': '1,5', 'parcels.0.length_dimension': '30', 'parcels.0.width_dimension': '20', 'parcels.0.height_dimension': '10',
    });
    expect(await card().locator('[data-name="to-door"]').textContent()).toBe("To the recipient's door");
    await searchPoints(typed);
    const items = card().locator('.point-list li');
    expect(await items.count()).toBe(listed.length);
    const shopItem = card().locator(`.point-list li[data-point="${shop.provider_point_id}"]`);
    expect(await shopItem.locator('[data-name="point-name"]').textContent()).toBe(shop.name);
    const where = `${shop.address.street_name} ${shop.address.house_number}, ${postalCode} Brno`;
    expect(await shopItem.locator('[data-name="point-address"]').textContent()).toBe(where);
    const monday = shop.opening_hours.find((h) => h.day === 1)!;
    expect(await shopItem.locator('[data-name="point-hours"]').textContent()).toMatch(new RegExp(`^Mon–Fri ${monday.from}–${monday.to}`));
    expect(await shopItem.locator('[data-name="point-cod"]').textContent()).toBe('Takes cash on delivery');
    // the shipment has COD: a point that takes none is marked and cannot be chosen
    const noCodItem = card().locator(`.point-list li[data-point="${noCod.provider_point_id}"]`);
    expect(await noCodItem.getAttribute('class')).toContain('no-cod');
    expect(await noCodItem.locator('[data-name="point-no-cod"]').textContent()).toBe('Takes no cash on delivery, and this shipment has COD.');
    expect(await noCodItem.locator('button[name="choose_point"]').isDisabled()).toBe(true);
    await shoot('ship-point-search');

    // a point chosen, then the door again, then the ParcelShop: the card says which
    const first = other ?? shop;
    await card().locator(`.point-list li[data-point="${first.provider_point_id}"] button[name="choose_point"]`).click();
    expect(await card().locator('.point-head [data-name="point-name"]').textContent()).toBe(first.name);
    await card().locator('button[name="to_door"]').click();
    expect(await card().locator('[data-name="to-door"]').count()).toBe(1);
    await searchPoints(typed);
    await shopItem.locator('button[name="choose_point"]').click();
    const chosen = card().locator('.point-head');
    expect(await chosen.locator('[data-name="point-name"]').textContent()).toBe(shop.name);
    expect(await chosen.locator('.hint').last().textContent()).toBe(`Parcel shop · ${shop.provider_point_id}`);
    expect(await chosen.locator('[data-name="point-hours"]').textContent()).toMatch(/^Mon–Fri /);
    expect(await card().locator('.point-list').count()).toBe(0);
    await shoot('ship-point-chosen');

    await page.click('button[name="ship"]');
    await page.locator('.created').waitFor({ timeout: 30_000 });
    const [summary] = await api<{ id: string }[]>('GET', '/v1/shipments?search=POINT-DESK-1');
    const shipment = await api<Shipment>('GET', `/v1/shipments/${summary!.id}`);
    expect(shipment).toMatchObject({
      status: 'created', destination_address: shop.address,
      pickup_point: { provider_point_id: shop.provider_point_id, type: 'parcelshop', name: shop.name, address: shop.address },
    });

    await page.goto(url(`/#/shipments/${shipment.id}`));
    const shown = page.locator('main.shipment .pickup-point');
    await shown.locator('[data-name="point-hours"]').waitFor(WAIT);
    expect(await shown.locator('[data-name="point-name"]').textContent()).toBe(shop.name);
    expect(await shown.locator('[data-name="point-address"]').textContent()).toBe(where);
    expect(await shown.locator('[data-name="point-hours"]').textContent()).toMatch(new RegExp(`^Mon–Fri ${monday.from}–${monday.to}`));
    await shoot('shipment-point');
  }, 60_000);

  it('an order naming a point id from the shop: the card shows the point with its hours; changed by a city search, the order ships to the new point', async () => {
    const inBrno = await pointsOf('city=Brno&type=locker');
    const [ordered, changed] = inBrno.filter((p) => p.open);
    const order = await api<{ id: string }>('POST', '/v1/orders', {
      reference_number: 'POINT-ORDER-1', shipping_channel_id: channelId,
      recipient_contact: { first_name: 'Jana', last_name: 'Nováková', email_address: 'jana@example.cz', phone_number: '+420602444555' },
      destination_address: { street_name: 'Údolní', house_number: '5', city_name: 'Brno', postal_code: '60200', country_code: 'CZ' },
      pickup_point: { provider_point_id: ordered!.provider_point_id },
      parcels: [{ weight_amount: 1, length_dimension: 30, width_dimension: 20, height_dimension: 10 }],
    });

    await page.goto(url('/#/ship'));
    await page.waitForSelector('select[name="shipping_channel_id"] option', { state: 'attached' });
    await scan('POINT-ORDER-1');
    await expect.poll(() => page.locator('form .notice').textContent(), WAIT).toBe('Order POINT-ORDER-1 from the queue: weigh it and press Enter.');
    // the order has only the point's id: its name and hours come from the carrier
    await card().locator('[data-name="point-hours"]').waitFor(WAIT);
    expect(await card().locator('[data-name="point-name"]').textContent()).toBe(ordered!.name);
    expect(await card().locator('[data-name="point-hours"]').textContent()).toBe('Mon–Sun 00:00–24:00');
    await searchPoints('Brno');
    await card().locator(`.point-list li[data-point="${changed!.provider_point_id}"] button[name="choose_point"]`).click();
    expect(await card().locator('[data-name="point-name"]').textContent()).toBe(changed!.name);
    await page.click('button[name="ship"]');
    await page.locator('.created').waitFor({ timeout: 30_000 });

    const shipped = await api<{ status: string; shipment_id: string; pickup_point: { provider_point_id: string } }>('GET', `/v1/orders/${order.id}`);
    expect(shipped).toMatchObject({ status: 'shipped', pickup_point: { provider_point_id: changed!.provider_point_id } });
    const shipment = await api<Shipment>('GET', `/v1/shipments/${shipped.shipment_id}`);
    expect(shipment.pickup_point).toMatchObject({ provider_point_id: changed!.provider_point_id, type: 'locker', name: changed!.name });
    await shoot('ship-order-point');
  }, 60_000);
});
