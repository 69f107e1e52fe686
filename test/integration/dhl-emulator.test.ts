import { readFileSync } from 'node:fs';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dhlAdapter } from '../../src/carriers/dhl/adapter.js';
import { startEmulators, type RunningEmulators } from '../../src/carriers/emulator/server.js';
import { systemClock } from '../../src/domain/clock.js';
import { decodeZplBarcodes } from '../helpers/barcodes.js';

interface Created {
  shipmentTrackingNumber: string;
  packages: { trackingNumber: string }[];
  documents: { typeCode: string; content: string; packageReferenceNumber?: number }[];
}

/** What is particular to DHL Express: labels linked to pieces or merged, and waybills tracked apart from pieces. */
describe('the DHL Express emulator and adapter', () => {
  let emu: RunningEmulators;
  const fixture = JSON.parse(readFileSync(new URL('../../src/carriers/dhl/fixtures/create-request.two-parcel-cod-zpl.json', import.meta.url), 'utf8'));
  const request = fixture.request as Record<string, unknown>;
  const settings = () => ({ ...fixture.settings, apiSecret: 'mydhl-secret', baseUrl: emu.urls.dhl! });
  const create = async (body: Record<string, unknown>): Promise<Created> => {
    const res = await fetch(`${emu.urls.dhl}/shipments`, {
      method: 'POST', body: JSON.stringify(body),
      headers: { 'content-type': 'application/json', authorization: `Basic ${Buffer.from('station-1:mydhl-secret').toString('base64')}` },
    });
    expect(res.status).toBe(201);
    return (await res.json()) as Created;
  };
  const zplBarcodes = (doc: { content: string }) => decodeZplBarcodes(Buffer.from(doc.content, 'base64').toString('latin1'));

  beforeAll(async () => {
    emu = await startEmulators({ providers: ['dhl'], port: 0 });
  });
  afterAll(() => emu.close());

  it('answers one label per piece when linkLabelsByPieces is asked for, and one merged label when it is not', async () => {
    const linked = await create(request);
    const pieces = linked.packages.map((p) => p.trackingNumber);
    const labels = linked.documents.filter((d) => d.typeCode === 'label');
    expect(labels.map((d) => d.packageReferenceNumber)).toEqual([1, 2]);
    expect(await Promise.all(labels.map(zplBarcodes))).toEqual([[[pieces[0]]], [[pieces[1]]]]);

    const { getAdditionalInformation: _, ...unlinkedRequest } = request;
    const unlinked = await create(unlinkedRequest);
    const merged = unlinked.documents.filter((d) => d.typeCode === 'label');
    expect(merged).toHaveLength(1);
    expect(merged[0]).not.toHaveProperty('packageReferenceNumber');
    expect(await zplBarcodes(merged[0]!)).toEqual(unlinked.packages.map((p) => [p.trackingNumber]));
  });

  it('tracks a waybill and a piece asked together, each by its own number, and says which number DHL does not know', async () => {
    const created = await create(request);
    const [first, second] = created.packages.map((p) => p.trackingNumber);
    const advance = (n: string, to: string) => fetch(`${emu.url}/_emulator/dhl/parcels/${n}/advance`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ to }),
    });
    expect((await advance(first!, 'in_transit')).status).toBe(200);
    expect((await advance(second!, 'delivered')).status).toBe(200);
    const ctx = { channelId: 'ch_dhl_tracking', log: pino({ level: 'silent' }), clock: systemClock };
    const asked = [created.shipmentTrackingNumber, second!, 'JD014600000000000000'].map((trackingNumber) => ({ trackingNumber }));
    const results = await dhlAdapter.track(asked, settings(), ctx);
    const statuses = new Map(results.map((r) => [r.trackingNumber, r.found ? r.events.map((e) => e.status) : 'not found']));
    // The waybill reports its shipment's checkpoints (the first piece's), the second piece its own.
    expect(statuses.get(created.shipmentTrackingNumber)).toContain('in_transit');
    expect(statuses.get(created.shipmentTrackingNumber)).not.toContain('delivered');
    expect(statuses.get(second!)).toContain('delivered');
    expect(statuses.get('JD014600000000000000')).toBe('not found');
    expect(results).toHaveLength(3);
  });
});
