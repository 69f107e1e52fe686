import pino from 'pino';
import { describe, expect, it } from 'vitest';
import type { RunningEmulators } from '../../src/carriers/emulator/server.js';
import { CarrierRefusedError } from '../../src/carriers/errors.js';
import { findProvider } from '../../src/carriers/registry.js';
import type { CarrierContext, ShipmentForCarrier } from '../../src/carriers/types.js';
import { systemClock } from '../../src/domain/clock.js';
import { decodePdfBarcodes, decodeZplBarcodes } from '../helpers/barcodes.js';
import { demoShipment, memoryProgress, pdfText, withCarrierBehindProxy } from '../helpers/dispatch-adapter.js';
import type { RecordingProxy } from '../helpers/recording-proxy.js';

/**
 * Packeta's delivery to the door, driven through the adapter against its emulator: Packeta Home prints Packeta's
 * label (packetCourierNumber answers NotSupportedFault), a partner carrier's door delivery prints that carrier's
 * label with its number (packetCourierNumber, then packetCourierLabelPdf or packetCourierLabelZpl), while packdesk
 * tracks every packet by Packeta's barcode.
 */

const provider = findProvider('packeta')!;
/** The emulator's partner carrier for Hungary (its id is the emulator's own). */
const PARTNER = '9001';

describe('Packeta delivers to the door, itself or through a partner carrier', () => {
  let emu: RunningEmulators;
  let proxy: RecordingProxy;
  let settings: Record<string, string | number | boolean>;

  const ctx: CarrierContext = { channelId: 'ch_packeta_door', log: pino({ level: 'silent' }), clock: systemClock, timeoutMs: 10_000 };
  const operations = () => proxy.calls.map((c) => /^<(\w+)>/.exec(c.body ?? '')?.[1] ?? c.path);
  const sentXml = (operation: string) => proxy.calls.map((c) => c.body ?? '').filter((b) => b.startsWith(`<${operation}>`));
  const create = (s: ShipmentForCarrier, extra: Record<string, string | number | boolean> = {}) =>
    provider.adapter.createShipment(s, { ...settings, ...extra }, { ...ctx, progress: memoryProgress() });

  /** The demo shipment of `parcels` parcels to a door in Budapest, with 12 990 HUF to collect. */
  function toBudapest(parcels: number, labelFormat: ShipmentForCarrier['labelFormat'] = 'pdf'): ShipmentForCarrier {
    const demo = demoShipment(provider, `sh_pkhu_${Math.random().toString(36).slice(2, 12)}`, new Date().toISOString().slice(0, 10), parcels);
    return {
      ...demo, labelFormat, cashOnDelivery: { amountMinor: 1_299_000, currency: 'HUF' },
      recipient: { ...demo.recipient, phone: '+36301234567', street: 'Váci utca', houseNumber: '12', city: 'Budapest', postalCode: '1052', countryCode: 'HU' },
    };
  }

  withCarrierBehindProxy(provider, (running) => ({ emu, proxy, settings } = running));

  it('prints the partner carrier\'s label with its number for a door it delivers to, and tracks the packets by Packeta\'s barcodes', async () => {
    const created = await create(toBudapest(2), { homeDeliveryCarrierId: PARTNER });

    expect(operations()).toEqual(['createPacket', 'createPacket', 'packetCourierNumber', 'packetCourierNumber', 'packetCourierLabelPdf', 'packetCourierLabelPdf']);
    const [first] = sentXml('createPacket');
    expect(first).toContain(`<addressId>${PARTNER}</addressId><cod>12990.00</cod><currency>HUF</currency>`);
    expect(first).toContain('<street>Váci utca</street><houseNumber>12</houseNumber><city>Budapest</city><zip>1052</zip>');
    expect(created.product).toBe('home-delivery');
    for (const parcel of created.parcels) {
      expect(parcel.trackingNumber).toBe(`Z${parcel.carrierRef}`);
      expect(await decodePdfBarcodes(parcel.label)).toEqual([[`HUP${parcel.carrierRef}`]]);
      expect(pdfText(parcel.label)).toContain('HU Partner Courier HD');
    }
    expect(sentXml('packetCourierLabelPdf')[0]).toContain(`<packetId>${created.parcels[0]!.carrierRef}</packetId><courierNumber>HUP${created.parcels[0]!.carrierRef}</courierNumber>`);
    const [tracked] = await provider.adapter.track([{ trackingNumber: created.parcels[1]!.trackingNumber }], settings, ctx);
    expect(tracked).toMatchObject({ found: true, events: [{ code: '1', status: 'created' }] });
  });

  it('prints the partner carrier\'s ZPL label at 203 dpi', async () => {
    const created = await create(toBudapest(1, 'zpl'), { homeDeliveryCarrierId: PARTNER });
    expect(operations()).toEqual(['createPacket', 'packetCourierNumber', 'packetCourierLabelZpl']);
    expect(sentXml('packetCourierLabelZpl')[0]).toContain('<dpi>203</dpi>');
    expect(await decodeZplBarcodes(Buffer.from(created.parcels[0]!.label).toString('utf8'))).toEqual([[`HUP${created.parcels[0]!.carrierRef}`]]);
  });

  it('prints Packeta\'s own labels, in one document, where Packeta Home delivers to the door itself', async () => {
    const demo = demoShipment(provider, `sh_pkcz_${Math.random().toString(36).slice(2, 12)}`, new Date().toISOString().slice(0, 10), 2);
    const created = await create(demo);
    expect(operations()).toEqual(['createPacket', 'createPacket', 'packetCourierNumber', 'packetCourierNumber', 'packetsLabelsPdf']);
    expect(sentXml('createPacket')[0]).toContain('<addressId>106</addressId>');
    for (const parcel of created.parcels) expect(await decodePdfBarcodes(parcel.label)).toEqual([[parcel.trackingNumber]]);
  });

  it('refuses a door in a country whose home-delivery carrier the channel does not name, before Packeta is asked', async () => {
    const refused = await create(toBudapest(1)).then(() => { throw new Error('sent'); }, (err: unknown) => err as CarrierRefusedError);
    expect(refused).toBeInstanceOf(CarrierRefusedError);
    expect(Object.keys(refused.errors)).toEqual(['destination_address.country_code']);
    expect(operations()).toEqual([]);
  });
});
