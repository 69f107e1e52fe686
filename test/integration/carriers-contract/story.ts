import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startEmulators, type RunningEmulators } from '../../../src/carriers/emulator/server.js';
import { listProviders } from '../../../src/carriers/registry.js';
import type { DemoStory, ProviderDefinition } from '../../../src/carriers/types.js';
import type { PriceList } from '../../../src/domain/price-list.js';
import { LABEL_FORMATS, type LabelFormat } from '../../../src/domain/labels.js';
import { decodeEplBarcodes, decodePdfBarcodes, decodePngBarcodes, decodeZplBarcodes } from '../../helpers/barcodes.js';
import { startTestDaemon, type TestAccount, type TestDaemon } from '../../helpers/harness.js';
import { pdfText } from '../../helpers/dispatch-adapter.js';
import { parcelsOf } from '../../helpers/shipments.js';

/**
 * One story for every provider, end to end: our daemon, the carrier's real adapter code over HTTP,
 * the carrier's emulator. A new carrier is tested by its `fixtures/contract.json` (the provider's `demo`).
 */

interface EmulatedRecord { referenceId: string; shipmentNumbers: string[]; cancelled: boolean }

const HOUR = 3_600_000;

const decoders: Record<LabelFormat, (bytes: Buffer) => Promise<string[][]> | string[][]> = {
  pdf: (bytes) => decodePdfBarcodes(bytes),
  zpl: (bytes) => decodeZplBarcodes(bytes.toString('utf8')),
  epl: (bytes) => decodeEplBarcodes(bytes),
};

/** The story runs in this many test files, `part-N.test.ts`, so the providers' stories run side by side. */
export const CONTRACT_PARTS = 4;

const CONVERTED_GRAPHIC = { zpl: /\^GFA,\d+,\d+,\d+,:Z64:/, epl: /\nGW\d+,\d+,\d+,\d+,/ };

/**
 * The price list of a channel whose carrier answers no price: the demo's countries (its origin too, where a return
 * goes), in the currency its COD shipments collect, so the COD percentage applies.
 */
function demoPriceList(shipment: DemoStory['shipment']): PriceList {
  const countryOf = (address: unknown) => (address as { country_code: string }).country_code;
  return {
    currency: shipment.cash_on_delivery_currency as string,
    zones: [{ name: 'home', countries: [...new Set([countryOf(shipment.destination_address), countryOf(shipment.origin_address)])] }],
    bands: [{ max_weight_kg: 1, prices: { home: 80 } }, { max_weight_kg: 5, prices: { home: 110 } }],
    cod: { fixed: 30, percent: 1 }, fuel_percent: 12.5, extra_parcel: 15,
  };
}

/** Part `part` of CONTRACT_PARTS: every provider whose place in the registry is `part` modulo CONTRACT_PARTS. */
export function shippingStories(part: number): void {
  const providers = listProviders().filter((_, i) => i % CONTRACT_PARTS === part - 1);
  describe.each(providers.map((p) => [p.code, p] as const))('the shipping story with %s', (code, provider) => story(code, provider));
}

function story(code: string, provider: ProviderDefinition): void {
  const contract = provider.demo;
  // the currency goes only on COD shipments
  const { cash_on_delivery_currency: codCurrency, ...parties } = contract.shipment;
  // where the carrier's creation answer has no price, the story's channels carry their own
  const priceList = contract.price ? null : demoPriceList(contract.shipment);
  let d: TestDaemon;
  let emu: RunningEmulators;
  let a: TestAccount;
  let channel: string;

  const control = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${emu.url}/_emulator/${code}/${path}`, {
      method, ...(body !== undefined ? { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) } : {}),
    });
    expect(res.status, `${method} /_emulator/${code}/${path}: ${await res.clone().text()}`).toBe(200);
    return res.json() as Promise<Record<string, unknown>>;
  };
  const held = async (id: string) => ((await control('GET', 'shipments')).shipments as EmulatedRecord[]).filter((s) => s.referenceId === id);
  const get = async (id: string) => (await a.request('GET', `/v1/shipments/${id}`)).json().data;
  const body = (overrides: Record<string, unknown> = {}) => ({
    shipping_channel_id: channel, label_format: 'pdf', reference_number: `${code.toUpperCase()}-1`,
    parcels: parcelsOf(1), ...parties, ...overrides,
  });
  /** Every shipment the story creates has its price: from the carrier's creation answer, else from the channel's price list. */
  const expectCreatedAndPriced = (s: { status: string; failure: unknown; total_price: unknown; currency: unknown; price_source: unknown }) => {
    expect({ status: s.status, total_price: s.total_price, currency: s.currency, price_source: s.price_source }, JSON.stringify(s.failure)).toEqual({
      status: 'created', total_price: expect.any(Number),
      ...(contract.price ? { currency: contract.price.currency, price_source: contract.price.source ?? 'carrier' } : { currency: priceList!.currency, price_source: 'price_list' }),
    });
  };
  const create = async (overrides: Record<string, unknown> = {}) => {
    const res = await a.request('POST', '/v1/shipments', body(overrides));
    expect(res.statusCode, res.body).toBe(201);
    await d.runJobs();
    const s = await get(res.json().data.id);
    expectCreatedAndPriced(s);
    return s;
  };
  const numbersOf = (s: { parcels: { tracking_number: string }[] }) => s.parcels.map((p) => p.tracking_number);
  /** Hands shipments over in a dispatch and runs it until it is no longer pending (past any backoff); the dispatch then. */
  const handOver = async (ids: string[]) => {
    const made = await a.request('POST', '/v1/dispatches', { shipping_channel_id: channel, shipment_ids: ids });
    expect(made.statusCode, made.body).toBe(201);
    const dispatchOf = async () => (await a.request('GET', `/v1/dispatches/${made.json().data.id}`)).json().data;
    for (let round = 0; round < 4 && (await dispatchOf()).status === 'pending'; round++) {
      await d.runJobs();
      d.clock.advance(5 * HOUR);
    }
    return dispatchOf();
  };
  /** A carrier that receives parcels only once the day is closed (GLS Poland) tracks them after their dispatch. */
  const created = async (overrides: Record<string, unknown>) => {
    const s = await create(overrides);
    if (provider.adapter.dispatch?.capabilities.close) expect((await handOver([s.id])).status).toBe('dispatched');
    return s;
  };
  /** A channel on the emulator with the demo settings (and `extra`) and the story's price list, authorized at the carrier where a person must approve; its state once validated. */
  const openChannel = async (name: string, extra: Record<string, unknown> = {}) => {
    const res = await a.request('POST', '/v1/shipping-channels', {
      name, provider: code, settings: { ...contract.settings, ...extra, baseUrl: emu.urls[code] }, price_list: priceList,
    });
    expect(res.statusCode, res.body).toBe(201);
    const id: string = res.json().data.id;
    if (provider.userAuthorization) {
      // a person approves packdesk at the carrier; the emulator's control endpoint plays them
      expect(res.json().data.status).toBe('authorization_required');
      const started = await a.request('POST', `/v1/shipping-channels/${id}/authorize`);
      expect(started.statusCode, started.body).toBe(200);
      await control('POST', `device/${started.json().data.user_code}/approve`);
      d.clock.advance(60_000);
      await d.runJobs();
    }
    return (await a.request('GET', `/v1/shipping-channels/${id}`)).json().data;
  };

  beforeAll(async () => {
    d = await startTestDaemon({ carrierTimeoutMs: 2500 }); // a first label under load takes its time; the timeout fault holds 3 s
    emu = await startEmulators({ providers: [code], port: 0, clock: d.clock });
    a = await d.account(`${provider.name} shop`);
  });
  afterAll(async () => {
    await d?.close();
    await emu?.close();
  });
  beforeEach(async () => {
    if (emu) await control('POST', 'faults', { mode: 'none' });
  });

  it('validates the channel with a cheap authenticated call, and refuses a wrong credential with the carrier\'s reason', async () => {
    const validated = await openChannel(`${provider.name} (emulator)`);
    channel = validated.id;
    expect(validated.status, JSON.stringify(validated.validation_error)).toBe('active');

    const secretKey = provider.settings.find((s) => s.secret)!.key;
    const bad = await a.request('POST', '/v1/shipping-channels', {
      name: `${provider.name} wrong`, provider: code, settings: { ...contract.settings, [secretKey]: 'bad-secret', baseUrl: emu.urls[code] },
    });
    expect(bad.statusCode, bad.body).toBe(201);
    expect(bad.json().data.status).toBe('error');
    expect(JSON.stringify(bad.json().data.validation_error)).toContain(provider.name);
    expect(bad.body).not.toContain('bad-secret');
  });

  it.each(LABEL_FORMATS.map((f) => [f]))('creates a 2-parcel COD shipment with %s labels (the carrier\'s or converted) whose barcodes and pictures decode to the tracking numbers in order', async (format) => {
    const s = await create({ label_format: format, parcels: parcelsOf(2), cash_on_delivery_amount: 1249.5, cash_on_delivery_currency: codCurrency, reference_number: `COD-${format}` });
    expect(s.product).toBe(contract.product.cod);
    const numbers = numbersOf(s);
    expect(new Set(numbers).size).toBe(2);
    for (const n of numbers) expect(n).toMatch(provider.adapter.trackingNumberPattern!);
    expect(s.parcels[0].tracking_url).toContain(numbers[0]);
    const atCarrier = await held(s.id);
    expect(atCarrier).toHaveLength(1);
    expect(atCarrier[0]!.shipmentNumbers).toEqual(numbers);
    const label = await a.request('GET', `/v1/shipments/${s.id}/label`);
    expect(label.statusCode, label.body).toBe(200);
    const { content, source } = label.json().data.label;
    const native = provider.capabilities.nativeLabelFormats.includes(format);
    expect(source).toBe(native ? 'carrier' : 'converted');
    // every carrier gives PDF: what packdesk converts is a thermal graphic
    if (!native) expect(Buffer.from(content, 'base64').toString('latin1')).toMatch(CONVERTED_GRAPHIC[format as 'zpl' | 'epl']);
    expect(await decoders[format](Buffer.from(content, 'base64'))).toEqual(numbers.map((n: string) => [n]));
    const picture = await a.request('GET', `/v1/shipments/${s.id}/label?format=png&parcel=2`, undefined, { accept: 'image/png' });
    expect(picture.statusCode, picture.body).toBe(200);
    expect(picture.headers['content-type']).toBe('image/png');
    expect(await decodePngBarcodes(picture.rawPayload)).toEqual([numbers[1]]);
  });

  // the emulator stands in for the carrier's production and sandbox services alike, whatever differs on the wire
  it.each([[true], [false]])('validates a channel with sandboxMode %s and creates a shipment on it whose label decodes', async (sandboxMode) => {
    const opened = await openChannel(`${provider.name} (sandboxMode ${sandboxMode})`, { sandboxMode });
    expect(opened.status, JSON.stringify(opened.validation_error)).toBe('active');
    const s = await create({ shipping_channel_id: opened.id, reference_number: `SANDBOX-${sandboxMode}` });
    const label = await a.request('GET', `/v1/shipments/${s.id}/label`);
    expect(label.statusCode, label.body).toBe(200);
    expect(await decodePdfBarcodes(Buffer.from(label.json().data.label.content, 'base64'))).toEqual(numbersOf(s).map((n: string) => [n]));
  });

  it(`creates a plain shipment with the channel's product, priced ${contract.price ? 'as the carrier answers' : "by the channel's price list"}`, async () => {
    const s = await create({ reference_number: 'PLAIN-1' });
    expect(s.product).toBe(contract.product.plain);
    // by the list: one 1 kg parcel, the first band's 80 with 12.5 % fuel = 90
    expect([s.total_price, s.currency, s.price_source]).toEqual(contract.price ? [contract.price.plain, contract.price.currency, contract.price.source ?? 'carrier'] : [90, codCurrency, 'price_list']);
  });

  it.skipIf(provider.capabilities.trackingPerShipment)('tracks parcels to delivered and to returned by polling alone', async () => {
    const s = await created({ parcels: parcelsOf(2), reference_number: 'TRACK-1' });
    const [n1, n2] = numbersOf(s) as [string, string];
    await control('POST', `parcels/${n1}/advance`, { to: 'delivered' });
    await control('POST', `parcels/${n2}/advance`, { to: 'returned' });
    d.clock.advance(7 * HOUR);
    await d.runJobs();
    const now = await get(s.id);
    expect(now.parcels.map((p: { tracking_status: string }) => p.tracking_status)).toEqual(['delivered', 'returned']);
    expect(now.status).toBe('returned');
  });

  it.runIf(provider.capabilities.trackingPerShipment)('tracks a shipment whose parcels share its state to delivered by polling alone', async () => {
    const s = await created({ parcels: parcelsOf(2), reference_number: 'TRACK-1' });
    await control('POST', `parcels/${numbersOf(s)[0]}/advance`, { to: 'delivered' });
    d.clock.advance(7 * HOUR);
    await d.runJobs();
    const now = await get(s.id);
    expect(now.parcels.map((p: { tracking_status: string }) => p.tracking_status)).toEqual(['delivered', 'delivered']);
    expect(now.status).toBe('delivered');
  });

  // only the statuses the carrier has codes for: SP Express, for one, has no pickup points
  const waiting = (['ready_for_pickup', 'on_hold'] as const).filter((t) => Object.values(provider.trackingCodes.codes).some((c) => c.status === t));
  it.each(waiting.map((t) => [t]))('tracks a parcel to %s in the carrier\'s own codes', async (target) => {
    const s = await created({ reference_number: `TRACK-${target}` });
    await control('POST', `parcels/${numbersOf(s)[0]}/advance`, { to: target });
    d.clock.advance(7 * HOUR);
    await d.runJobs();
    const now = await get(s.id);
    expect(now.parcels[0].tracking_status).toBe(target);
    expect(now.status).toBe('shipped');
  });

  it(provider.capabilities.cancel ? 'cancels a created shipment at the carrier' : 'refuses to cancel, naming the provider', async () => {
    const s = await create({ parcels: parcelsOf(2), reference_number: 'CANCEL-1' });
    const res = await a.request('POST', `/v1/shipments/${s.id}/cancel`);
    if (provider.capabilities.cancel) {
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().data.status).toBe('cancelled');
      expect((await held(s.id))[0]!.cancelled).toBe(true);
    } else {
      expect(res.statusCode, res.body).toBe(422);
      expect(res.json().message).toContain(code);
      expect((await get(s.id)).status).toBe('created');
    }
  });

  it(provider.capabilities.returns ? "makes a shipment's return label, the parties swapped, its label scanning, tracked to delivered at the warehouse" : 'refuses a return label, naming the provider', async () => {
    const outbound = await created({ reference_number: 'RETURN-1' });
    const returnChannel = contract.returnSettings ? { shipping_channel_id: (await openChannel('Returns', contract.returnSettings)).id } : {};
    const res = await a.request('POST', `/v1/shipments/${outbound.id}/return`, returnChannel);
    if (!provider.capabilities.returns) {
      expect(res.statusCode, res.body).toBe(422);
      expect(res.json().errors).toEqual({ shipping_channel_id: [`${provider.name} makes no return labels through packdesk`] });
      return;
    }
    expect(res.statusCode, res.body).toBe(201);
    await d.runJobs();
    const back = await get(res.json().data.id);
    expectCreatedAndPriced(back);
    expect(back).toMatchObject({ return_of: outbound.id, cash_on_delivery_amount: null, sender_contact: outbound.recipient_contact, recipient_contact: outbound.sender_contact });
    const label = await a.request('GET', `/v1/shipments/${back.id}/label?download=1`);
    expect(await decodePdfBarcodes(label.rawPayload)).toEqual(numbersOf(back).map((n: string) => [n]));
    await control('POST', `parcels/${numbersOf(back)[0]}/advance`, { to: 'delivered' });
    d.clock.advance(7 * HOUR);
    await d.runJobs();
    expect((await get(back.id)).status).toBe('delivered');
  });

  it.each([
    [{ mode: 'error500', count: 2 }], [{ mode: 'rate_limit', count: 1 }], [{ mode: 'timeout', count: 1, ms: 3000 }], [{ mode: 'expire_tokens' }],
  ])('creates the shipment exactly once at the carrier through %o', async (fault) => {
    await control('POST', 'faults', fault);
    const res = await a.request('POST', '/v1/shipments', body({ reference_number: `FAULT-${fault.mode}` }));
    const id = res.json().data.id;
    for (let round = 0; round < 6 && (await get(id)).status === 'pending'; round++) {
      await d.runJobs();
      d.clock.advance(5 * HOUR); // past any backoff
    }
    expectCreatedAndPriced(await get(id));
    expect((await held(id)).filter((r) => !r.cancelled)).toHaveLength(1);
  });

  const handsOver = provider.adapter.dispatch?.capabilities;
  it(`hands 3 shipments over at the end of the day through an error 500 (${handsOver && (handsOver.close || handsOver.protocol) ? "the carrier's close or protocol" : "packdesk's hand-over list"}), the document naming every parcel`, async () => {
    const day = [await create({ reference_number: 'DAY-1' }), await create({ reference_number: 'DAY-2', parcels: parcelsOf(2) }), await create({ reference_number: 'DAY-3' })];
    await control('POST', 'faults', { mode: 'error500', count: 1 });
    const dispatched = await handOver(day.map((s) => s.id));
    expect(dispatched.status, JSON.stringify(dispatched.failure)).toBe('dispatched');
    expect(dispatched.parcels_count).toBe(4);
    const document = (await a.request('GET', `/v1/dispatches/${dispatched.id}/document`)).rawPayload;
    const numbers = day.flatMap(numbersOf).sort();
    // packdesk's list carries a barcode a parcel; a carrier's protocol lists the numbers as text
    if (dispatched.document_source === 'packdesk') expect((await decodePdfBarcodes(document)).flat().sort()).toEqual(numbers);
    else for (const n of numbers) expect(pdfText(document)).toContain(n);
  });

  it('keeps a refused shipment pending with the failure on our field path; PATCH fixes it and it is created', async () => {
    const id = (await a.request('POST', '/v1/shipments', body({ reference_number: 'REFUSED-1', ...contract.refusal.patch }))).json().data.id;
    await d.runJobs();
    const failed = await get(id);
    expect(failed.status).toBe('pending');
    expect(failed.failure.errors, JSON.stringify(failed.failure)).toHaveProperty([contract.refusal.path]);
    expect(failed.next_attempt_at).toBeNull();
    const fix = await a.request('PATCH', `/v1/shipments/${id}`, contract.refusal.fix);
    expect(fix.statusCode, fix.body).toBe(200);
    await d.runJobs();
    expectCreatedAndPriced(await get(id));
    expect((await held(id)).filter((r) => !r.cancelled)).toHaveLength(1);
  });
}
