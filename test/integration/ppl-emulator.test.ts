import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/domain/clock.js';
import { startEmulators, type RunningEmulators } from '../../src/carriers/emulator/server.js';
import { decodePdfBarcodes, decodeZplBarcodes } from '../helpers/barcodes.js';

const CLIENT = { id: 'packdesk-warehouse', secret: 'pplsecret-123' };

interface BatchItem {
  referenceId: string;
  shipmentNumber?: string;
  labelUrl?: string;
  importState: string;
  relatedItems: { shipmentNumber: string; labelUrl: string }[];
}
interface BatchStatus {
  items: BatchItem[];
  completeLabel?: { labelUrls: string[] };
}
interface TrackedParcel {
  shipmentNumber: string;
  shipmentState: string;
  shipmentSet: { masterShipmentNumber: string; shipmentsInSet: number; shipmentInSetNumber: number };
  trackAndTrace: { lastEventCode: string; events: { statusId: number; code: string; name: string; eventDate: string }[] };
}

function address(name: string, street: string, zipCode: string, city: string, country = 'CZ') {
  return { name, street, city, zipCode, country, phone: '+420777111222', email: 'orders@example.cz' };
}

function shipment(referenceId: string, overrides: Record<string, unknown> = {}) {
  return {
    referenceId,
    productType: 'PRIV',
    sender: address('Sklad Praha s.r.o.', 'Skladová 12', '110 00', 'Praha'),
    recipient: address('Řehoř Šťastný', 'Vodičkova 7', '602 00', 'Brno'),
    externalNumbers: [{ code: 'CUST', externalNumber: referenceId }],
    note: 'fragile',
    ...overrides,
  };
}

function threeParcelCod(referenceId: string) {
  return shipment(referenceId, {
    productType: 'PRID',
    shipmentSet: { numberOfShipments: 3, shipmentSetItems: [1.2, 0.8, 2.5].map((weight) => ({ weighedShipmentInfo: { weight } })) },
    cashOnDelivery: { codPrice: 1490.5, codCurrency: 'CZK', codVarSym: '2026001' },
  });
}

/** A 4×6 in, 8 dots/mm raster of a ZPL label, rendered offline. */
function batch(format: string, shipments: unknown[]) {
  return {
    returnChannel: { type: 'None' },
    labelSettings: { format, completeLabelSettings: { isCompleteLabelRequested: true, pageSize: 'Default', position: 1 } },
    shipments,
  };
}

describe('PPL CPL API emulator over HTTP', () => {
  const clock = new ManualClock();
  let emulators: RunningEmulators;
  let base: string;

  const control = (method: string, path: string, body?: unknown) =>
    fetch(`${emulators.url}/_emulator/ppl${path}`, {
      method, ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
    });
  const requestToken = (clientId = CLIENT.id, clientSecret = CLIENT.secret) =>
    fetch(`${base}/login/getAccessToken`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret, scope: 'myapi2' }),
    });
  const token = async (clientId = CLIENT.id) => ((await (await requestToken(clientId)).json()) as { access_token: string }).access_token;
  const api = (accessToken: string, path: string, init: { method?: string; body?: unknown; signal?: AbortSignal } = {}) =>
    fetch(path.startsWith('http') ? path : `${base}${path}`, {
      method: init.method ?? 'GET',
      headers: { authorization: `Bearer ${accessToken}`, ...(init.body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
      signal: init.signal,
    });
  const heldShipments = async () => ((await (await control('GET', '/shipments')).json()) as { shipments: Record<string, unknown>[] }).shipments;

  /** Posts a batch and polls it until Complete, as the adapter does. */
  async function createShipments(accessToken: string, format: string, shipments: unknown[]): Promise<{ location: string; status: BatchStatus }> {
    const res = await api(accessToken, '/shipment/batch', { method: 'POST', body: batch(format, shipments) });
    expect(res.status).toBe(201);
    const location = res.headers.get('location')!;
    let status = (await (await api(accessToken, location)).json()) as BatchStatus;
    while (status.items.some((item) => item.importState !== 'Complete')) status = (await (await api(accessToken, location)).json()) as BatchStatus;
    return { location, status };
  }

  async function track(accessToken: string, query: string): Promise<TrackedParcel[]> {
    const res = await api(accessToken, `/shipment?${query}`);
    expect(res.status).toBe(200);
    return (await res.json()) as TrackedParcel[];
  }

  beforeAll(async () => {
    emulators = await startEmulators({ providers: ['ppl'], port: 0, clock });
    base = emulators.urls.ppl!;
  });
  afterAll(() => emulators.close());
  beforeEach(async () => {
    expect((await control('POST', '/reset')).status).toBe(200);
  });

  it('issues 30-minute bearer tokens for client credentials and refuses credentials starting with "bad"', async () => {
    const res = await requestToken();
    expect(res.status).toBe(200);
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ token_type: 'Bearer', expires_in: 1800, scope: 'myapi2' });
    const accessToken = body.access_token as string;

    const products = await api(accessToken, '/codelist/product?Limit=100&Offset=0');
    expect(products.status).toBe(200);
    expect(((await products.json()) as { code: string }[]).map((p) => p.code)).toEqual(expect.arrayContaining(['PRIV', 'PRID', 'SMAR', 'SMAD', 'COPL', 'RETD']));
    expect((await fetch(`${base}/info`)).status).toBe(200);

    const anonymous = await fetch(`${base}/codelist/product?Limit=1&Offset=0`);
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toMatchObject({ title: 'Unauthorized', status: 401, instance: '/codelist/product' });

    for (const [id, secret] of [['bad-client', CLIENT.secret], [CLIENT.id, 'bad-secret']] as const) {
      const refused = await requestToken(id, secret);
      expect(refused.status).toBe(401);
      expect(await refused.json()).toMatchObject({ error: 'invalid_client' });
    }

    clock.advance(30 * 60_000 + 1000);
    expect((await api(accessToken, '/codelist/product?Limit=1&Offset=0')).status).toBe(401);
  });

  it('allows 12 token requests per minute per client, then answers 429 until the minute has passed', async () => {
    for (let i = 0; i < 12; i += 1) expect((await requestToken('rate-client')).status).toBe(200);
    const limited = await requestToken('rate-client');
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await requestToken('another-client')).status).toBe(200);
    clock.advance(60_000);
    expect((await requestToken('rate-client')).status).toBe(200);
  });

  it('creates a one-parcel PDF shipment asynchronously: 201 + Location, InProcess, then Complete with a label that scans', async () => {
    const accessToken = await token();
    const created = await api(accessToken, '/shipment/batch', { method: 'POST', body: batch('Pdf', [shipment('ORDER-1001')]) });
    expect(created.status).toBe(201);
    expect(await created.text()).toBe('');
    const location = created.headers.get('location')!;
    expect(location).toMatch(new RegExp(`^${base}/shipment/batch/[0-9a-f-]{36}$`));

    const first = (await (await api(accessToken, location)).json()) as BatchStatus;
    expect(first.items).toEqual([expect.objectContaining({ referenceId: 'ORDER-1001', importState: 'InProcess' })]);
    expect(first.items[0]!.shipmentNumber).toBeUndefined();

    const second = (await (await api(accessToken, location)).json()) as BatchStatus;
    const item = second.items[0]!;
    expect(item).toMatchObject({ referenceId: 'ORDER-1001', importState: 'Complete', relatedItems: [] });
    expect(item.shipmentNumber).toMatch(/^\d{11}$/);
    expect(item.labelUrl).toMatch(new RegExp(`^${base}/data/`));
    expect(second.completeLabel!.labelUrls).toEqual([`${location}/label?pageSize=Default&position=1&limit=200&offset=0`]);

    const label = await api(accessToken, item.labelUrl!);
    expect(label.status).toBe(200);
    expect(label.headers.get('content-type')).toBe('application/pdf');
    const pdf = Buffer.from(await label.arrayBuffer());
    expect(await decodePdfBarcodes(pdf)).toEqual([[item.shipmentNumber]]);
    expect(Buffer.from(await (await api(accessToken, item.labelUrl!)).arrayBuffer()).equals(pdf)).toBe(true);
    expect((await fetch(item.labelUrl!)).status).toBe(401);
  });

  it('creates a three-parcel COD shipment with consecutive numbers and one scannable PDF page per parcel', async () => {
    const accessToken = await token();
    const { status } = await createShipments(accessToken, 'Pdf', [threeParcelCod('ORDER-2001')]);
    const item = status.items[0]!;
    const numbers = [item.shipmentNumber!, ...item.relatedItems.map((r) => r.shipmentNumber)];
    expect(numbers).toHaveLength(3);
    for (const n of numbers) expect(n).toMatch(/^\d{11}$/);
    expect(numbers.map(Number)).toEqual([0, 1, 2].map((i) => Number(numbers[0]) + i));

    const labelUrls = [item.labelUrl!, ...item.relatedItems.map((r) => r.labelUrl)];
    for (const [i, url] of labelUrls.entries()) {
      const pdf = Buffer.from(await (await api(accessToken, url)).arrayBuffer());
      expect(await decodePdfBarcodes(pdf)).toEqual([[numbers[i]]]);
    }
    const merged = Buffer.from(await (await api(accessToken, status.completeLabel!.labelUrls[0]!)).arrayBuffer());
    expect(await decodePdfBarcodes(merged)).toEqual(numbers.map((n) => [n]));

    const [held] = await heldShipments();
    expect(held).toMatchObject({
      referenceId: 'ORDER-2001', productType: 'PRID', shipmentNumbers: numbers, state: 'Active', labelFormat: 'Pdf',
      cashOnDelivery: { codPrice: 1490.5, codCurrency: 'CZK', codVarSym: '2026001' }, recipient: { name: 'Řehoř Šťastný' },
    });
  });

  it('links the whole batch\'s label document only when the batch asked for it', async () => {
    const accessToken = await token();
    const body = { ...batch('Pdf', [threeParcelCod('ORDER-2501')]), labelSettings: { format: 'Pdf', completeLabelSettings: { isCompleteLabelRequested: false } } };
    const location = (await api(accessToken, '/shipment/batch', { method: 'POST', body })).headers.get('location')!;
    await api(accessToken, location);
    const status = (await (await api(accessToken, location)).json()) as BatchStatus;
    expect(status.items[0]).toMatchObject({ importState: 'Complete', relatedItems: [expect.objectContaining({ labelUrl: expect.any(String) }), expect.anything()] });
    expect(status).not.toHaveProperty('completeLabel');
  });

  it('prints ZPL labels: one ^XA…^XZ block per parcel with a Code 128 of the parcel number', async () => {
    const accessToken = await token();
    const { status } = await createShipments(accessToken, 'Zpl', [threeParcelCod('ORDER-3001')]);
    const item = status.items[0]!;
    const parcels = [{ shipmentNumber: item.shipmentNumber!, labelUrl: item.labelUrl! }, ...item.relatedItems];
    for (const [i, parcel] of parcels.entries()) {
      const res = await api(accessToken, parcel.labelUrl);
      expect(res.headers.get('content-type')).toContain('application/zpl');
      const zpl = await res.text();
      expect(zpl.match(/\^XA/g)).toHaveLength(1);
      expect(zpl).toContain('^CI28');
      expect(zpl).toContain('^PW812');
      expect(zpl).toContain('^LL1218');
      expect(zpl).toMatch(new RegExp(`\\^BC[^\\n]*\\^FD>:${parcel.shipmentNumber}\\^FS`));
      expect(zpl).toContain(`parcel ${i + 1}/3`);
      expect(zpl).toContain('COD 1490.50 CZK');
      expect(await decodeZplBarcodes(zpl)).toEqual([[parcel.shipmentNumber]]);
    }
    const all = await (await api(accessToken, status.completeLabel!.labelUrls[0]!)).text();
    expect(all.match(/\^XA/g)).toHaveLength(3);
  });

  it('refuses invalid batches synchronously with problem details keyed by field path, creating nothing', async () => {
    const accessToken = await token();
    const cases: [unknown, string, RegExp][] = [
      [shipment('BAD-ZIP', { recipient: address('Jan Novák', 'Dlouhá 1', '1100', 'Praha') }), 'Shipments[0].Recipient.ZipCode', /5 digits/],
      [shipment('ZERO-ZIP', { recipient: address('Jan Novák', 'Dlouhá 1', '000 00', 'Praha') }), 'Shipments[0].Recipient.ZipCode', /Unknown postal code/],
      [shipment('COD-PRIV', { cashOnDelivery: { codPrice: 100, codCurrency: 'CZK' } }), 'Shipments[0].CashOnDelivery', /requires a COD product/],
      [shipment('NO-COD', { productType: 'PRID' }), 'Shipments[0].CashOnDelivery', /required/],
      [shipment('NO-NAME', { recipient: { ...address('', 'Dlouhá 1', '11000', 'Praha'), name: undefined } }), 'Shipments[0].Recipient.Name', /required/],
      [shipment('X'.repeat(129)), 'Shipments[0].ReferenceId', /maximum length of 128/],
      [shipment('UNKNOWN-PRODUCT', { productType: 'XXXX' }), 'Shipments[0].ProductType', /Unknown product/],
      [shipment('BAD-COUNTRY', { recipient: address('Anna Kowalska', 'ul. Długa 5', '90-001', 'Łódź', 'POL') }), 'Shipments[0].Recipient.Country', /ISO/],
      [shipment('TOO-MANY', { shipmentSet: { numberOfShipments: 21 } }), 'Shipments[0].ShipmentSet.NumberOfShipments', /at most 20/],
      [shipment('NO-PHONE', { recipient: { ...address('Řehoř Šťastný', 'Vodičkova 7', '602 00', 'Brno'), phone: undefined } }), 'Shipments[0].Recipient.Phone', /required for products with delivery notifications/],
      [
        shipment('HEAVY', { shipmentSet: { numberOfShipments: 2, shipmentSetItems: [{ weighedShipmentInfo: { weight: 2 } }, { weighedShipmentInfo: { weight: 32 } }] } }),
        'Shipments[0].ShipmentSet.ShipmentSetItems[1].WeighedShipmentInfo.Weight', /at most 31.5 kg for product PRIV/,
      ],
      [
        shipment('EXPORT-SET-COD', { productType: 'COND', recipient: address('Anna Kowalska', 'ul. Długa 5', '90-001', 'Łódź', 'PL'), shipmentSet: { numberOfShipments: 2 }, cashOnDelivery: { codPrice: 100, codCurrency: 'PLN' } }),
        'Shipments[0].ShipmentSet', /^Cash on delivery service is not allowed for export bundled shipments$/,
      ],
    ];
    for (const [body, key, message] of cases) {
      const res = await api(accessToken, '/shipment/batch', { method: 'POST', body: batch('Pdf', [body]) });
      expect(res.status, key).toBe(400);
      expect(res.headers.get('content-type')).toContain('application/problem+json');
      const problem = (await res.json()) as { title: string; status: number; instance: string; errors: Record<string, string[]> };
      expect(problem).toMatchObject({ title: 'BadRequest', status: 400, instance: '/shipment/batch' });
      expect(problem.errors[key], `${key} in ${JSON.stringify(problem.errors)}`).toEqual([expect.stringMatching(message)]);
    }
    const jpeg = await api(accessToken, '/shipment/batch', { method: 'POST', body: batch('Jpeg', [shipment('JPEG')]) });
    expect(((await jpeg.json()) as { errors: Record<string, string[]> }).errors).toHaveProperty(['LabelSettings.Format']);
    expect(await heldShipments()).toEqual([]);
  });

  it('misbehaves on request: two 500s then normal, 429 with Retry-After, latency, a timeout that drops the socket — none of them creating anything', async () => {
    const accessToken = await token();
    const post = () => api(accessToken, '/shipment/batch', { method: 'POST', body: batch('Pdf', [shipment('ORDER-FAULT')]) });

    expect((await control('POST', '/faults', { mode: 'error500', count: 2 })).status).toBe(200);
    expect(await (await control('GET', '/faults')).json()).toMatchObject({ mode: 'error500', count: 2 });
    expect((await post()).status).toBe(500);
    expect((await post()).status).toBe(500);
    expect(await heldShipments()).toEqual([]);
    expect((await post()).status).toBe(201);
    expect(await (await control('GET', '/faults')).json()).toMatchObject({ mode: 'none' });

    await control('POST', '/faults', { mode: 'rate_limit', count: 1 });
    const limited = await post();
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('1');

    await control('POST', '/faults', { mode: 'latency', ms: 300, count: 1 });
    const started = Date.now();
    expect((await api(accessToken, '/codelist/product?Limit=1&Offset=0')).status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(280);

    await control('POST', '/faults', { mode: 'timeout', ms: 200, count: 1 });
    await expect(post()).rejects.toThrow();
    await control('POST', '/faults', { mode: 'timeout' });
    const held = api(accessToken, '/shipment/batch', { method: 'POST', body: batch('Pdf', [shipment('ORDER-HELD')]), signal: AbortSignal.timeout(300) });
    await expect(held).rejects.toThrow();
    await control('POST', '/faults', { mode: 'none' });
    expect((await heldShipments()).map((s) => s.referenceId)).toEqual(['ORDER-FAULT']);
  });

  it('expires every issued token at once on expire_tokens; a new token works', async () => {
    const accessToken = await token();
    expect((await api(accessToken, '/codelist/product?Limit=1&Offset=0')).status).toBe(200);
    await control('POST', '/faults', { mode: 'expire_tokens' });
    const refused = await api(accessToken, '/codelist/product?Limit=1&Offset=0');
    expect(refused.status).toBe(401);
    expect(await refused.json()).toMatchObject({ title: 'Unauthorized', status: 401 });
    expect((await api(await token(), '/codelist/product?Limit=1&Offset=0')).status).toBe(200);
  });

  it('cancels a whole shipment before pickup (202 {}), but not once the parcel has moved', async () => {
    const accessToken = await token();
    const { status } = await createShipments(accessToken, 'Pdf', [threeParcelCod('ORDER-4001'), shipment('ORDER-4002')]);
    const [set, single] = status.items as [BatchItem, BatchItem];

    const cancelled = await api(accessToken, `/shipment/${set.relatedItems[1]!.shipmentNumber}/cancel`, { method: 'POST' });
    expect(cancelled.status).toBe(202);
    expect(await cancelled.json()).toEqual({});
    const held = await heldShipments();
    expect(held.map((s) => [s.referenceId, s.state])).toEqual([['ORDER-4001', 'Canceled'], ['ORDER-4002', 'Active']]);
    const tracked = await track(accessToken, `ShipmentNumbers=${set.shipmentNumber}`);
    expect(tracked[0]).toMatchObject({ shipmentState: 'Canceled', trackAndTrace: { lastEventCode: '999' } });

    expect((await control('POST', `/parcels/${single.shipmentNumber}/advance`)).status).toBe(200);
    const refused = await api(accessToken, `/shipment/${single.shipmentNumber}/cancel`, { method: 'POST' });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ status: 400, detail: 'Shipment cannot be cancelled' });
    expect((await api(accessToken, '/shipment/99999999999/cancel', { method: 'POST' })).status).toBe(404);
  });

  it('walks a parcel to delivered along 900 → 150 → 500 → 300 → 400 → 450 and tracks it by number and by reference', async () => {
    const accessToken = await token();
    const { status } = await createShipments(accessToken, 'Pdf', [threeParcelCod('ORDER-5001')]);
    const master = status.items[0]!.shipmentNumber!;
    const second = status.items[0]!.relatedItems[0]!.shipmentNumber;

    const step = await control('POST', `/parcels/${master}/advance`);
    expect(((await step.json()) as { events: { statusId: number }[] }).events.map((e) => e.statusId)).toEqual([150]);
    const jump = await control('POST', `/parcels/${master}/advance`, { to: 'delivered' });
    expect(((await jump.json()) as { events: { statusId: number }[] }).events.map((e) => e.statusId)).toEqual([500, 300, 400, 450]);
    expect((await control('POST', `/parcels/${master}/advance`)).status).toBe(409);
    expect((await control('POST', '/parcels/12345678901/advance')).status).toBe(404);

    const delivered = await track(accessToken, `ShipmentNumbers=${master}&ShipmentNumbers=12345678901`);
    expect(delivered).toHaveLength(1);
    expect(delivered[0]).toMatchObject({
      shipmentNumber: master, shipmentState: 'Delivered',
      shipmentSet: { masterShipmentNumber: master, shipmentsInSet: 3, shipmentInSetNumber: 1 },
      trackAndTrace: { lastEventCode: '450' },
    });
    const events = delivered[0]!.trackAndTrace.events;
    expect(events.map((e) => e.statusId)).toEqual([900, 150, 500, 300, 400, 450]);
    expect([...events].sort((a, b) => a.eventDate.localeCompare(b.eventDate))).toEqual(events);

    const returned = await control('POST', `/parcels/${second}/advance`, { to: 'returned' });
    expect(((await returned.json()) as { events: { statusId: number }[] }).events.map((e) => e.statusId)).toEqual([150, 500, 300, 400, 464]);
    const byReference = await track(accessToken, 'CustomerReferences=ORDER-5001');
    expect(byReference.map((p) => [p.shipmentNumber, p.shipmentState])).toEqual([
      [master, 'Delivered'], [second, 'Rejected'], [status.items[0]!.relatedItems[1]!.shipmentNumber, 'Active'],
    ]);
    expect(await track(await token('someone-else'), `ShipmentNumbers=${master}`)).toEqual([]);
  });

  it('answers unknown batches with 404 problem details and lists exactly the shipments it holds', async () => {
    const accessToken = await token();
    const missing = await api(accessToken, '/shipment/batch/00000000-0000-4000-8000-000000000000');
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ title: 'NotFound', status: 404 });

    await createShipments(accessToken, 'Pdf', [shipment('ORDER-6001'), shipment('ORDER-6002')]);
    await createShipments(accessToken, 'Zpl', [threeParcelCod('ORDER-6003')]);
    const held = await heldShipments();
    expect(held.map((s) => s.referenceId)).toEqual(['ORDER-6001', 'ORDER-6002', 'ORDER-6003']);
    expect(held.filter((s) => s.referenceId === 'ORDER-6003')).toHaveLength(1);
    expect(held[2]!.shipmentNumbers).toHaveLength(3);
    expect(held[0]).toMatchObject({ batchId: held[1]!.batchId, cashOnDelivery: null, labelFormat: 'Pdf', createdAt: expect.any(String) });
  });
});
