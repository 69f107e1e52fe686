import { fileURLToPath } from 'node:url';
import pino from 'pino';
import { beforeEach, describe, expect, it } from 'vitest';
import type { GeneratedPoint } from '../../src/carriers/emulator/points.js';
import type { RunningEmulators } from '../../src/carriers/emulator/server.js';
import { CarrierRefusedError } from '../../src/carriers/errors.js';
import { mrwOffices } from '../../src/carriers/mrw/emulator.js';
import { authInfoHeader, mrwCreateRequest } from '../../src/carriers/mrw/request.js';
import { SAGEC_PATH, SAGEC_SERVICE } from '../../src/carriers/mrw/services.js';
import { mrwSettings } from '../../src/carriers/mrw/settings.js';
import { soapEnvelope, soapHttpHeaders } from '../../src/carriers/soap.js';
import { findProvider } from '../../src/carriers/registry.js';
import type { CarrierContext, ShipmentForCarrier } from '../../src/carriers/types.js';
import { systemClock } from '../../src/domain/clock.js';
import { decodePdfBarcodes } from '../helpers/barcodes.js';
import { memoryProgress, pdfText, pointShipment, refusalOf, withCarrierBehindProxy } from '../helpers/dispatch-adapter.js';
import type { RecordingProxy } from '../helpers/recording-proxy.js';
import { advanceEmulatedParcel } from '../helpers/shipments.js';
import { xsdErrors } from '../helpers/xsd.js';

/**
 * MRW's "entrega en franquicia", driven through the adapter against its emulator: a COD parcel to an MRW franchise
 * office (`EnFranquicia` E, the office in `CodigoFranquiciaAsociadaPuntoEntrega`, the recipient told by the "aviso de
 * entrega en franquicia"), its label, its tracking at the office and out of it, and SAGEC's refusals of an office.
 * MRW has no point finder here: the offices are the emulator's own.
 */

const provider = findProvider('mrw')!;
const adapter = provider.adapter;
const XSD = fileURLToPath(new URL('../../src/carriers/mrw/fixtures/schema/create-request.xsd', import.meta.url));
const offices = [...mrwOffices()];

/** The TransmEnvio element of a recorded SOAP call, as sent. */
function transmEnvioOf(body: string | undefined): string | undefined {
  return /<soap:Body>(<TransmEnvio [\s\S]*)<\/soap:Body>/.exec(body ?? '')?.[1];
}

describe('MRW delivers to its franchise offices ("entrega en franquicia")', () => {
  let emu: RunningEmulators;
  let proxy: RecordingProxy;
  let settings: Record<string, string | number | boolean>;
  const ctx: CarrierContext = { channelId: 'ch_mrw_points', log: pino({ level: 'silent' }), clock: systemClock, timeoutMs: 10_000 };
  const sentTransmEnvio = () => proxy.calls.map((c) => transmEnvioOf(c.body)).filter((e): e is string => e !== undefined);
  const create = (s: ShipmentForCarrier) => adapter.createShipment(s, settings, { ...ctx, progress: memoryProgress() });
  const track = async (trackingNumber: string) => {
    const [result] = await adapter.track([{ trackingNumber }], settings, ctx);
    if (!result?.found) throw new Error(`MRW does not know ${trackingNumber}`);
    return result.events;
  };
  const advance = (trackingNumber: string, to: string) => advanceEmulatedParcel(emu.url, 'mrw', trackingNumber, to);

  /** The demo recipient at the office's address (as packdesk fills a destination the shipment left out). */
  const toOffice = ([code, office]: [string, GeneratedPoint], cod: ShipmentForCarrier['cashOnDelivery']) =>
    pointShipment(provider, { id: code, type: 'post_office', address: { ...office, countryCode: 'ES' } }, cod);

  withCarrierBehindProxy(provider, (running) => ({ emu, proxy, settings } = running));
  beforeEach(() => {
    emu.emulator('mrw').reset();
  });

  it('declares MRW franchise offices, with no point finder', () => {
    expect(adapter.pickupPoints).toEqual({ types: ['post_office'] });
  });

  it('sends a 1-parcel COD shipment to an office: EnFranquicia E, the office, the office notice; the label decodes; tracking reads ready for pickup, then delivered', async () => {
    const office = offices.find(([, o]) => o.open)!;
    const created = await create(toOffice(office, { amountMinor: 4_990, currency: 'EUR' }));

    const [sent] = sentTransmEnvio();
    expect(xsdErrors(sent!, XSD), 'the request against MRW\'s schema').toEqual([]);
    expect(sent).toContain(`<Direccion><Via>${office[1].street}</Via><Numero>${office[1].houseNumber}</Numero><CodigoPostal>${office[1].postalCode}</CodigoPostal><Poblacion>${office[1].city}</Poblacion><CodigoFranquiciaAsociadaPuntoEntrega>${office[0]}</CodigoFranquiciaAsociadaPuntoEntrega></Direccion>`);
    expect(sent).toContain('<EnFranquicia>E</EnFranquicia>');
    expect(sent).toContain('<Reembolso>O</Reembolso><ImporteReembolso>49,90</ImporteReembolso>');
    expect(sent).toContain('<NotificacionRequest><CanalNotificacion>1</CanalNotificacion><TipoNotificacion>3</TipoNotificacion><MailSMS>lucia@example.es</MailSMS></NotificacionRequest>');
    expect(emu.emulator('mrw').shipments()).toEqual([expect.objectContaining({ franchiseOffice: { code: office[0] }, cod: { commission: 'O', amount: '49,90' } })]);

    const [parcel] = created.parcels;
    expect(created.parcels).toHaveLength(1);
    expect((await decodePdfBarcodes(parcel!.label)).flat()).toContain(parcel!.trackingNumber);
    expect(pdfText(parcel!.label)).toContain(`0800 Franquicia ${office[0]}`);

    await advance(parcel!.trackingNumber, 'ready_for_pickup');
    expect((await track(parcel!.trackingNumber)).at(-1)).toMatchObject({ code: '07', text: 'Pendiente de recoger en franquicia', status: 'ready_for_pickup' });
    await advance(parcel!.trackingNumber, 'delivered');
    const collected = await track(parcel!.trackingNumber);
    expect(collected.at(-1)).toMatchObject({ code: '00', status: 'delivered' });
    expect(collected.map((e) => e.code), 'at the destination franchise, waiting there, collected: never out for delivery').toEqual(['40', '17', '11', '13', '07', '00']);
  });

  it('tells the recipient without an e-mail of the office by SMS; a parcel collected waited at the office first', async () => {
    const office = offices.find(([, o]) => o.open)!;
    const s = toOffice(office, null);
    const { parcels: [parcel] } = await create({ ...s, recipient: { ...s.recipient, email: null } });
    expect(sentTransmEnvio()[0]).toContain('<NotificacionRequest><CanalNotificacion>2</CanalNotificacion><TipoNotificacion>3</TipoNotificacion><MailSMS>600111222</MailSMS></NotificacionRequest>');
    await advance(parcel!.trackingNumber, 'delivered');
    expect((await track(parcel!.trackingNumber)).map((e) => e.code)).toEqual(['40', '17', '11', '13', '07', '00']);
  });

  it('refuses an office MRW does not have and one that takes no parcels now on pickup_point, and a shop or locker before MRW is asked', async () => {
    const open = offices.find(([, o]) => o.open)!;
    const unknown = await refusalOf(create(toOffice(['99999', open[1]], null)));
    expect(unknown).toBeInstanceOf(CarrierRefusedError);
    expect(unknown.errors).toEqual({ pickup_point: ['MRW: La franquicia de entrega 99999 no existe.'] });

    const closed = offices.find(([, o]) => !o.open)!;
    expect((await refusalOf(create(toOffice(closed, null)))).errors).toEqual({ pickup_point: [`MRW: La franquicia de entrega ${closed[0]} no admite envíos en este momento.`] });
    expect(emu.emulator('mrw').shipments()).toEqual([]);

    const asked = sentTransmEnvio().length;
    const locker = await refusalOf(create({ ...toOffice(open, null), pickupPoint: { id: open[0], type: 'locker' } }));
    expect(locker.errors).toEqual({ pickup_point: ['MRW delivers to its franchise offices only (type post_office), not to a locker: choose an MRW office'] });
    expect(sentTransmEnvio()).toHaveLength(asked);
  });

  it('answers a franchise-office shipment without the office notice as SAGEC does, Estado 0', async () => {
    const demo = mrwSettings.parse(provider.demo.settings);
    const element = mrwCreateRequest(toOffice(offices.find(([, o]) => o.open)!, null), demo).replace(/<Notificaciones>.*<\/Notificaciones>/, '');
    const res = await fetch(`${emu.urls.mrw}${SAGEC_PATH}`, {
      method: 'POST', headers: soapHttpHeaders(SAGEC_SERVICE, 'TransmEnvio'), body: soapEnvelope(SAGEC_SERVICE, element, [authInfoHeader(demo)]),
    });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('<Estado>0</Estado><Mensaje>1) Debe indicar la notificación de aviso de entrega en franquicia al destinatario</Mensaje>');
    expect(emu.emulator('mrw').shipments()).toEqual([]);
  });
});
