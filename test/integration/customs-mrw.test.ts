import { fileURLToPath } from 'node:url';
import pino from 'pino';
import { beforeEach, describe, expect, it } from 'vitest';
import type { RunningEmulators } from '../../src/carriers/emulator/server.js';
import { CarrierRefusedError } from '../../src/carriers/errors.js';
import { authInfoHeader, mrwCreateRequest } from '../../src/carriers/mrw/request.js';
import { SAGEC_PATH, SAGEC_SERVICE } from '../../src/carriers/mrw/services.js';
import { mrwSettings } from '../../src/carriers/mrw/settings.js';
import { findProvider } from '../../src/carriers/registry.js';
import { readSoapBody, soapEnvelope, soapHttpHeaders, xmlObject } from '../../src/carriers/soap.js';
import type { CarrierContext, CarrierParty, CustomsForCarrier, ShipmentForCarrier } from '../../src/carriers/types.js';
import { systemClock } from '../../src/domain/clock.js';
import { demoShipment, memoryProgress, nextWorkingDay, refusalOf, withCarrierBehindProxy } from '../helpers/dispatch-adapter.js';
import type { RecordingProxy } from '../helpers/recording-proxy.js';
import { xsdErrors } from '../helpers/xsd.js';

/**
 * MRW across a customs border, driven through the adapter against its emulator: a Madrid warehouse's parcel to the
 * Canary Islands goes with SAGEC's customs data (the kind of goods, the declared value, the recipient's NIF, the
 * contents in the observations: MRW's SAGEC manual §2.3 and §3.2); one without them is refused on `customs…`; a
 * parcel within the peninsula goes as before. MRW takes no item lines and makes no invoice: packdesk renders its own.
 */

const provider = findProvider('mrw')!;
const adapter = provider.adapter;
const XSD = fileURLToPath(new URL('../../src/carriers/mrw/fixtures/schema/create-request.xsd', import.meta.url));

/** The TransmEnvio element of a recorded SOAP call, as sent. */
function transmEnvioOf(body: string | undefined): string | undefined {
  return /<soap:Body>(<TransmEnvio [\s\S]*)<\/soap:Body>/.exec(body ?? '')?.[1];
}

const LAS_PALMAS: Partial<CarrierParty> = {
  companyName: null, personName: 'Carmen Déniz', phone: '+34628111222', email: 'carmen.deniz@example.es',
  street: 'Calle Mayor de Triana', houseNumber: '45', apartmentNumber: null, city: 'Las Palmas de Gran Canaria', postalCode: '35002', countryCode: 'ES',
};
const ANDORRA_LA_VELLA: Partial<CarrierParty> = {
  companyName: 'Botiga Meritxell', personName: 'Jordi Pujol', phone: '+376812345', email: 'botiga@example.ad',
  street: 'Avinguda Meritxell', houseNumber: '80', apartmentNumber: null, city: 'Andorra la Vella', postalCode: 'AD500', countryCode: 'AD',
};

/** Three goods of a Madrid sports shop: 1 × 89.95 + 3 × 12.50 + 2 × 14.90 = 157.25 EUR, over the 150 € of low value. */
const THREE_ITEMS: CustomsForCarrier = {
  contentsType: 'sale', incoterm: 'DAP', invoiceNumber: 'FV-2026-0815', invoiceDate: '2026-11-23', currency: 'EUR',
  exporterEori: 'ESB12345678', exporterVatNumber: 'ESB12345678', importerTaxId: '42123456Z',
  items: [
    { description: 'Zapatillas de running', hsCode: '640411', quantity: 1, unitValueMinor: 8995, unitWeightKg: 0.9, originCountry: 'VN', sku: 'ZR-42' },
    { description: 'Calcetines técnicos', hsCode: '611595', quantity: 3, unitValueMinor: 1250, unitWeightKg: 0.08, originCountry: 'PT', sku: null },
    { description: 'Botella de agua de acero', hsCode: '732393', quantity: 2, unitValueMinor: 1490, unitWeightKg: 0.35, originCountry: 'CN', sku: 'BT-75' },
  ],
};

describe('MRW customs: SAGEC\'s customs data sent with a shipment to the Canary Islands or Andorra', () => {
  let emu: RunningEmulators;
  let proxy: RecordingProxy;
  let settings: Record<string, string | number | boolean>;
  let made = 0;
  const ctx: CarrierContext = { channelId: 'ch_mrw_customs', log: pino({ level: 'silent' }), clock: systemClock, timeoutMs: 10_000 };
  const create = (s: ShipmentForCarrier) => adapter.createShipment(s, settings, { ...ctx, progress: memoryProgress() });
  /** The demo's Madrid warehouse sending one 3.2 kg parcel to `recipient`, with `customs`. */
  const shipmentTo = (recipient: Partial<CarrierParty>, customs: CustomsForCarrier | null): ShipmentForCarrier => {
    const s = demoShipment(provider, `sh_mrw_customs_${++made}`, nextWorkingDay());
    return { ...s, recipient: { ...s.recipient, ...recipient }, parcels: [{ ...s.parcels[0]!, weightKg: 3.2 }], customs };
  };
  const sentTransmEnvio = () => proxy.calls.map((c) => transmEnvioOf(c.body)).filter((e): e is string => e !== undefined);
  /** The last TransmEnvio's request, read back as elements. */
  const lastRequest = () => {
    const body = readSoapBody(`<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body>${sentTransmEnvio().at(-1)!}</soap:Body></soap:Envelope>`);
    const request = xmlObject(xmlObject(xmlObject(body as never).TransmEnvio).request);
    return { recogida: xmlObject(request.DatosRecogida), entrega: xmlObject(request.DatosEntrega), servicio: xmlObject(request.DatosServicio) };
  };

  withCarrierBehindProxy(provider, (running) => ({ emu, proxy, settings } = running));
  beforeEach(() => {
    emu.emulator('mrw').reset();
  });

  it('declares that it sends customs declarations', () => {
    expect(provider.capabilities.customs).toBe(true);
  });

  it('sends Madrid → Las Palmas with 3 customs items: the request passes MRW\'s schema with the kind of goods, the declared value, both NIFs and the contents', async () => {
    const created = await create({ ...shipmentTo(LAS_PALMAS, THREE_ITEMS), labelComment: 'Entregar por la tarde' });

    const [sent] = sentTransmEnvio();
    expect(xsdErrors(sent!, XSD), 'the request against MRW\'s schema').toEqual([]);
    const { recogida, entrega, servicio } = lastRequest();
    expect(recogida.Nif).toBe('ESB12345678');
    expect(entrega).toMatchObject({
      Nif: '42123456Z', Nombre: 'Carmen Déniz',
      Observaciones: 'Entregar por la tarde; 1 x Zapatillas de running, 3 x Calcetines técnicos, 2 x Botella de agua de acero',
    });
    expect(xmlObject(entrega.Direccion).CodigoPostal).toBe('35002');
    // over 150 € the goods are of high value (ATV); the value in euros with MRW's decimal comma
    expect(servicio).toMatchObject({ TipoMercancia: 'ATV', ValorDeclarado: '157,25' });
    expect(emu.emulator('mrw').shipments()).toEqual([
      expect.objectContaining({ numeroEnvio: created.providerShipmentId, customs: { tipoMercancia: 'ATV', valorDeclarado: '157,25', recipientNif: '42123456Z' } }),
    ]);
    // MRW makes no customs document: packdesk renders the commercial invoice
    expect(created).not.toHaveProperty('documents');
  });

  it('sends a gift to Andorra as MRW writes its post code (AD500 → 00500), of low value (BJV), and a sample with its value as MCV', async () => {
    const gift: CustomsForCarrier = { ...THREE_ITEMS, contentsType: 'gift', importerTaxId: 'F-123456-Z', items: THREE_ITEMS.items.slice(0, 1) };
    await create(shipmentTo(ANDORRA_LA_VELLA, gift));
    const andorra = lastRequest();
    expect(xsdErrors(sentTransmEnvio().at(-1)!, XSD)).toEqual([]);
    expect(xmlObject(andorra.entrega.Direccion).CodigoPostal).toBe('00500');
    expect(andorra.entrega.Telefono).toBe('812345');
    expect(andorra.servicio).toMatchObject({ TipoMercancia: 'BJV', ValorDeclarado: '89,95' });

    await create(shipmentTo(LAS_PALMAS, { ...THREE_ITEMS, contentsType: 'sample', items: THREE_ITEMS.items.slice(1, 2) }));
    expect(lastRequest().servicio).toMatchObject({ TipoMercancia: 'MCV', ValorDeclarado: '37,50' });
    expect(emu.emulator('mrw').shipments().map((s) => (s as { customs: unknown }).customs)).toEqual([
      { tipoMercancia: 'BJV', valorDeclarado: '89,95', recipientNif: 'F-123456-Z' }, { tipoMercancia: 'MCV', valorDeclarado: '37,50', recipientNif: '42123456Z' },
    ]);
  });

  it('refuses Madrid → Las Palmas without customs data at MRW, on the customs fields', async () => {
    const refusal = await refusalOf(create(shipmentTo(LAS_PALMAS, null)));
    expect(refusal).toBeInstanceOf(CarrierRefusedError);
    expect(refusal.errors).toEqual({
      'customs.importer_tax_id': ['MRW: Envío a Canarias: falta el NIF del destinatario.'],
      customs: ['MRW: Envío a Canarias: faltan las observaciones con el contenido del envío.', 'MRW: Envío a Canarias: falta el valor declarado.'],
      'customs.contents_type': ['MRW: Envío a Canarias: falta el tipo de mercancía.'],
    });
    expect(sentTransmEnvio()).toHaveLength(1);
    expect(emu.emulator('mrw').shipments()).toEqual([]);
  });

  it('refuses before asking MRW a declaration without the recipient\'s NIF where MRW\'s franchise would hold it, or in another currency than EUR', async () => {
    const withoutNif = await refusalOf(create(shipmentTo(LAS_PALMAS, { ...THREE_ITEMS, importerTaxId: null })));
    expect(withoutNif.errors).toEqual({
      'customs.importer_tax_id': ["MRW needs the recipient's NIF (or equivalent) for a shipment to the Canary Islands: without it MRW's franchise holds the shipment for review"],
    });
    const inDollars = await refusalOf(create(shipmentTo(LAS_PALMAS, { ...THREE_ITEMS, currency: 'USD' })));
    expect(inDollars.errors).toEqual({ 'customs.currency': ['MRW takes the declared value (ValorDeclarado) in EUR only'] });
    expect(sentTransmEnvio()).toEqual([]);
  });

  it('answers a kind of goods or a declared value it does not know as SAGEC does, Estado 0', async () => {
    const demo = mrwSettings.parse(provider.demo.settings);
    const element = mrwCreateRequest(shipmentTo(LAS_PALMAS, THREE_ITEMS), demo)
      .replace('<TipoMercancia>ATV</TipoMercancia>', '<TipoMercancia>ALTO</TipoMercancia>').replace('157,25', '157.25 EUR');
    const res = await fetch(`${emu.urls.mrw}${SAGEC_PATH}`, {
      method: 'POST', headers: soapHttpHeaders(SAGEC_SERVICE, 'TransmEnvio'), body: soapEnvelope(SAGEC_SERVICE, element, [authInfoHeader(demo)]),
    });
    const answer = await res.text();
    expect(answer).toContain('<Estado>0</Estado><Mensaje>1) El tipo de mercancía ALTO no es válido.2) El valor declarado 157.25 EUR no es válido.</Mensaje>');
    expect(provider.mappers.parseRefusal(res.status, answer).errors).toEqual({
      'customs.contents_type': ['MRW: El tipo de mercancía ALTO no es válido.'], customs: ['MRW: El valor declarado 157.25 EUR no es válido.'],
    });
    expect(emu.emulator('mrw').shipments()).toEqual([]);
  });

  it('sends Madrid → Barcelona without customs as before: no NIF, kind of goods, declared value or observations', async () => {
    await create(shipmentTo({}, null));
    const [sent] = sentTransmEnvio();
    expect(xsdErrors(sent!, XSD)).toEqual([]);
    for (const element of ['Nif', 'Observaciones', 'TipoMercancia', 'ValorDeclarado']) expect(sent).not.toContain(`<${element}>`);
    expect(sent).toContain('<Reembolso>N</Reembolso><Notificaciones>');
    expect(emu.emulator('mrw').shipments()).toEqual([expect.objectContaining({ customs: null })]);
  });
});
