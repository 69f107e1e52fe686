import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { shipments } from '../../src/store/schema.js';
import { startEmulators, type RunningEmulators } from '../../src/carriers/emulator/server.js';
import { decodePdfBarcodes, decodeZplBarcodes } from '../helpers/barcodes.js';
import { startTestDaemon, type TestAccount, type TestDaemon } from '../helpers/harness.js';
import { parcelsOf, pplChannel, shipmentBody, pplEmulatorControl } from '../helpers/shipments.js';
import { recordingProxy } from '../helpers/recording-proxy.js';

describe('shipments end to end with PPL', () => {
  let d: TestDaemon;
  let emu: RunningEmulators;
  let a: TestAccount;
  let channel: string;

  const { fault, shipments: emulated } = pplEmulatorControl(() => emu.url);
  const get = async (id: string) => (await a.request('GET', `/v1/shipments/${id}`)).json().data;

  beforeAll(async () => {
    emu = await startEmulators({ providers: ['ppl'], port: 0 });
    d = await startTestDaemon({ carrierTimeoutMs: 1500 });
    a = await d.account('PPL shop');
    channel = await pplChannel(a, emu.urls.ppl!);
  });
  afterAll(async () => {
    await d.close();
    await emu.close();
  });
  beforeEach(async () => {
    await fault({ mode: 'none' });
  });

  it('creates a one-parcel shipment: pending, then created with a tracking number and a PDF label that scans', async () => {
    const res = await a.request('POST', '/v1/shipments', shipmentBody(channel, { reference_number: 'ONE-1' }));
    expect(res.statusCode, res.body).toBe(201);
    const pending = res.json().data;
    expect(pending).toMatchObject({ status: 'pending', has_label: false, reference_number: 'ONE-1', total_parcels_count: 1, is_international: false });
    expect(pending.id).toMatch(/^sh_/);
    expect(pending.parcels[0]).toMatchObject({ tracking_number: null, weight_amount: 1.5, weight_unit: 'KG', dimension_unit: 'CM', parcel_type: 'package' });
    await d.runJobs();
    const created = await get(pending.id);
    expect(created).toMatchObject({ status: 'created', has_label: true, product: 'PRIV', failure: null });
    const number = created.parcels[0].tracking_number as string;
    expect(number).toMatch(/^\d{11}$/);
    expect(created.provider_shipment_id).toBe(number);
    expect(created.parcels[0].tracking_url).toContain(number);
    const label = (await a.request('GET', `/v1/shipments/${pending.id}/label`)).json().data.label;
    expect(label).toMatchObject({ format: 'pdf', mime_type: 'application/pdf', pages: 1, source: 'carrier' });
    expect(await decodePdfBarcodes(Buffer.from(label.content, 'base64'))).toEqual([[number]]);
  });

  it('creates a three-parcel COD shipment with the COD product, one number per parcel, one page per parcel', async () => {
    const res = await a.request('POST', '/v1/shipments', shipmentBody(channel, {
      reference_number: 'COD-3', parcels: parcelsOf(3), cash_on_delivery_amount: 1299.5, cash_on_delivery_currency: 'CZK',
    }));
    expect(res.statusCode, res.body).toBe(201);
    await d.runJobs();
    const s = await get(res.json().data.id);
    expect(s).toMatchObject({ status: 'created', product: 'PRID', cash_on_delivery_amount: 1299.5, cash_on_delivery_currency: 'CZK', total_parcels_count: 3 });
    const numbers = s.parcels.map((p: { tracking_number: string }) => p.tracking_number);
    expect(new Set(numbers).size).toBe(3);
    const raw = await a.request('GET', `/v1/shipments/${s.id}/label`, undefined, { accept: 'application/pdf' });
    expect(raw.headers['content-type']).toBe('application/pdf');
    expect(raw.headers['content-disposition']).toBe('attachment; filename="COD-3.pdf"');
    expect(await decodePdfBarcodes(raw.rawPayload)).toEqual(numbers.map((n: string) => [n]));
    // a client naming every type it can read gets the one it prefers most
    const prefersJson = await a.request('GET', `/v1/shipments/${s.id}/label`, undefined, { accept: 'application/json, application/pdf, application/zpl' });
    expect(prefersJson.headers['content-type']).toMatch(/^application\/json/);
    const prefersPdf = await a.request('GET', `/v1/shipments/${s.id}/label`, undefined, { accept: 'application/json;q=0.5, application/pdf' });
    expect(prefersPdf.headers['content-type']).toBe('application/pdf');
    // pictures: one per parcel as JSON; a raw PNG needs one parcel named; parcel alone is not a label option
    const pictures = await a.request('GET', `/v1/shipments/${s.id}/label?format=png`);
    expect(pictures.json().data.images.map((i: { parcel: number; file_name: string }) => [i.parcel, i.file_name])).toEqual([[1, 'COD-3-1.png'], [2, 'COD-3-2.png'], [3, 'COD-3-3.png']]);
    const unnamed = await a.request('GET', `/v1/shipments/${s.id}/label?format=png`, undefined, { accept: 'image/png' });
    expect(unnamed.statusCode).toBe(422);
    expect(unnamed.json().errors).toEqual({ parcel: ['name one parcel (1 to 3) for a raw PNG'] });
    const beyond = await a.request('GET', `/v1/shipments/${s.id}/label?format=png&parcel=4`);
    expect(beyond.json().errors).toEqual({ parcel: ['must be from 1 to 3: the label has 3 parcel labels'] });
    const parcelOnly = await a.request('GET', `/v1/shipments/${s.id}/label?parcel=1`);
    expect(parcelOnly.statusCode).toBe(422);
    expect(parcelOnly.json().errors).toEqual({ parcel: ['is for format=png previews'] });
    const atCarrier = (await emulated()).filter((e) => e.referenceId === s.id);
    expect(atCarrier).toHaveLength(1);
    expect(atCarrier[0]).toMatchObject({ productType: 'PRID', shipmentNumbers: numbers });
  });

  it('merges ZPL labels block by block and every barcode decodes to its parcel', async () => {
    const res = await a.request('POST', '/v1/shipments', shipmentBody(channel, { reference_number: 'ZPL-2', label_format: 'zpl', parcels: parcelsOf(2) }));
    await d.runJobs();
    const s = await get(res.json().data.id);
    const numbers = s.parcels.map((p: { tracking_number: string }) => p.tracking_number);
    const raw = await a.request('GET', `/v1/shipments/${s.id}/label?download=1`);
    expect(raw.headers['content-type']).toBe('application/zpl');
    const zpl = raw.body;
    expect(zpl.match(/\^XA/g)).toHaveLength(2);
    expect(await decodeZplBarcodes(zpl)).toEqual(numbers.map((n: string) => [n]));
  });

  it('fetches a three-parcel shipment\'s labels from PPL in one call, and each parcel keeps its own label', async () => {
    const proxy = await recordingProxy(emu.url);
    try {
      const shop = await d.account('Counted shop');
      const counted = await pplChannel(shop, `${proxy.url}/ppl`, { clientId: 'counted-station' });
      proxy.calls.length = 0;
      const res = await shop.request('POST', '/v1/shipments', shipmentBody(counted, { reference_number: 'CALLS-3', parcels: parcelsOf(3) }));
      await d.runJobs();
      const s = (await shop.request('GET', `/v1/shipments/${res.json().data.id}`)).json().data;
      expect(s.status, JSON.stringify(s.failure)).toBe('created');
      const atPpl = proxy.calls.filter((c) => c.path !== '/ppl/login/getAccessToken').map((c) => `${c.method} ${c.path.replace(/[0-9a-f-]{36}/, '{batchId}')}`);
      expect(atPpl).toEqual([
        'POST /ppl/shipment/batch', 'GET /ppl/shipment/batch/{batchId}', 'GET /ppl/shipment/batch/{batchId}', 'GET /ppl/shipment/batch/{batchId}/label',
      ]);
      const numbers = s.parcels.map((p: { tracking_number: string }) => p.tracking_number);
      const raw = await shop.request('GET', `/v1/shipments/${s.id}/label`, undefined, { accept: 'application/pdf' });
      // the label is put together from the parcels' labels: one page each, in parcel order
      expect(await decodePdfBarcodes(raw.rawPayload)).toEqual(numbers.map((n: string) => [n]));
    } finally {
      await proxy.close();
    }
  });

  it('refuses a resolution no thermal printer has, and COD without a currency, in one 422', async () => {
    const res = await a.request('POST', '/v1/shipments', shipmentBody(channel, { label_format: 'epl', label_dpi: 600, cash_on_delivery_amount: 10.123 }));
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual({
      label_dpi: ['must be one of 203, 300'],
      cash_on_delivery_amount: ['must have at most 2 decimals'],
      cash_on_delivery_currency: ['is required with cash_on_delivery_amount'],
    });
  });

  it('keeps a shipment the carrier refused pending with failure on our field paths; PATCH fixes it and it is created', async () => {
    const body = shipmentBody(channel, { reference_number: 'ZIP-BAD' });
    (body.destination_address as Record<string, string>).postal_code = '79999'; // a Czech code's shape, but no post office has it
    const id = (await a.request('POST', '/v1/shipments', body)).json().data.id;
    await d.runJobs();
    const failed = await get(id);
    expect(failed.status).toBe('pending');
    expect(failed.failure.errors).toHaveProperty(['destination_address.postal_code']);
    expect(failed.failure.attempts).toBe(1);
    expect(failed.next_attempt_at).toBeNull();
    const fix = await a.request('PATCH', `/v1/shipments/${id}`, { destination_address: { ...(body.destination_address as object), postal_code: '60200' } });
    expect(fix.statusCode, fix.body).toBe(200);
    expect(fix.json().data).toMatchObject({ status: 'pending', failure: null });
    await d.runJobs();
    expect((await get(id)).status).toBe('created');
    expect((await emulated()).filter((e) => e.referenceId === id && e.state !== 'Canceled')).toHaveLength(1);
  });

  it('retries through 500s, 429s, timeouts and expired tokens and creates the shipment exactly once at the carrier', async () => {
    const faults = [
      { mode: 'error500', count: 2, failedAttempts: 2 }, { mode: 'rate_limit', count: 1, failedAttempts: 1 },
      { mode: 'timeout', count: 1, ms: 3000, failedAttempts: 1 },
      { mode: 'expire_tokens', failedAttempts: 0 }, // a refused token is renewed within the same attempt
    ];
    for (const { failedAttempts, ...f } of faults) {
      await fault(f);
      const id = (await a.request('POST', '/v1/shipments', shipmentBody(channel, { reference_number: `FAULT-${f.mode}` }))).json().data.id;
      for (let round = 0; round < 6 && (await get(id)).status === 'pending'; round++) {
        await d.runJobs();
        d.clock.advance(5 * 3600_000); // past any backoff
      }
      const s = await get(id);
      expect(s.status, `${f.mode}: ${JSON.stringify(s.failure)}`).toBe('created');
      expect((await emulated()).filter((e) => e.referenceId === id), f.mode).toHaveLength(1);
      const row = (await d.ctx.db.select().from(shipments).where(eq(shipments.id, id)).get())!;
      expect(row.attempts, f.mode).toBe(failedAttempts);
    }
  });

  it('cancels a created shipment at PPL, refuses to delete it, and refuses changes to its creation fields', async () => {
    const id = (await a.request('POST', '/v1/shipments', shipmentBody(channel, { reference_number: 'CANCEL-1', parcels: parcelsOf(2) }))).json().data.id;
    await d.runJobs();
    const del = await a.request('DELETE', `/v1/shipments/${id}`);
    expect(del.statusCode).toBe(422);
    expect(del.json().message).toBe('Cannot delete a shipment created at the carrier; cancel it');
    const patch = await a.request('PATCH', `/v1/shipments/${id}`, { label_format: 'zpl', reference_number: 'CANCEL-1b' });
    expect(patch.statusCode).toBe(422);
    expect(patch.json().errors.label_format[0]).toMatch(/already created at the carrier/);
    expect((await a.request('PATCH', `/v1/shipments/${id}`, { reference_number: 'CANCEL-1b', metadata: { order: 7 } })).json().data)
      .toMatchObject({ reference_number: 'CANCEL-1b', metadata: { order: 7 } });
    const cancelled = await a.request('POST', `/v1/shipments/${id}/cancel`);
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(cancelled.json().data).toMatchObject({ status: 'cancelled' });
    expect(cancelled.json().data.cancelled_at).toMatch(/Z$/);
    expect((await emulated()).find((e) => e.referenceId === id)?.state).toBe('Canceled');
    expect((await a.request('POST', `/v1/shipments/${id}/cancel`)).statusCode).toBe(422);
    expect((await a.request('POST', `/v1/shipments/${id}/retry`)).statusCode).toBe(422);
  });

  it('deletes a refused pending shipment (204) and retries one by hand', async () => {
    const bad = shipmentBody(channel, { reference_number: 'DEL-1' });
    (bad.destination_address as Record<string, string>).postal_code = '79999'; // a Czech code's shape, but no post office has it
    const doomed = (await a.request('POST', '/v1/shipments', bad)).json().data.id;
    const retried = (await a.request('POST', '/v1/shipments', bad)).json().data.id;
    await d.runJobs();
    const del = await a.request('DELETE', `/v1/shipments/${doomed}`);
    expect(del.statusCode).toBe(204);
    expect((await a.request('GET', `/v1/shipments/${doomed}`)).statusCode).toBe(404);
    const again = await a.request('POST', `/v1/shipments/${retried}/retry`);
    expect(again.statusCode).toBe(200);
    expect(again.json().data.next_attempt_at).not.toBeNull();
    await d.runJobs();
    expect((await get(retried)).failure.attempts).toBe(1); // the carrier refused again: still a refusal, not a retry loop
  });

  it('answers the same list request anew after every change of a shipment: creation, the carrier step, an edit', async () => {
    const page = async () => (await a.request('GET', '/v1/shipments?per_page=5')).json() as { data: { id: string; status: string; reference_number: string }[]; meta: { total: number } };
    const before = await page();
    expect(await page()).toEqual(before); // unchanged, answered from the cache
    const id = (await a.request('POST', '/v1/shipments', shipmentBody(channel, { reference_number: 'LIST-FRESH-1' }))).json().data.id;
    const added = await page();
    expect(added.meta.total).toBe(before.meta.total + 1);
    expect(added.data[0]).toMatchObject({ id, status: 'pending' });
    await d.runJobs();
    expect((await page()).data[0]).toMatchObject({ id, status: 'created' });
    expect((await a.request('PATCH', `/v1/shipments/${id}`, { reference_number: 'LIST-FRESH-2' })).statusCode).toBe(200);
    expect((await page()).data[0]).toMatchObject({ id, reference_number: 'LIST-FRESH-2' });
  });

  it('lists with filters and finds shipments by a substring of reference, carrier id or tracking number', async () => {
    const id = (await a.request('POST', '/v1/shipments', shipmentBody(channel, { reference_number: 'FIND-ME-4711' }))).json().data.id;
    await d.runJobs();
    const number = (await get(id)).parcels[0].tracking_number as string;
    for (const term of ['me-47', 'FIND-ME-4711', number.slice(3, 9)]) {
      const found = (await a.request('GET', `/v1/shipments?search=${encodeURIComponent(term)}`)).json();
      expect(found.data.map((s: { id: string }) => s.id), term).toContain(id);
      expect(found.meta.total, term).toBe(found.data.length);
    }
    expect((await a.request('GET', '/v1/shipments?search=zz-no-such')).json()).toMatchObject({ data: [], meta: { total: 0 } });
    const created = (await a.request('GET', '/v1/shipments?status=created&per_page=100')).json();
    expect(created.data.every((s: { status: string }) => s.status === 'created')).toBe(true);
    expect(created.data[0]).toEqual(expect.objectContaining({ id: expect.any(String), provider_shipment_id: expect.any(String), total_price: null }));
    const byChannel = (await a.request('GET', `/v1/shipments?shipping_channel_id=${channel}&per_page=1`)).json();
    expect(byChannel.meta.total).toBe((await a.request('GET', '/v1/shipments?per_page=1')).json().meta.total);
    const other = await d.account('Other shop');
    expect((await other.request('GET', `/v1/shipments/${id}`)).statusCode).toBe(403);
    expect((await other.request('GET', '/v1/shipments?search=FIND-ME')).json().data).toEqual([]);
  });

  it('lays the PDF label out four to an A4 page on request', async () => {
    const id = (await a.request('POST', '/v1/shipments', shipmentBody(channel, { reference_number: 'A4-5', parcels: parcelsOf(5) }))).json().data.id;
    await d.runJobs();
    const numbers = (await get(id)).parcels.map((p: { tracking_number: string }) => p.tracking_number);
    const a4 = await a.request('GET', `/v1/shipments/${id}/label?layout=a4&download=1`);
    expect(a4.headers['content-disposition']).toBe('attachment; filename="A4-5-a4.pdf"');
    const pages = await decodePdfBarcodes(a4.rawPayload);
    expect(pages).toHaveLength(2);
    expect(pages.flat().sort()).toEqual([...numbers].sort());
  });

  it('deletes a channel only once its shipments are created, and its shipments can still be read and cancelled', async () => {
    const own = await pplChannel(a, emu.urls.ppl!);
    const id = (await a.request('POST', '/v1/shipments', shipmentBody(own, { reference_number: 'CH-DEL' }))).json().data.id;
    const early = await a.request('DELETE', `/v1/shipping-channels/${own}`);
    expect(early.statusCode).toBe(422);
    expect(early.json().message).toMatch(/not yet created at the carrier/);
    await d.runJobs();
    const late = await a.request('DELETE', `/v1/shipping-channels/${own}`);
    expect(late.statusCode, late.body).toBe(200);
    expect((await a.request('GET', `/v1/shipping-channels/${own}`)).statusCode).toBe(404);
    expect((await a.request('POST', '/v1/shipments', shipmentBody(own))).json().errors.shipping_channel_id).toEqual(['is not a shipping channel of this account']);
    expect((await get(id)).status).toBe('created');
    expect((await a.request('POST', `/v1/shipments/${id}/cancel`)).json().data.status).toBe('cancelled');
  });

  it('answers Prefer: wait with the created shipment once the carrier step finished', async () => {
    d.workers.start();
    try {
      const res = await a.request('POST', '/v1/shipments', shipmentBody(channel, { reference_number: 'WAIT-1' }), { prefer: 'wait=10' });
      expect(res.statusCode).toBe(201);
      expect(res.json().data).toMatchObject({ status: 'created', has_label: true });
    } finally {
      await d.workers.stop();
    }
  });
});
