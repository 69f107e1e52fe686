import { fileURLToPath } from 'node:url';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import type { RunningEmulators } from '../../src/carriers/emulator/server.js';
import { CLAIM_FIELDS, parseRefusal, readAnswer } from '../../src/carriers/packeta/response.js';
import { findProvider } from '../../src/carriers/registry.js';
import type { CarrierContext, ShipmentForCarrier } from '../../src/carriers/types.js';
import { systemClock } from '../../src/domain/clock.js';
import { decodePdfBarcodes, decodeZplBarcodes } from '../helpers/barcodes.js';
import { demoShipment, memoryProgress, nextWorkingDay, pdfText, refusalOf, returnShipment, trackedEvents, withCarrierBehindProxy } from '../helpers/dispatch-adapter.js';
import type { RecordingProxy } from '../helpers/recording-proxy.js';
import { advanceEmulatedParcel } from '../helpers/shipments.js';
import { xsdErrors } from '../helpers/xsd.js';

/**
 * Packeta returns, driven through the adapter against its emulator: a return is Packeta's Claim Assistant packet
 * (`createPacketClaim` with ClaimAttributes, one per parcel), which the customer hands over at a Packeta point and
 * Packeta brings to the sender's return address; labelled like any packet (PDF, ZPL), tracked to delivered, naming
 * the packet it returns in its `number`; and Packeta's refusals of a bad one, on the customer's fields.
 */

const provider = findProvider('packeta')!;
const XSD = fileURLToPath(new URL('../../src/carriers/packeta/fixtures/schema/create-request.xsd', import.meta.url));
const ctx: CarrierContext = { channelId: 'ch_packeta_returns', log: pino({ level: 'silent' }), clock: systemClock, timeoutMs: 10_000 };


describe('Packeta returns: Claim Assistant packets from the customer back to the sender, labelled and tracked like any packet', () => {
  let emu: RunningEmulators;
  let proxy: RecordingProxy;
  let settings: Record<string, string | number | boolean>;
  const shippingDate = nextWorkingDay();

  const create = (s: ShipmentForCarrier) => provider.adapter.createShipment(s, settings, { ...ctx, progress: memoryProgress() });
  /** The XML of each REST call of `operation` the adapter sent. */
  const sent = (operation: string) => proxy.calls.map((c) => c.body ?? '').filter((body) => body.startsWith(`<${operation}>`));
  const held = (barcode: string) => emu.emulator('packeta').shipments().flatMap((s) => s.packets as Record<string, unknown>[]).find((p) => p.barcode === barcode);
  const rest = async (xml: string) => (await fetch(`${emu.urls.packeta}/api/rest`, { method: 'POST', headers: { 'content-type': 'text/xml' }, body: xml })).text();

  withCarrierBehindProxy(provider, (running) => ({ emu, proxy, settings } = running));

  it('declares returns', () => {
    expect(provider.capabilities.returns).toBe(true);
  });

  it('returns a delivered packet as a Claim Assistant packet of the customer, naming the packet it returns, and tracks it to delivered', async () => {
    const outbound = demoShipment(provider, 'sh_packeta_out_1', shippingDate);
    const out = await create(outbound);
    await advanceEmulatedParcel(emu.url, 'packeta', out.parcels[0]!.trackingNumber, 'delivered');
    proxy.calls.length = 0;

    const created = await create(returnShipment(outbound, out, 'sh_packeta_ret_1'));
    expect(created.product).toBe('claim-assistant');
    expect(sent('createPacket')).toEqual([]);
    const [claim] = sent('createPacketClaim');
    expect(claim).toBe(
      '<createPacketClaim><apiPassword>0123456789abcdef0123456789abcdef</apiPassword><claimAttributes>'
      + `<number>${out.parcels[0]!.trackingNumber}</number><email>rehor@example.cz</email><phone>+420602333444</phone>`
      + '<value>1.00</value><currency>CZK</currency><eshop>Sklad Praha</eshop></claimAttributes></createPacketClaim>',
    );
    expect(xsdErrors(claim!, XSD), 'the request against Packeta’s published types').toEqual([]);

    const [parcel] = created.parcels;
    expect(parcel!.trackingNumber).toMatch(/^Z\d{10}$/);
    expect(parcel!.trackingNumber).not.toBe(out.parcels[0]!.trackingNumber);
    expect(created.providerShipmentId).toBe(parcel!.trackingNumber.slice(1));
    expect(await decodePdfBarcodes(parcel!.label)).toEqual([[parcel!.trackingNumber]]);
    const printed = pdfText(parcel!.label);
    expect(printed).toContain('Claim Assistant');
    expect(printed).toContain(out.parcels[0]!.trackingNumber);
    expect(held(parcel!.trackingNumber)).toMatchObject({ kind: 'claim', number: out.parcels[0]!.trackingNumber, email: 'rehor@example.cz', eshop: 'Sklad Praha' });

    await advanceEmulatedParcel(emu.url, 'packeta', parcel!.trackingNumber, 'delivered');
    const events = await trackedEvents(provider, { trackingNumber: parcel!.trackingNumber, carrierRef: parcel!.carrierRef }, settings, ctx);
    expect(events[0]!.status).toBe('created');
    expect(events.at(-1)!.status).toBe('delivered');
  });

  it('returns a two-parcel shipment as two Claim Assistant packets with ZPL labels, the declared value on the first', async () => {
    const outbound = { ...demoShipment(provider, 'sh_packeta_out_2', shippingDate, 2), labelFormat: 'zpl' as const };
    const out = await create(outbound);
    proxy.calls.length = 0;
    const created = await create(returnShipment(outbound, out, 'sh_packeta_ret_2'));
    const claims = sent('createPacketClaim');
    expect(claims).toHaveLength(2);
    for (const claim of claims) {
      expect(claim).toContain(`<number>${out.parcels[0]!.trackingNumber}</number>`);
      expect(xsdErrors(claim, XSD)).toEqual([]);
    }
    expect(claims.map((c) => /<value>([^<]*)<\/value>/.exec(c)![1])).toEqual(['1.00', '0.00']);
    expect(created.parcels).toHaveLength(2);
    for (const p of created.parcels) expect(await decodeZplBarcodes(p.label.toString('utf8'))).toEqual([[p.trackingNumber]]);
  });

  it('is refused by Packeta when the customer’s e-mail is not one, on the customer’s e-mail, and nothing is made', async () => {
    const outbound = demoShipment(provider, 'sh_packeta_out_3', shippingDate);
    const out = await create(outbound);
    const back = returnShipment(outbound, out, 'sh_packeta_ret_3');
    const refused = await refusalOf(create({ ...back, sender: { ...back.sender, email: 'rehor at example.cz' } }));
    expect(refused.errors).toEqual({ 'sender_contact.email_address': ['Packeta: Invalid e-mail address'] });
    expect(sent('createPacketClaim')).toHaveLength(1);
    expect(emu.emulator('packeta').shipments().filter((s) => s.referenceId === out.parcels[0]!.trackingNumber)).toEqual([]);
  });

  it('refuses cash on delivery on a return before asking Packeta, and Packeta refuses a claim with `cod` or a label to e-mail without an e-mail', async () => {
    const outbound = demoShipment(provider, 'sh_packeta_out_4', shippingDate);
    const out = await create(outbound);
    proxy.calls.length = 0;
    const withCod = { ...returnShipment(outbound, out, 'sh_packeta_ret_4'), cashOnDelivery: { amountMinor: 49_900, currency: 'CZK' } };
    const refused = await refusalOf(create(withCod));
    expect(refused.errors).toEqual({ cash_on_delivery_amount: ['Packeta\'s return packets (Claim Assistant) carry no cash on delivery'] });
    expect(proxy.calls, 'nothing sent to Packeta').toEqual([]);

    const password = String(settings.apiPassword);
    const answer = readAnswer(await rest(
      `<createPacketClaim><apiPassword>${password}</apiPassword><claimAttributes><number>Z4000000001</number><cod>499.00</cod>`
      + '<value>499.00</value><currency>CZK</currency><eshop>Sklad Praha</eshop><sendLabelToEmail>true</sendLabelToEmail></claimAttributes></createPacketClaim>',
    ));
    if (answer?.ok !== false) throw new Error('Packeta took a claim with cash on delivery');
    expect(answer.fault).toBe('PacketAttributesFault');
    expect(parseRefusal(answer.fault, answer.message, answer.detail, CLAIM_FIELDS).errors).toEqual({
      cash_on_delivery_amount: ['Packeta: Unknown attribute'],
      'sender_contact.email_address': ['Packeta: Required when the label is sent to the e-mail'],
    });
  });
});
