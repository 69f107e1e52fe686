import { fileURLToPath } from 'node:url';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import type { RunningEmulators } from '../../src/carriers/emulator/server.js';
import { glsPlInsertXml } from '../../src/carriers/gls_pl/request.js';
import { parseGlsPlFault } from '../../src/carriers/gls_pl/response.js';
import { ADE_PATH, ADE_SERVICE } from '../../src/carriers/gls_pl/service.js';
import { glsPlSettings } from '../../src/carriers/gls_pl/settings.js';
import { warsawTime } from '../../src/carriers/local-time.js';
import { findProvider } from '../../src/carriers/registry.js';
import { readSoapBody, soapElement, soapHttpHeaders, SoapFault, xmlObject } from '../../src/carriers/soap.js';
import type { CreatedAtCarrier, ShipmentForCarrier } from '../../src/carriers/types.js';
import { systemClock } from '../../src/domain/clock.js';
import { decodePdfBarcodes, decodeZplBarcodes } from '../helpers/barcodes.js';
import { demoShipment, memoryProgress, pdfText, refusalOf, returnShipment, trackedEvents, withCarrierBehindProxy } from '../helpers/dispatch-adapter.js';
import type { RecordingProxy } from '../helpers/recording-proxy.js';
import { advanceEmulatedParcel } from '../helpers/shipments.js';
import { soapOperation, xsdErrors } from '../helpers/xsd.js';

const provider = findProvider('gls_pl')!;
const XSD = fileURLToPath(new URL('../../src/carriers/gls_pl/fixtures/schema/create-request.xsd', import.meta.url));
const today = () => warsawTime.format(Date.now()).slice(0, 10);

/**
 * A customer sends a GLS Poland parcel back: the return is a consignment of ADE's ShopReturn-Service (`srs`), the
 * customer (who hands it in at a ParcelShop) and the warehouse in `srv_ppe`, the outbound's parcel numbers in its
 * references; its labels come from the preparing box, and once a pickup hands it to GLS it is tracked to the warehouse.
 */
describe('GLS Poland returns: ShopReturn-Service', () => {
  let emu: RunningEmulators;
  let proxy: RecordingProxy;
  let settings: Record<string, string | number | boolean>;
  let made = 0;

  const ctx = () => ({ channelId: 'ch_gls_pl_returns', log: pino({ level: 'silent' }), clock: systemClock, timeoutMs: 10_000, progress: memoryProgress() });
  const operations = () => proxy.calls.map((c) => soapOperation(c.body).name);
  const inserted = () => proxy.calls.map((c) => soapOperation(c.body)).find((o) => o.name === 'adePreparingBox_Insert')!.element;
  /** An outbound shipment of `parcels` parcels, created at the emulated ADE. */
  const outbound = async (parcels = 1) => {
    const s = demoShipment(provider, `sh_glspl_out_${++made}`, today(), parcels);
    return { s, created: await provider.adapter.createShipment(s, settings, ctx()) };
  };
  /** Its return as packdesk hands it over: the parties swapped, the outbound's numbers in `returnOf`. */
  const returnOf = (s: ShipmentForCarrier, created: CreatedAtCarrier, extra: Partial<ShipmentForCarrier> = {}): ShipmentForCarrier => ({
    ...returnShipment(s, created, `sh_glspl_ret_${++made}`), ...extra,
  });

  withCarrierBehindProxy(provider, (running) => ({ emu, proxy, settings } = running));

  it('declares returns', () => {
    expect(provider.capabilities.returns).toBe(true);
  });

  it('creates the return of a two-parcel shipment as ShopReturn-Service (srs, srv_ppe from the customer to the warehouse, naming the outbound parcels), labels it, hands it to GLS and tracks it to the warehouse', async () => {
    const { s, created } = await outbound(2);
    proxy.calls.length = 0;

    const back = returnOf(s, created);
    const returned = await provider.adapter.createShipment(back, settings, ctx());
    // a return waits for no end-of-day dispatch: its own pickup hands it to GLS at once
    expect(operations()).toEqual(['adePreparingBox_Insert', 'adePreparingBox_GetConsignLabelsExt', 'adePreparingBox_GetConsign', 'adePickup_Create']);
    const sent = inserted();
    expect(xsdErrors(sent, XSD), 'the request against the ADE WSDL\'s types').toEqual([]);
    // the consignment goes to the warehouse in Warsaw; the customer in Kraków sends it back
    expect(sent).toContain('<consign_prep_data><rname1>Magazyn Warszawa Sp. z o.o.</rname1><rcountry>PL</rcountry><rzipcode>02-274</rzipcode><rcity>Warszawa</rcity>');
    expect(sent).toContain('<srv_bool><srs>1</srs></srv_bool><srv_ppe><sname1>Grzegorz Brzęczyszczykiewicz</sname1><scountry>PL</scountry><szipcode>31-147</szipcode><scity>Kraków</scity><sstreet>Długa 5</sstreet>');
    expect(sent).toContain('<rname1>Magazyn Warszawa Sp. z o.o.</rname1><rcountry>PL</rcountry><rzipcode>02-274</rzipcode><rcity>Warszawa</rcity><rstreet>Magazynowa 12</rstreet>');
    expect(sent).toContain(`<references>${created.parcels.map((p) => p.trackingNumber).join(' ')}</references><weight>3</weight></srv_ppe>`);
    expect(sent.match(/<items><weight>/g)).toHaveLength(2);

    expect(returned.product).toBe('srs');
    expect(returned.providerShipmentId).not.toBe(created.providerShipmentId);
    expect(returned.parcels).toHaveLength(2);
    for (const parcel of returned.parcels) {
      expect(created.parcels.map((p) => p.trackingNumber)).not.toContain(parcel.trackingNumber);
      expect((await decodePdfBarcodes(parcel.label)).flat()).toContain(parcel.trackingNumber);
      expect(pdfText(parcel.label)).toContain('Grzegorz Brzęczyszczykiewicz');
    }
    expect(emu.emulator('gls_pl').shipments().find((r) => r.consignId === returned.providerShipmentId)).toMatchObject({ services: ['srs'], state: 'Pickup' });

    const [first] = returned.parcels;
    await advanceEmulatedParcel(emu.url, 'gls_pl', first!.trackingNumber, 'delivered');
    const events = await trackedEvents(provider, { trackingNumber: first!.trackingNumber }, settings, ctx());
    expect(events.at(-1)).toMatchObject({ status: 'delivered', code: '3.0' });
  });

  it('resumed after its pickup’s answer was lost, hands the return over no second time and answers the labels it kept', async () => {
    const { s, created } = await outbound();
    const back = returnOf(s, created);
    const progress = memoryProgress();
    const first = await provider.adapter.createShipment(back, settings, { ...ctx(), progress });
    proxy.calls.length = 0;

    const again = await provider.adapter.createShipment(back, settings, { ...ctx(), progress });
    expect(operations(), 'only the check that the pickup took it').toEqual(['adePreparingBox_GetConsign']);
    expect(again.providerShipmentId).toBe(first.providerShipmentId);
    expect(again.parcels.map((p) => p.trackingNumber)).toEqual(first.parcels.map((p) => p.trackingNumber));
    expect(again.parcels[0]!.label.equals(first.parcels[0]!.label)).toBe(true);
  });

  it('prints the return label as ZPL', async () => {
    const { s, created } = await outbound();
    const returned = await provider.adapter.createShipment(returnOf(s, created, { labelFormat: 'zpl' }), settings, ctx());
    expect(returned.product).toBe('srs');
    const [parcel] = returned.parcels;
    expect((await decodeZplBarcodes(parcel!.label.toString('utf8'))).flat()).toContain(parcel!.trackingNumber);
  });

  it('refuses, before calling ADE, a return from or to an address outside Poland', async () => {
    const { s, created } = await outbound();
    proxy.calls.length = 0;

    const berlin = { ...s.recipient, street: 'Hauptstraße', houseNumber: '5', city: 'Berlin', postalCode: '10115', countryCode: 'DE' };
    const fromAbroad = await refusalOf(provider.adapter.createShipment(returnOf({ ...s, recipient: berlin }, created), settings, ctx()));
    expect(fromAbroad.errors).toEqual({ 'origin_address.country_code': ["GLS Poland's ShopReturn-Service (srs) takes both addresses in Poland; this one is in DE"] });
    const prague = { ...s.sender, city: 'Praha', postalCode: '110 00', countryCode: 'CZ' };
    const toAbroad = await refusalOf(provider.adapter.createShipment(returnOf({ ...s, sender: prague }, created), settings, ctx()));
    expect(toAbroad.errors).toEqual({ 'destination_address.country_code': ["GLS Poland's ShopReturn-Service (srs) takes both addresses in Poland; this one is in CZ"] });
    expect(operations()).not.toContain('adePreparingBox_Insert');
  });

  it('refuses in the emulator, as ADE, a ShopReturn-Service beside Pick&Return, without the customer’s street, or from abroad; the adapter maps the fault onto the return’s fields', async () => {
    const { s, created } = await outbound();
    const parsed = glsPlSettings.parse(settings);
    const returnsKept = () => emu.emulator('gls_pl').shipments().filter((r) => (r.services as string[]).includes('srs')).length;
    const before = returnsKept();
    /** An operation posted as ADE receives it; ADE's answer element or Fault. */
    const call = async (name: string, content: Record<string, unknown> | string) => {
      const element = typeof content === 'string' ? content : soapElement(ADE_SERVICE, { name, content: content as Record<string, string> });
      const envelope = `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body>${element}</soap:Body></soap:Envelope>`;
      return readSoapBody(await (await fetch(`${emu.urls.gls_pl}${ADE_PATH}`, { method: 'POST', headers: soapHttpHeaders(ADE_SERVICE, name), body: envelope })).text());
    };
    const login = xmlObject(await call('adeLogin', { user_name: parsed.username, user_password: parsed.password }) as never);
    const session = String(xmlObject(xmlObject(login.adeLoginResponse).return).session);
    /** The adapter's adePreparingBox_Insert for the return, changed as `edit` says; ADE's Fault. */
    const refused = async (edit: (xml: string) => string) => {
      const element = edit(glsPlInsertXml(returnOf(s, created), parsed, session));
      expect(xsdErrors(element, XSD)).toEqual([]);
      const answer = await call('adePreparingBox_Insert', element);
      expect(answer).toBeInstanceOf(SoapFault);
      return answer as SoapFault;
    };

    const withPickAndReturn = await refused((xml) => xml.replace('<srs>1</srs>', '<pr>1</pr><srs>1</srs>'));
    expect(withPickAndReturn).toMatchObject({ code: 'err_cons_srv_incorrect_combination_of_services', reason: 'Nieprawidłowa kombinacja serwisów.' });

    const noStreet = await refused((xml) => xml.replace(/<sstreet>[^<]*<\/sstreet>/, ''));
    expect(noStreet).toMatchObject({ code: 'err_cons_srv_srs_sendback_street_empty', reason: 'Usługa SRS - Ulica odsyłającego towar jest pusta.' });
    expect(parseGlsPlFault(noStreet).errors).toEqual({ 'origin_address.street_name': ['GLS Poland: Usługa SRS - Ulica odsyłającego towar jest pusta. (err_cons_srv_srs_sendback_street_empty)'] });

    const fromGermany = await refused((xml) => xml.replace('<scountry>PL</scountry>', '<scountry>DE</scountry>'));
    expect(fromGermany.code).toBe('err_cons_srv_srs_both_addresses_must_be_in_poland');
    expect(Object.keys(parseGlsPlFault(fromGermany).errors)).toEqual(['origin_address.country_code']);
    expect(returnsKept(), 'ADE keeps none of them').toBe(before);
  });
});
