import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { pplChannel, shipmentBody, startPplStation, type PplStation } from '../helpers/shipments.js';
import type { TestAccount, TestDaemon } from '../helpers/harness.js';
import { csvText, finishedImports, orderRow } from '../helpers/order-files.js';

const fixture = (name: string) => readFileSync(new URL(`../fixtures/rules/${name}`, import.meta.url));

const SENDER = {
  sender_contact_company_name: 'Sklad Praha s.r.o.', sender_contact_email_address: 'sklad@example.cz', sender_contact_phone_number: '+420601111222',
  origin_address_street_name: 'Skladová 12', origin_address_city_name: 'Praha', origin_address_postal_code: '11000', origin_address_country_code: 'CZ',
};
const PARCEL_DEFAULTS = { weight_amount: 1, length_dimension: 30, width_dimension: 20, height_dimension: 10 };
const priceList = (sk: number) => ({
  currency: 'CZK', zones: [{ name: 'home', countries: ['CZ'] }, { name: 'near', countries: ['SK'] }],
  bands: [{ max_weight_kg: 31.5, prices: { home: 99, near: sk } }],
});

interface Rule { id: string; position: number; name: string }

/** Rules choose the channel of each shipment or order that names none, in their order, and say which chose. */
describe('shipping rules', () => {
  let station: PplStation;
  let d: TestDaemon;
  let a: TestAccount;
  const channels: Record<string, string> = {};

  const addRule = async (body: Record<string, unknown>) => {
    const res = await a.request('POST', '/v1/shipping-rules', body);
    expect(res.statusCode, res.body).toBe(201);
    return res.json().data as Rule;
  };
  const rules = async () => ((await a.request('GET', '/v1/shipping-rules')).json().data as Rule[]).map((r) => [r.position, r.name]);

  beforeAll(async () => {
    station = await startPplStation('Rules shop');
    ({ d, a } = station);
    channels.home = station.channel;
    for (const name of ['heavy', 'wholesale', 'slovakia', 'express']) channels[name] = await pplChannel(a, station.emu.urls.ppl!);
    for (const [name, id] of Object.entries(channels)) {
      const res = await a.request('PATCH', `/v1/shipping-channels/${id}`, {
        name: `PPL ${name}`, parcel_defaults: PARCEL_DEFAULTS, price_list: priceList(name === 'home' ? 140 : name === 'slovakia' ? 160 : 200),
      });
      expect(res.statusCode, res.body).toBe(200);
    }
    d.workers.start();
  });
  const root = mkdtempSync(join(tmpdir(), 'packdesk-rules-'));
  afterAll(async () => {
    await station?.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('keeps the rules in order: a rule added at a position moves the later ones down, a move or a delete closes the gap', async () => {
    const first = await addRule({ name: 'Default', action: { type: 'use_channel', shipping_channel_id: channels.home } });
    const heavy = await addRule({ name: 'Heavy', position: 1, conditions: { weight_kg: { min: 20 } }, action: { type: 'use_channel', shipping_channel_id: channels.heavy } });
    expect(heavy.position).toBe(1);
    const express = await addRule({ name: 'Express', conditions: { reference_pattern: 'EXP-*' }, action: { type: 'use_channel', shipping_channel_id: channels.express } });
    expect(await rules()).toEqual([[1, 'Heavy'], [2, 'Default'], [3, 'Express']]);

    const moved = await a.request('PATCH', `/v1/shipping-rules/${first.id}`, { position: 3 });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(await rules()).toEqual([[1, 'Heavy'], [2, 'Express'], [3, 'Default']]);
    expect((await a.request('DELETE', `/v1/shipping-rules/${express.id}`)).statusCode).toBe(204);
    expect(await rules()).toEqual([[1, 'Heavy'], [2, 'Default']]);
    expect((await a.request('GET', `/v1/shipping-rules/${express.id}`)).statusCode).toBe(404);
    const other = await d.account('Another shop');
    expect((await other.request('GET', `/v1/shipping-rules/${heavy.id}`)).statusCode).toBe(403);
  });

  it('refuses a rule that cannot work, naming the field', async () => {
    const res = await a.request('POST', '/v1/shipping-rules', {
      name: 'Broken', position: 9,
      conditions: { destination_countries: ['XX'], weight_kg: { min: 10, max: 5 } },
      action: { type: 'cheapest', shipping_channel_ids: [channels.home, 'ch_nowhere'] },
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual({
      'conditions.destination_countries.0': ['must be an ISO 3166-1 alpha-2 country code'],
      'conditions.weight_kg.max': ['must not be below min (10)'],
      position: ['must be from 1 to 3: the account has 2 other rules'],
      'action.shipping_channel_ids.1': ['is not a shipping channel of this account'],
    });
    const unknownKey = await a.request('POST', '/v1/shipping-rules', { name: 'x', conditions: { colour: 'red' }, action: { type: 'use_channel', shipping_channel_id: channels.home } });
    expect(unknownKey.statusCode).toBe(422);
    expect(Object.keys(unknownKey.json().errors)[0]).toMatch(/^conditions/);
  });

  it('chooses the channel of a shipment that names none and records the rule; a named channel stays, and is no rule\'s choice', async () => {
    const { shipping_channel_id: _named, ...body } = shipmentBody(channels.home, { reference_number: 'HEAVY-1', parcels: [{ ...PARCEL_DEFAULTS, weight_amount: 24 }] });
    const heavy = await a.request('POST', '/v1/shipments', body);
    expect(heavy.statusCode, heavy.body).toBe(201);
    expect(heavy.json().data).toMatchObject({ shipping_channel_id: channels.heavy, chosen_by: { name: 'Heavy', reason: expect.stringContaining('PPL heavy') } });

    const named = await a.request('POST', '/v1/shipments', shipmentBody(channels.express, { reference_number: 'NAMED-1', parcels: [{ ...PARCEL_DEFAULTS, weight_amount: 24 }] }));
    expect(named.json().data).toMatchObject({ shipping_channel_id: channels.express, chosen_by: null });

    const light = await a.request('POST', '/v1/shipments', { ...body, reference_number: 'LIGHT-1', parcels: [PARCEL_DEFAULTS] });
    expect(light.json().data).toMatchObject({ shipping_channel_id: channels.home, chosen_by: { name: 'Default' } });

    // an order waits without a channel; weighed at the desk, the rules choose when it ships
    const order = await a.request('POST', '/v1/orders', { ...body, reference_number: 'ORDER-HEAVY', parcels: undefined });
    expect(order.statusCode, order.body).toBe(201);
    const shipped = await a.request('POST', `/v1/orders/${order.json().data.id}/ship`, { parcels: [{ ...PARCEL_DEFAULTS, weight_amount: 21 }] });
    expect(shipped.statusCode, shipped.body).toBe(200);
    expect(shipped.json().data).toMatchObject({ shipping_channel_id: channels.heavy, chosen_by: { name: 'Heavy' } });
  });

  it("leaves a shipment no rule chooses to its station's channel, and refuses one with neither", async () => {
    const listed = (await a.request('GET', '/v1/shipping-rules')).json().data as Rule[];
    const fallback = listed.find((r) => r.name === 'Default')!;
    await a.request('PATCH', `/v1/shipping-rules/${fallback.id}`, { active: false });
    const put = await a.request('PUT', '/v1/stations/desk-2/settings', { shipping_channel_id: channels.express });
    expect(put.statusCode, put.body).toBe(200);
    const { shipping_channel_id: _named, ...body } = shipmentBody(channels.home, { reference_number: 'STATION-1' });

    const atStation = await a.request('POST', '/v1/shipments', { ...body, station: 'desk-2' });
    expect(atStation.json().data).toMatchObject({ shipping_channel_id: channels.express, chosen_by: null });
    const tried = await a.request('POST', '/v1/shipping-rules/test', { ...body, station: 'desk-2' });
    expect(tried.json().data).toMatchObject({ shipping_channel_id: channels.express, chosen_by: null, fallback: 'station' });
    const nowhere = await a.request('POST', '/v1/shipments', body);
    expect(nowhere.statusCode).toBe(422);
    expect(nowhere.json().errors.shipping_channel_id).toEqual(["is required (or name a station whose settings give it: station; or add a shipping rule that chooses it)"]);
    await a.request('PATCH', `/v1/shipping-rules/${fallback.id}`, { active: true });
  });

  it('dry-runs a body: each rule tried, why it did or did not choose, the quotes of a cheapest rule', async () => {
    const cheapest = await addRule({
      name: 'Western Slovakia', position: 2, conditions: { destination_countries: ['SK'], destination_postal_code_prefixes: ['8', '9'] },
      action: { type: 'cheapest', shipping_channel_ids: [channels.slovakia, channels.home] },
    });
    const { shipping_channel_id: _named, ...body } = shipmentBody(channels.home, {
      reference_number: 'SK-1',
      destination_address: { street_name: 'Obchodná', house_number: '1', city_name: 'Bratislava', postal_code: '811 06', country_code: 'SK' },
      recipient_contact: { first_name: 'Ján', last_name: 'Kováč', email_address: 'jan@example.sk', phone_number: '+421 902 123 456' },
    });
    const res = await a.request('POST', '/v1/shipping-rules/test', body);
    expect(res.statusCode, res.body).toBe(200);
    const tried = res.json().data;
    expect(tried.shipping_channel_id).toBe(channels.home);
    expect(tried.rules.map((r: { name: string; chose: boolean; reason: string }) => [r.name, r.chose, r.reason])).toEqual([
      ['Heavy', false, 'its weight 1.5 kg is below 20 kg'],
      ['Western Slovakia', true, 'the cheapest of 2 priced channels: PPL home at 140 CZK'],
    ]);
    expect(tried.quotes.map((q: { price: number }) => q.price)).toEqual([140, 160]);

    const east = await a.request('POST', '/v1/shipping-rules/test', { ...body, destination_address: { ...body.destination_address as object, city_name: 'Košice', postal_code: '040 01' } });
    expect(east.json().data.rules[1]).toMatchObject({ name: 'Western Slovakia', chose: false, reason: 'its postal code 040 01 starts with none of 8, 9' });
    expect(east.json().data.chosen_by.name).toBe('Default');

    // a channel that prices in euros cannot be compared with one in crowns: the rule passes, saying why
    await a.request('PATCH', `/v1/shipping-channels/${channels.slovakia}`, { price_list: { ...priceList(6), currency: 'EUR' } });
    const mixed = await a.request('POST', '/v1/shipping-rules/test', body);
    expect(mixed.json().data.rules[1]).toMatchObject({
      name: 'Western Slovakia', chose: false, reason: 'its channels price it in different currencies (CZK, EUR), and packdesk keeps no exchange rates',
    });
    await a.request('PATCH', `/v1/shipping-channels/${channels.slovakia}`, { price_list: priceList(160) });

    const off = await a.request('PATCH', `/v1/shipping-rules/${cheapest.id}`, { active: false });
    expect(off.json().data.active).toBe(false);
    const skipped = await a.request('POST', '/v1/shipping-rules/test', body);
    expect(skipped.json().data.rules.map((r: { name: string }) => r.name)).toEqual(['Heavy', 'Default']);
    await a.request('DELETE', `/v1/shipping-rules/${cheapest.id}`);
  });

  it('ships every order of a file without channels by six rules (a fixture of 20 orders)', async () => {
    for (const { id } of (await a.request('GET', '/v1/shipping-rules')).json().data as Rule[]) await a.request('DELETE', `/v1/shipping-rules/${id}`);
    const use = (name: string) => ({ type: 'use_channel', shipping_channel_id: channels[name] });
    await addRule({ name: 'Heavy', conditions: { weight_kg: { min: 20 } }, action: use('heavy') });
    await addRule({ name: 'Wholesale', conditions: { metadata: { shop: 'wholesale*' } }, action: use('wholesale') });
    await addRule({ name: 'COD to Slovakia', conditions: { destination_countries: ['SK'], cash_on_delivery: true }, action: use('slovakia') });
    await addRule({ name: 'Express', conditions: { reference_pattern: 'EXP-*' }, action: use('express') });
    await addRule({
      name: 'Western Slovakia', conditions: { destination_countries: ['SK'], destination_postal_code_prefixes: ['8', '9'] },
      action: { type: 'cheapest', shipping_channel_ids: [channels.slovakia, channels.home] },
    });
    await addRule({ name: 'Default', action: use('home') });

    const upload = await a.request('POST', '/v1/imports', { file_name: 'orders-20.csv', content_base64: fixture('orders-20.csv').toString('base64'), mapping: { defaults: SENDER } });
    expect(upload.statusCode, upload.body).toBe(202);
    const importId = upload.json().data.id as string;
    await vi.waitFor(async () => expect((await a.request('GET', `/v1/imports/${importId}`)).json().data.status).not.toBe('processing'), { timeout: 30_000, interval: 50 });
    const result = (await a.request('GET', `/v1/imports/${importId}/result`)).json().data as { reference_number: string; shipment_id: string | null; error: string | null }[];
    expect(result.filter((r) => r.error !== null)).toEqual([]);

    // "cheapest" orders go to the home channel: its list prices Slovakia at 140 CZK against 160
    const expected = fixture('expected-channels.txt').toString('utf8').trim().split('\n').map((line) => line.split(' ') as [string, string]);
    const got = await Promise.all(result.map(async (r) => {
      const s = (await a.request('GET', `/v1/shipments/${r.shipment_id}`)).json().data;
      return [r.reference_number, s.shipping_channel_id, s.chosen_by?.name];
    }));
    const ruleOf: Record<string, string> = { home: 'Default', heavy: 'Heavy', wholesale: 'Wholesale', slovakia: 'COD to Slovakia', express: 'Express', cheapest: 'Western Slovakia' };
    expect(got).toEqual(expected.map(([reference, outcome]) => [reference, channels[outcome === 'cheapest' ? 'home' : outcome], ruleOf[outcome]]));
    expect(new Set(got.map(([, , rule]) => rule)).size).toBe(6);
  });

  it("routes a watched folder's orders when the folder names no channel: a rule for that folder comes first", async () => {
    const made = await a.request('POST', '/v1/watched-folders', { path: join(root, 'b2b'), label_format: 'pdf' });
    expect(made.statusCode, made.body).toBe(201);
    const folder = made.json().data as { id: string; shipping_channel_id: string | null; folders: { in: string } };
    expect(folder.shipping_channel_id).toBeNull();
    await addRule({ name: 'B2B folder', position: 1, conditions: { import_folder_ids: [folder.id] }, action: { type: 'use_channel', shipping_channel_id: channels.wholesale } });

    writeFileSync(join(folder.folders.in, 'b2b.csv'), csvText([orderRow('B2B-1'), orderRow('B2B-2', { parcel_weight_amount: 24 })]));
    const [done] = await finishedImports(a, folder.id, 1);
    expect(done).toMatchObject({ status: 'done', shipments_created: 2, failed_rows: 0 });
    // the same kind of order uploaded, not from the folder, is routed by the other rules
    const tried = await a.request('POST', '/v1/shipping-rules/test', { ...shipmentBody(channels.home, { reference_number: 'B2B-3', parcels: [{ ...PARCEL_DEFAULTS, weight_amount: 24 }] }), shipping_channel_id: undefined });
    expect(tried.json().data.chosen_by.name).toBe('Heavy');
    expect(tried.json().data.rules[0]).toMatchObject({ name: 'B2B folder', chose: false, reason: 'it did not come from a watched folder' });
    for (const reference of ['B2B-1', 'B2B-2']) {
      const [listed] = (await a.request('GET', `/v1/shipments?search=${reference}`)).json().data as { id: string }[];
      const s = (await a.request('GET', `/v1/shipments/${listed!.id}`)).json().data;
      expect([s.shipping_channel_id, s.chosen_by.name]).toEqual([channels.wholesale, 'B2B folder']);
    }
  });

  it('keeps at most 200 rules for an account: the 201st is refused with 409, and position 201 is out of range', async () => {
    const shop = await d.account('Rule collector');
    const own = await pplChannel(shop, station.emu.urls.ppl!);
    const rule = (name: string, extra: Record<string, unknown> = {}) => shop.request('POST', '/v1/shipping-rules', { name, action: { type: 'use_channel', shipping_channel_id: own }, ...extra });
    for (let i = 1; i <= 200; i++) expect((await rule(`Rule ${i}`)).statusCode).toBe(201);
    const over = await rule('Rule 201');
    expect([over.statusCode, over.json().message]).toEqual([409, 'The account has 200 shipping rules, the most it may keep: delete one first.']);
    expect((await rule('At 201', { position: 201 })).statusCode).toBe(422);
    expect((await shop.request('GET', '/v1/shipping-rules')).json().data).toHaveLength(200);
  });
});

