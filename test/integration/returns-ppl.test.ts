import pino from 'pino';
import { describe, expect, it } from 'vitest';
import type { RunningEmulators } from '../../src/carriers/emulator/server.js';
import { findProvider } from '../../src/carriers/registry.js';
import type { ShipmentForCarrier } from '../../src/carriers/types.js';
import { systemClock } from '../../src/domain/clock.js';
import { decodePdfBarcodes, decodeZplBarcodes } from '../helpers/barcodes.js';
import { demoShipment, memoryProgress, nextWorkingDay, pdfText, refusalOf, returnShipment, trackedEvents, withCarrierBehindProxy } from '../helpers/dispatch-adapter.js';
import type { RecordingProxy } from '../helpers/recording-proxy.js';
import { advanceEmulatedParcel, pplEmulatorControl } from '../helpers/shipments.js';
import { carrierSchemaErrors } from '../helpers/json-schema.js';

const provider = findProvider('ppl')!;
const adapter = provider.adapter;
const ctx = { channelId: 'ch_ppl_returns', log: pino({ level: 'silent' }), clock: systemClock, timeoutMs: 10_000 };

/** PPL's published schema of the `POST /shipment/batch` body (fixtures/schema/SOURCE.md). */
const batchSchema = carrierSchemaErrors('ppl');


describe('PPL returns: PPL Parcel Return CZ (RETD) back to the warehouse, labelled and tracked like any parcel', () => {
  let emu: RunningEmulators;
  let proxy: RecordingProxy;
  let settings: Record<string, string | number | boolean>;
  const control = pplEmulatorControl(() => emu.url);
  const shippingDate = nextWorkingDay();
  const batches = () => proxy.calls.filter((c) => c.method === 'POST' && c.path === '/ppl/shipment/batch')
    .map((c) => JSON.parse(c.body!) as { shipments: Record<string, unknown>[] });
  const create = (s: ShipmentForCarrier) => adapter.createShipment(s, settings, { ...ctx, progress: memoryProgress() });

  withCarrierBehindProxy(provider, (running) => ({ emu, proxy, settings } = running));

  it('declares returns', () => {
    expect(provider.capabilities.returns).toBe(true);
  });

  it('returns a delivered parcel with RETD from the customer to the warehouse, naming the outbound on the label, and tracks it to delivered', async () => {
    const outbound = { ...demoShipment(provider, 'sh_ppl_out_1', shippingDate), labelComment: 'Křehké' };
    const sent = await create(outbound);
    expect(sent.product).toBe('PRIV');
    await advanceEmulatedParcel(emu.url, 'ppl', sent.parcels[0]!.trackingNumber, 'delivered');

    const back = returnShipment(outbound, sent, 'sh_ppl_ret_1');
    const created = await create(back);
    expect(created.product).toBe('RETD');
    const request = batches().at(-1)!;
    expect(request.shipments[0]).toMatchObject({
      referenceId: 'sh_ppl_ret_1', productType: 'RETD',
      note: `Return of PPL shipment ${sent.providerShipmentId} · Křehké`,
      sender: { name: 'Řehoř Šťastný', street: 'Údolní 5', city: 'Brno', zipCode: '60200', country: 'CZ' },
      recipient: { name: 'Sklad Praha s.r.o.', street: 'Skladová 12', city: 'Praha', zipCode: '11000', country: 'CZ' },
      externalNumbers: [{ code: 'CUST', externalNumber: 'REF-sh_ppl_out_1' }],
    });
    expect(request.shipments[0]).not.toHaveProperty('cashOnDelivery');
    expect(batchSchema(request), 'the request against PPL’s published schema').toEqual([]);

    const [parcel] = created.parcels;
    expect(parcel!.trackingNumber).not.toBe(sent.parcels[0]!.trackingNumber);
    expect(await decodePdfBarcodes(parcel!.label)).toEqual([[parcel!.trackingNumber]]);
    const printed = pdfText(parcel!.label);
    expect(printed).toContain('RETD PPL Parcel Return CZ');
    expect(printed.indexOf('Řehoř Šťastný'), 'the customer is the sender, printed first').toBeLessThan(printed.indexOf('Sklad Praha s.r.o.'));
    expect((await control.shipments()).find((s) => s.referenceId === 'sh_ppl_ret_1')).toMatchObject({ productType: 'RETD', state: 'Active' });

    await advanceEmulatedParcel(emu.url, 'ppl', parcel!.trackingNumber, 'delivered');
    const events = await trackedEvents(provider, { trackingNumber: parcel!.trackingNumber }, settings, ctx);
    expect(events.map((e) => e.status)).toEqual(['created', 'in_transit', 'in_transit', 'in_transit', 'out_for_delivery', 'delivered']);
  });

  it('returns a two-parcel shipment as a RETD set with ZPL labels, one that scans per parcel', async () => {
    const outbound = { ...demoShipment(provider, 'sh_ppl_out_2', shippingDate, 2), labelFormat: 'zpl' as const };
    const sent = await create(outbound);
    const created = await create(returnShipment(outbound, sent, 'sh_ppl_ret_2'));
    expect(created.product).toBe('RETD');
    const request = batches().at(-1)!;
    expect(request.shipments[0]).toMatchObject({
      productType: 'RETD', shipmentSet: { numberOfShipments: 2, shipmentSetItems: [{ weighedShipmentInfo: { weight: 1 } }, { weighedShipmentInfo: { weight: 2 } }] },
    });
    expect(batchSchema(request)).toEqual([]);
    expect(created.parcels).toHaveLength(2);
    for (const p of created.parcels) expect(await decodeZplBarcodes(p.label.toString('utf8'))).toEqual([[p.trackingNumber]]);
  });

  it('is refused by PPL when the customer returns from abroad (RETD is the Czech return), on the customer’s country', async () => {
    const outbound = demoShipment(provider, 'sh_ppl_out_3', shippingDate);
    const sent = await create(outbound);
    const back = returnShipment(outbound, sent, 'sh_ppl_ret_3');
    const abroad = { ...back, sender: { ...back.sender, street: 'Hlavná', houseNumber: '1', city: 'Bratislava', postalCode: '81101', countryCode: 'SK' } };
    const refused = await refusalOf(create(abroad));
    expect(refused.errors).toEqual({ 'origin_address.country_code': ['PPL: Product RETD is only available within CZ; country SK is not allowed.'] });
    expect(batches().at(-1)!.shipments[0]).toMatchObject({ productType: 'RETD', sender: { country: 'SK' } });
    expect((await control.shipments()).some((s) => s.referenceId === 'sh_ppl_ret_3'), 'nothing created at PPL').toBe(false);
  });

  it('refuses cash on delivery on a return before asking PPL, and PPL refuses RETD with COD itself', async () => {
    const outbound = demoShipment(provider, 'sh_ppl_out_4', shippingDate);
    const sent = await create(outbound);
    proxy.calls.length = 0;
    const withCod = { ...returnShipment(outbound, sent, 'sh_ppl_ret_4'), cashOnDelivery: { amountMinor: 49_900, currency: 'CZK' } };
    const refused = await refusalOf(create(withCod));
    expect(refused.errors).toEqual({ cash_on_delivery_amount: ['PPL product RETD cannot carry cash on delivery; choose another product on the channel'] });
    expect(proxy.calls, 'nothing sent to PPL').toEqual([]);

    const body = {
      labelSettings: { format: 'Pdf' },
      shipments: [{
        referenceId: 'raw-return-cod', productType: 'RETD',
        sender: { name: 'Řehoř', street: 'Údolní 5', city: 'Brno', zipCode: '60200', country: 'CZ' },
        recipient: { name: 'Sklad', street: 'Skladová 12', city: 'Praha', zipCode: '11000', country: 'CZ' },
        cashOnDelivery: { codPrice: 499, codCurrency: 'CZK', codVarSym: '1001' },
      }],
    };
    const answer = await fetch(`${emu.urls.ppl}/shipment/batch`, {
      method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${await accessToken()}` }, body: JSON.stringify(body),
    });
    expect(answer.status).toBe(400);
    expect(await answer.json()).toMatchObject({ title: 'BadRequest', errors: { 'Shipments[0].CashOnDelivery': ['Cash on delivery requires a COD product (e.g. PRID)'] } });
  });

  const accessToken = async () => {
    const { clientId, clientSecret } = provider.demo.settings as { clientId: string; clientSecret: string };
    const res = await fetch(`${emu.urls.ppl}/login/getAccessToken`, {
      method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret }),
    });
    return ((await res.json()) as { access_token: string }).access_token;
  };
});
