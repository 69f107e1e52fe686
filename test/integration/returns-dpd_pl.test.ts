import { fileURLToPath } from 'node:url';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { dpdPlCreateRequest } from '../../src/carriers/dpd_pl/request.js';
import { parseReturnLabelBody } from '../../src/carriers/dpd_pl/response.js';
import { DPD_PACKAGE_SERVICE, PACKAGE_SERVICE_PATH } from '../../src/carriers/dpd_pl/services.js';
import { dpdPlSettings } from '../../src/carriers/dpd_pl/settings.js';
import type { RunningEmulators } from '../../src/carriers/emulator/server.js';
import { warsawTime } from '../../src/carriers/local-time.js';
import { findProvider } from '../../src/carriers/registry.js';
import { readSoapBody, soapHttpHeaders, type XmlObject } from '../../src/carriers/soap.js';
import type { CreatedAtCarrier, ShipmentForCarrier } from '../../src/carriers/types.js';
import { systemClock } from '../../src/domain/clock.js';
import { decodePdfBarcodes, decodeZplBarcodes } from '../helpers/barcodes.js';
import { demoShipment, memoryProgress, pdfText, refusalOf, returnShipment, trackedEvents, withCarrierBehindProxy } from '../helpers/dispatch-adapter.js';
import type { RecordingProxy } from '../helpers/recording-proxy.js';
import { advanceEmulatedParcel } from '../helpers/shipments.js';
import { soapOperation, xsdErrors } from '../helpers/xsd.js';

const provider = findProvider('dpd_pl')!;
const XSD = fileURLToPath(new URL('../../src/carriers/dpd_pl/fixtures/schema/create-request.xsd', import.meta.url));
const today = () => warsawTime.format(Date.now()).slice(0, 10);

/**
 * A customer sends a DPD Poland parcel back: the return is DPD's return label of the outbound waybills
 * (generateDomesticReturnLabelV1, the warehouse as its receiver), answered with the return's own waybills and their
 * labels; the return parcels are tracked to the warehouse like any other.
 */
describe('DPD Poland returns: the return label of the outbound waybills', () => {
  let emu: RunningEmulators;
  let proxy: RecordingProxy;
  let settings: Record<string, string | number | boolean>;
  let made = 0;

  const ctx = () => ({ channelId: 'ch_dpd_pl_returns', log: pino({ level: 'silent' }), clock: systemClock, timeoutMs: 10_000, progress: memoryProgress() });
  const operations = () => proxy.calls.map((c) => soapOperation(c.body).name);
  /** An outbound shipment of `parcels` parcels, created at the emulated DPD. */
  const outbound = async (parcels = 1) => {
    const s = demoShipment(provider, `sh_dpdpl_out_${++made}`, today(), parcels);
    return { s, created: await provider.adapter.createShipment(s, settings, ctx()) };
  };
  /** Its return as packdesk hands it over: the parties swapped, the outbound's numbers in `returnOf`. */
  const returnOf = (s: ShipmentForCarrier, created: CreatedAtCarrier, extra: Partial<ShipmentForCarrier> = {}): ShipmentForCarrier => ({
    ...returnShipment(s, created, `sh_dpdpl_ret_${++made}`), ...extra,
  });
  /** An operation element posted as DPD receives it; the answer's Body. */
  const posted = async (element: string) => {
    const name = /^<ns:(\w+)/.exec(element)![1]!;
    const envelope = `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body>${element}</soap:Body></soap:Envelope>`;
    const response = await fetch(`${emu.urls.dpd_pl}${PACKAGE_SERVICE_PATH}`, { method: 'POST', headers: soapHttpHeaders(DPD_PACKAGE_SERVICE, name), body: envelope });
    return { name, body: readSoapBody(await response.text()) as XmlObject };
  };

  withCarrierBehindProxy(provider, (running) => ({ emu, proxy, settings } = running));

  it('declares returns', () => {
    expect(provider.capabilities.returns).toBe(true);
  });

  it('makes the return label of a two-parcel shipment (generateDomesticReturnLabelV1: its waybills, the warehouse as receiver), with a waybill per parcel, tracked to the warehouse', async () => {
    const { s, created } = await outbound(2);
    proxy.calls.length = 0;

    const returned = await provider.adapter.createShipment(returnOf(s, created), settings, ctx());
    expect(operations()).toEqual(['generateDomesticReturnLabelV1']);
    const sent = soapOperation(proxy.calls[0]!.body).element;
    expect(xsdErrors(sent, XSD), 'the request against DPD\'s schema').toEqual([]);
    const [first, second] = created.parcels.map((p) => p.trackingNumber);
    expect(sent).toContain(`<returnedWaybillsV1><waybill>${first}</waybill><waybill>${second}</waybill></returnedWaybillsV1>`);
    expect(sent).toContain('<receiver><address>Leśna 100</address><city>Warszawa</city><company>Magazyn Wola sp. z o.o.</company><countryCode>PL</countryCode><email>magazyn@example.pl</email><phone>+48601987654</phone><postalCode>02274</postalCode></receiver>');
    expect(sent).toContain('<outputDocFormatV1>PDF</outputDocFormatV1><outputDocPageFormatV1>LBL_PRINTER</outputDocPageFormatV1><outputLabelType>RETURN</outputLabelType>');

    expect(returned.product).toBe('DOMESTIC_RETURN');
    expect(returned.providerShipmentId).not.toBe(created.providerShipmentId);
    expect(returned.parcels).toHaveLength(2);
    for (const parcel of returned.parcels) {
      expect(parcel.trackingNumber).toMatch(provider.adapter.trackingNumberPattern!);
      expect([first, second]).not.toContain(parcel.trackingNumber);
      expect(await decodePdfBarcodes(parcel.label)).toEqual([[parcel.trackingNumber]]);
      // from the customer in Radom to the warehouse in Warsaw
      expect(pdfText(parcel.label)).toMatch(/Łukasz Żółć[\s\S]*Magazyn Wola sp\. z o\.o\./);
    }
    const record = emu.emulator('dpd_pl').shipments().find((r) => r.packageId === returned.providerShipmentId);
    expect(record).toMatchObject({ returnOf: [first, second], receiver: { city: 'Warszawa' }, sender: { city: 'Radom' } });

    const [parcel] = returned.parcels;
    await advanceEmulatedParcel(emu.url, 'dpd_pl', parcel!.trackingNumber, 'delivered');
    const events = await trackedEvents(provider, { trackingNumber: parcel!.trackingNumber }, settings, ctx());
    expect(events.at(-1)).toMatchObject({ status: 'delivered' });
  });

  it('prints the return label as ZPL', async () => {
    const { s, created } = await outbound();
    proxy.calls.length = 0;
    const returned = await provider.adapter.createShipment(returnOf(s, created, { labelFormat: 'zpl' }), settings, ctx());
    expect(soapOperation(proxy.calls[0]!.body).element).toContain('<outputDocFormatV1>ZPL</outputDocFormatV1>');
    const [parcel] = returned.parcels;
    expect(await decodeZplBarcodes(parcel!.label.toString('utf8'))).toEqual([[parcel!.trackingNumber]]);
  });

  it('passes on DPD’s refusal of a return label for a waybill it does not know on the return’s return_of', async () => {
    const { s, created } = await outbound();
    const unknown = returnOf(s, { ...created, parcels: [{ ...created.parcels[0]!, trackingNumber: '0000099999999Q' }] });

    const refused = await refusalOf(provider.adapter.createShipment(unknown, settings, ctx()));
    expect(refused.errors).toEqual({ return_of: ['DPD Poland made no return label (NOT_FOUND: Waybill not found: 0000099999999Q)'] });
  });

  it('refuses in the emulator, as DPD, a domestic return label to a receiver abroad, one without the receiver’s street, and a misspelt element', async () => {
    const { s, created } = await outbound();
    const request = (shipment: ShipmentForCarrier) => dpdPlCreateRequest(shipment, dpdPlSettings.parse(settings));
    const statusOf = ({ name, body }: { name: string; body: XmlObject }) => parseReturnLabelBody(body, name);

    const berlin = { ...s.sender, street: 'Hauptstraße', houseNumber: '5', city: 'Berlin', postalCode: '10115', countryCode: 'DE' };
    const abroad = request(returnOf({ ...s, sender: berlin }, created)).replace('generateReturnLabelV1', 'generateDomesticReturnLabelV1').replace('generateReturnLabelV1', 'generateDomesticReturnLabelV1');
    expect(xsdErrors(abroad, XSD)).toEqual([]);
    expect(statusOf(await posted(abroad))).toEqual({
      state: 'refused',
      message: 'DPD Poland made no return label (NOT_PROCESSED: Return receiver in DE: domestic return labels go to Poland, use generateReturnLabelV1)',
      errors: { shipment: ['DPD Poland made no return label (NOT_PROCESSED: Return receiver in DE: domestic return labels go to Poland, use generateReturnLabelV1)'] },
    });

    const noStreet = request(returnOf(s, created)).replace(/<address>[^<]*<\/address>/, '');
    expect(statusOf(await posted(noStreet))).toMatchObject({ state: 'refused', message: expect.stringContaining('NOT_PROCESSED: Return receiver: name or company, address, city and postal code are required') });

    const misspelt = request(returnOf(s, created)).replace('<receiver>', '<reciever>').replace('</receiver>', '</reciever>');
    const fault = await posted(misspelt);
    expect(fault.body).toMatchObject({ reason: expect.stringContaining("Invalid content was found starting with element 'reciever'") });
    expect(emu.emulator('dpd_pl').shipments().filter((r) => r.receiver && (r.receiver as { city: string }).city === 'Berlin')).toEqual([]);
  });
});
