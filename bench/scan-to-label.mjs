// The packing desk's pace: the time from a scanned order reference to its label in view on the ship screen (the
// weight typed, Enter), p50 over BENCH_SCAN_ORDERS queued 1-parcel orders (default 10) at 1280×720, with the PPL
// emulator answering at once and after 300 ms. Drives Debian's Chromium (PACKDESK_CHROMIUM, default
// /usr/bin/chromium) with playwright-core against a real daemon; needs `npm run build`. One JSON line per latency.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { chromium } from 'playwright-core';
import { dist, log, percentile, print } from './lib.mjs';

const ORDERS = Number(process.env.BENCH_SCAN_ORDERS ?? 10);
const CHROMIUM = process.env.PACKDESK_CHROMIUM ?? '/usr/bin/chromium';
const WAIT = { timeout: 30_000 };

const { startDaemon } = await import(dist('daemon/main.js'));
const { startEmulators } = await import(dist('src/carriers/emulator/server.js'));
const { createAccount, createApiKey } = await import(dist('src/services/accounts.js'));
const { openContext, closeContext } = await import(dist('src/services/open.js'));

const dataDir = mkdtempSync(join(tmpdir(), 'packdesk-bench-scan-'));
const setup = openContext({ dataDir, log: pino({ level: 'silent' }) });
const account = await createAccount(setup, { name: 'bench', plan: 'enterprise' });
const key = (await createApiKey(setup, { accountId: account.id })).apiKey;
await closeContext(setup);
const emu = await startEmulators({ providers: ['ppl'], port: 0 });
const daemon = await startDaemon({ dataDir, host: '127.0.0.1', port: 0, station: 'bench', log: pino({ level: 'silent' }) });
const api = async (method, path, body) => {
  const res = await fetch(`${daemon.url}${path}`, {
    method, headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) }, body: body ? JSON.stringify(body) : undefined,
  });
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return (await res.json()).data;
};
const fault = (body) => fetch(`${emu.url}/_emulator/ppl/faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

const channel = await api('POST', '/v1/shipping-channels', { name: 'PPL', provider: 'ppl', settings: { clientId: 'bench', clientSecret: 'bench-secret', baseUrl: emu.urls.ppl } });
await api('PUT', '/v1/station-settings', {
  sender_contact: { company_name: 'Sklad Brno s.r.o.', email_address: 'sklad@example.cz', phone_number: '+420601111222' },
  origin_address: { street_name: 'Skladová', house_number: '12', city_name: 'Praha', postal_code: '11000', country_code: 'CZ' },
});
await api('PUT', '/v1/stations/bench/settings', { shipping_channel_id: channel.id, label_format: 'zpl' });

const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
try {
  const page = await (await browser.newContext({ viewport: { width: 1280, height: 720 }, locale: 'en-GB' })).newPage();
  await page.goto(String((await api('POST', '/v1/desk/login-links')).url));
  await page.waitForSelector('header nav', WAIT);
  for (const latency of [0, 300]) {
    await fault(latency === 0 ? { mode: 'none' } : { mode: 'latency', ms: latency });
    const references = Array.from({ length: ORDERS }, (_, i) => `T${latency}-${i + 1}`);
    for (const reference of references) {
      await api('POST', '/v1/orders', {
        reference_number: reference,
        recipient_contact: { first_name: 'Řehoř', last_name: 'Šťastný', email_address: 'rehor@example.cz', phone_number: '+420 602 333 444' },
        destination_address: { street_name: 'Údolní', house_number: '5', city_name: 'Brno', postal_code: '60200', country_code: 'CZ' },
        parcels: [{ length_dimension: 30, width_dimension: 20, height_dimension: 10 }],
      });
    }
    await page.goto(`${daemon.url}/#/ship`);
    const times = [];
    for (const reference of references) {
      await page.fill('input[name="reference_number"]', reference);
      const started = performance.now();
      await page.press('input[name="reference_number"]', 'Enter');
      await page.waitForFunction(() => document.activeElement?.getAttribute('name') === 'parcels.0.weight_amount', undefined, WAIT);
      await page.fill('[name="parcels.0.weight_amount"]', '1,2');
      await page.press('[name="parcels.0.weight_amount"]', 'Enter');
      await page.waitForFunction(() => {
        const img = document.querySelector('.result .pictures img');
        if (!img?.complete || img.naturalWidth === 0) return false;
        const box = img.getBoundingClientRect();
        return box.top >= 0 && box.bottom <= innerHeight && box.left >= 0 && box.right <= innerWidth;
      }, undefined, WAIT);
      times.push(performance.now() - started);
      log(`${reference}: ${Math.round(times.at(-1))} ms`);
    }
    times.sort((a, b) => a - b);
    print({ bench: 'desk-scan-to-label', orders: ORDERS, carrier_latency_ms: latency, p50_ms: Math.round(percentile(times, 0.5)), max_ms: Math.round(times.at(-1)) });
  }
} finally {
  await browser.close();
  await daemon.close();
  await emu.close();
  rmSync(dataDir, { recursive: true, force: true });
}
