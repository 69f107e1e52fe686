import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulators, type RunningEmulators } from '../../src/carriers/emulator/server.js';
import { findProvider } from '../../src/carriers/registry.js';
import { decodePdfBarcodes } from '../helpers/barcodes.js';
import { startTestDaemon, type TestAccount, type TestDaemon } from '../helpers/harness.js';
import { pplChannel, shipmentBody } from '../helpers/shipments.js';

interface Shipment {
  id: string; status: string; return_of: string | null; return: boolean; return_shipment_ids: string[]; product: string | null; failure: unknown;
  sender_contact: Record<string, string>; recipient_contact: Record<string, string>;
  origin_address: Record<string, string>; destination_address: Record<string, string>;
  parcels: { tracking_number: string | null }[];
}

/** A customer sends a parcel back: its return label made at the carrier of the shipment, linked to it. */
describe('returns: the return label of a shipment', () => {
  let d: TestDaemon;
  let emu: RunningEmulators;
  let a: TestAccount;
  let ppl: string;
  let spx: string;

  const get = async (id: string) => (await a.request('GET', `/v1/shipments/${id}`)).json().data as Shipment;
  const created = async (path: string, body: Record<string, unknown>) => {
    const res = await a.request('POST', path, body);
    expect(res.statusCode, res.body).toBe(201);
    await d.runJobs();
    const shipment = await get(res.json().data.id as string);
    expect(shipment.status, JSON.stringify(shipment.failure)).toBe('created');
    return shipment;
  };

  beforeAll(async () => {
    emu = await startEmulators({ providers: ['ppl', 'spx'], port: 0 });
    d = await startTestDaemon();
    a = await d.account('Vratky');
    ppl = await pplChannel(a, emu.urls.ppl!);
    const channel = await a.request('POST', '/v1/shipping-channels', { name: 'SPX', provider: 'spx', settings: { ...findProvider('spx')!.demo.settings, baseUrl: emu.urls.spx } });
    expect(channel.statusCode, channel.body).toBe(201);
    spx = channel.json().data.id as string;
  });
  afterAll(async () => {
    await d?.close();
    await emu?.close();
  });

  it('creates the return at the carrier with the parties swapped, linked to the shipment, its label scanning; it waits for no dispatch', async () => {
    const outbound = await created('/v1/shipments', shipmentBody(ppl, { reference_number: 'RET-1' }));
    const back = await created(`/v1/shipments/${outbound.id}/return`, {});
    expect(back).toMatchObject({
      return_of: outbound.id, product: 'RETD',
      sender_contact: outbound.recipient_contact, origin_address: outbound.destination_address,
      recipient_contact: outbound.sender_contact, destination_address: outbound.origin_address,
    });
    const label = await a.request('GET', `/v1/shipments/${back.id}/label?download=1`);
    expect((await decodePdfBarcodes(label.rawPayload)).flat()).toContain(back.parcels[0]!.tracking_number);

    const waiting = (await a.request('GET', '/v1/dispatches/waiting')).json().data as { shipping_channel_id: string; shipments_count: number }[];
    expect(waiting.find((w) => w.shipping_channel_id === ppl)?.shipments_count).toBe(1);
    const providers = (await a.request('GET', '/v1/providers')).json().data as { code: string; returns: boolean }[];
    expect(providers.find((p) => p.code === 'ppl')!.returns).toBe(true);
  });

  it('refuses a return of a return, of a shipment the carrier does not have yet, and at a carrier that makes none', async () => {
    const outbound = await created('/v1/shipments', shipmentBody(ppl, { reference_number: 'RET-2' }));
    const back = await created(`/v1/shipments/${outbound.id}/return`, { label_format: 'zpl' });
    expect((await a.request('POST', `/v1/shipments/${back.id}/return`, {})).statusCode).toBe(409);

    const pending = (await a.request('POST', '/v1/shipments', shipmentBody(ppl, { reference_number: 'RET-3' }))).json().data as Shipment;
    const early = await a.request('POST', `/v1/shipments/${pending.id}/return`, {});
    expect(early.statusCode, early.body).toBe(409);
    expect(early.json().message).toMatch(/is pending/);

    const other = await a.request('POST', `/v1/shipments/${outbound.id}/return`, { shipping_channel_id: spx });
    expect(other.statusCode).toBe(422);
    expect(other.json().errors.shipping_channel_id[0]).toMatch(/^is a channel of SP Express: a return goes back with the carrier of the shipment/);
    const { cash_on_delivery_currency: _currency, ...parties } = findProvider('spx')!.demo.shipment as Record<string, unknown>;
    const atSpx = await created('/v1/shipments', shipmentBody(spx, parties));
    const none = await a.request('POST', `/v1/shipments/${atSpx.id}/return`, {});
    expect(none.statusCode).toBe(422);
    expect(none.json().errors).toEqual({ shipping_channel_id: ['SP Express makes no return labels through packdesk'] });
  });

  it('makes the return label for the box with the shipment (return: true): one return, once the carrier has the shipment, linked both ways', async () => {
    const res = await a.request('POST', '/v1/shipments', shipmentBody(ppl, { reference_number: 'RET-BOX', return: true }));
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().data).toMatchObject({ return: true, return_shipment_ids: [] });
    await d.runJobs();
    const outbound = await get(res.json().data.id as string);
    expect(outbound.status).toBe('created');
    expect(outbound.return_shipment_ids).toHaveLength(1);
    const back = await get(outbound.return_shipment_ids[0]!);
    expect(back).toMatchObject({
      status: 'created', return_of: outbound.id, return: false, product: 'RETD',
      sender_contact: outbound.recipient_contact, recipient_contact: outbound.sender_contact,
    });
    expect(back.parcels[0]!.tracking_number).toBeTruthy();
    await d.runJobs();
    expect((await get(outbound.id)).return_shipment_ids).toEqual([back.id]);

    const { cash_on_delivery_currency: _currency, ...parties } = findProvider('spx')!.demo.shipment as Record<string, unknown>;
    const none = await a.request('POST', '/v1/shipments', shipmentBody(spx, { ...parties, return: true }));
    expect(none.statusCode).toBe(422);
    expect(none.json().errors).toEqual({ return: ['SP Express makes no return labels through packdesk'] });
  });
});
