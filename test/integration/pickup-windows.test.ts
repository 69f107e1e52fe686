import { fileURLToPath } from 'node:url';
import pino from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startEmulators, type RunningEmulators } from '../../src/carriers/emulator/server.js';
import { CarrierTransientError } from '../../src/carriers/errors.js';
import { findProvider } from '../../src/carriers/registry.js';
import type { CarrierContext, CarrierParty, ShipmentToDispatch } from '../../src/carriers/types.js';
import { ManualClock } from '../../src/domain/clock.js';
import { allegroAccessToken, demoShipment, memoryProgress, refusalOf, toDispatch } from '../helpers/dispatch-adapter.js';
import { recordingProxy, type RecordingProxy } from '../helpers/recording-proxy.js';
import { soapOperation, xsdErrors } from '../helpers/xsd.js';
import { carrierSchemaErrors } from '../helpers/json-schema.js';

/**
 * The courier windows a carrier offers on a day at the sender's address, asked through its adapter over HTTP from its
 * emulator, with a recording proxy between them. The carriers' and the test's clock stand at Wednesday 2 December 2026,
 * 10:30 in Warsaw, so what "today" and "the weekend" offer is known.
 */

const clock = new ManualClock(Date.parse('2026-12-02T09:30:00Z'));
const TODAY = '2026-12-02';
const TOMORROW = '2026-12-03';
const YESTERDAY = '2026-12-01';
const SATURDAY = '2026-12-05';
const SUNDAY = '2026-12-06';

const ctx = (channelId: string, extra: Partial<CarrierContext> = {}): CarrierContext => ({ channelId, log: pino({ level: 'silent' }), clock, timeoutMs: 5_000, ...extra });
const xsdOf = (code: string) => fileURLToPath(new URL(`../../src/carriers/${code}/fixtures/schema/create-request.xsd`, import.meta.url));
const elsewhere = (party: CarrierParty, postalCode: string): CarrierParty => ({ ...party, postalCode });

describe('Courier windows offered by DPD Poland, DHL Parcel Poland and Allegro', () => {
  let emu: RunningEmulators;
  let proxy: RecordingProxy;

  const fault = async (code: string, mode: string) => {
    const res = await fetch(`${emu.url}/_emulator/${code}/faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ mode, count: 1 }) });
    expect(res.status).toBe(200);
  };

  beforeAll(async () => {
    emu = await startEmulators({ providers: ['dpd_pl', 'dhl_pl', 'allegro'], port: 0, clock });
    proxy = await recordingProxy(emu.url, { bodies: true });
  });
  afterAll(async () => {
    await proxy?.close();
    await emu?.close();
  });
  beforeEach(() => {
    proxy.calls.length = 0;
  });

  describe('DPD Poland: getCourierOrderAvailabilityV1', () => {
    const provider = findProvider('dpd_pl')!;
    const windows = provider.adapter.dispatch!.pickupWindows!;
    const sender = demoShipment(provider, 'sh_sender', TODAY).sender;
    let settings: Record<string, string | number | boolean>;
    beforeAll(() => {
      settings = { ...provider.demo.settings, baseUrl: `${proxy.url}/dpd_pl` };
    });

    it('offers each of DPD\'s ranges as a window on a working day, and today only those DPD can still be ordered for; the request is DPD\'s schema', async () => {
      expect(await windows({ date: TOMORROW, sender }, settings, ctx('ch_dpd_pl'))).toEqual([
        { date: TOMORROW, from: '10:00', to: '13:00' },
        { date: TOMORROW, from: '14:00', to: '16:00' },
        { date: TOMORROW, from: '15:00', to: '17:00' },
        { date: TOMORROW, from: '17:00', to: '19:00' },
      ]);
      // at 10:30 the 10:00 range needed its order by 9:00 (offset 60) and 14:00 needs it by 12:00 (offset 120)
      expect(await windows({ date: TODAY, sender }, settings, ctx('ch_dpd_pl'))).toEqual([
        { date: TODAY, from: '14:00', to: '16:00' },
        { date: TODAY, from: '15:00', to: '17:00' },
        { date: TODAY, from: '17:00', to: '19:00' },
      ]);
      expect(proxy.calls).toHaveLength(2);
      for (const call of proxy.calls) {
        const element = soapOperation(call.body).element;
        expect(element).toMatch(/^<ns:getCourierOrderAvailabilityV1 [^>]*><senderPlaceV1><countryCode>PL<\/countryCode><zipCode>02274<\/zipCode><\/senderPlaceV1>/);
        expect(xsdErrors(element, xsdOf('dpd_pl'))).toEqual([]);
      }
    });

    it('offers no window on a Saturday or a Sunday', async () => {
      expect(await windows({ date: SATURDAY, sender }, settings, ctx('ch_dpd_pl'))).toEqual([]);
      expect(await windows({ date: SUNDAY, sender }, settings, ctx('ch_dpd_pl'))).toEqual([]);
    });

    it('refuses a past day without asking DPD, and a post code DPD does not know on the sender\'s post code', async () => {
      const past = await refusalOf(windows({ date: YESTERDAY, sender }, settings, ctx('ch_dpd_pl')));
      expect(past.errors).toEqual({ date: [`DPD Poland: ${YESTERDAY} is in the past: DPD's courier comes on ${TODAY} at the earliest`] });
      expect(proxy.calls).toHaveLength(0);

      const unknown = await refusalOf(windows({ date: TOMORROW, sender: elsewhere(sender, '00-000') }, settings, ctx('ch_dpd_pl')));
      expect(unknown.message).toBe('DPD Poland refused the courier availability: DPD has no courier for post code 00000 (NONEXISTING_POSTAL_CODE)');
      expect(unknown.errors).toEqual({ 'sender.postal_code': ['DPD Poland: DPD has no courier for post code 00000 (NONEXISTING_POSTAL_CODE)'] });
    });

    it('takes DPD\'s server fault as an outage', async () => {
      await fault('dpd_pl', 'error500');
      await expect(windows({ date: TOMORROW, sender }, settings, ctx('ch_dpd_pl'))).rejects.toBeInstanceOf(CarrierTransientError);
    });
  });

  describe('DHL Parcel Poland: getPostalCodeServices', () => {
    const provider = findProvider('dhl_pl')!;
    const windows = provider.adapter.dispatch!.pickupWindows!;
    const sender = demoShipment(provider, 'sh_sender', TODAY).sender;
    let settings: Record<string, string | number | boolean>;
    beforeAll(() => {
      settings = { ...provider.demo.settings, baseUrl: `${proxy.url}/dhl_pl` };
    });

    it('offers DHL\'s earliest to latest collection of parcels as one window, today from the next hour; the request is DHL\'s WSDL types', async () => {
      expect(await windows({ date: TOMORROW, sender }, settings, ctx('ch_dhl_pl'))).toEqual([{ date: TOMORROW, from: '09:00', to: '17:00' }]);
      expect(await windows({ date: TODAY, sender }, settings, ctx('ch_dhl_pl'))).toEqual([{ date: TODAY, from: '11:00', to: '17:00' }]);
      expect(proxy.calls.map((c) => c.soapAction?.split('#')[1])).toEqual(['getPostalCodeServices', 'getPostalCodeServices']);
      const element = soapOperation(proxy.calls[0]!.body).element;
      expect(element).toContain(`<postCode>02796</postCode><pickupDate>${TOMORROW}</pickupDate>`);
      expect(xsdErrors(element, xsdOf('dhl_pl'))).toEqual([]);
    });

    it('offers a channel sending pallets DHL\'s hours for freight', async () => {
      expect(await windows({ date: TOMORROW, sender }, { ...settings, product: 'CM' }, ctx('ch_dhl_pl_pallets'))).toEqual([{ date: TOMORROW, from: '10:00', to: '15:00' }]);
    });

    it('offers no window on a Sunday', async () => {
      expect(await windows({ date: SUNDAY, sender }, settings, ctx('ch_dhl_pl'))).toEqual([]);
    });

    it('passes on DHL\'s refusal of a past day on the day, and of a post code DHL does not serve on the sender\'s post code', async () => {
      const past = await refusalOf(windows({ date: YESTERDAY, sender }, settings, ctx('ch_dhl_pl')));
      expect(past.errors).toEqual({ date: [`DHL Parcel Poland: pickupDate: data ${YESTERDAY} już minęła`] });

      const unknown = await refusalOf(windows({ date: TOMORROW, sender: elsewhere(sender, '00-000') }, settings, ctx('ch_dhl_pl')));
      expect(unknown.message).toBe('DHL Parcel Poland refused the courier availability: DHL offers no service at post code 00000');
      expect(unknown.errors).toEqual({ 'sender.postal_code': ['DHL Parcel Poland: DHL offers no service at post code 00000'] });
    });

    it('takes DHL\'s server fault as an outage', async () => {
      await fault('dhl_pl', 'error500');
      await expect(windows({ date: TOMORROW, sender }, settings, ctx('ch_dhl_pl'))).rejects.toBeInstanceOf(CarrierTransientError);
    });
  });

  describe('Allegro: pickup proposals', () => {
    const provider = findProvider('allegro')!;
    const windows = provider.adapter.dispatch!.pickupWindows!;
    const sender = demoShipment(provider, 'sh_sender', TODAY).sender;
    let settings: Record<string, string | number | boolean>;
    let accessToken: string;
    let shipments: ShipmentToDispatch[];
    const allegroCtx = () => ctx('ch_allegro', { grant: { accessToken: async () => accessToken, refused: async () => undefined }, sleep: async () => undefined });
    const query = (date: string, of: { sender?: CarrierParty; shipments?: ShipmentToDispatch[] } = {}) => ({ date, sender: of.sender ?? sender, shipments: of.shipments ?? shipments });
    /** Allegro's published PickupProposalsRequestDto, from the OpenAPI components kept beside the carrier's fixtures. */
    const proposalsSchemaErrors = carrierSchemaErrors('allegro', undefined, 'PickupProposalsRequestDto');

    beforeAll(async () => {
      settings = { ...provider.demo.settings, baseUrl: `${proxy.url}/allegro` };
      accessToken = await allegroAccessToken(provider, emu);
      shipments = [];
      for (const [i, parcels] of [1, 2].entries()) {
        const s = demoShipment(provider, `sh_allegro_windows_${i}`, TODAY, parcels);
        shipments.push(toDispatch(s, await provider.adapter.createShipment(s, settings, { ...allegroCtx(), progress: memoryProgress() })));
      }
    });

    it('offers the slots proposed for every shipment on the day, today only those still to begin; the request is Allegro\'s schema', async () => {
      expect(await windows(query(TOMORROW), settings, allegroCtx())).toEqual([
        { date: TOMORROW, from: '09:00', to: '12:00' },
        { date: TOMORROW, from: '12:00', to: '16:00' },
      ]);
      expect(await windows(query(TODAY), settings, allegroCtx())).toEqual([{ date: TODAY, from: '12:00', to: '16:00' }]);
      const asked = proxy.calls.filter((c) => c.method === 'POST' && c.path === '/allegro/shipment-management/pickup-proposals');
      expect(asked).toHaveLength(2);
      const request = JSON.parse(asked[0]!.body!) as Record<string, unknown>;
      expect(request).toMatchObject({ shipmentIds: shipments.map((s) => s.providerShipmentId), readyDate: TOMORROW, address: { postalCode: '00-111' } });
      expect(proposalsSchemaErrors(request)).toEqual([]);
    });

    it('offers no window on a Sunday', async () => {
      expect(await windows(query(SUNDAY), settings, allegroCtx())).toEqual([]);
    });

    it('passes on Allegro\'s refusal of a past day and of a post code no carrier collects at, and asks nothing without shipments', async () => {
      const past = await refusalOf(windows(query(YESTERDAY), settings, allegroCtx()));
      expect(past.errors).toEqual({ date: [`Allegro: The ready date ${YESTERDAY} is in the past.`] });

      const unknown = await refusalOf(windows(query(TOMORROW, { sender: elsewhere(sender, '00-000') }), settings, allegroCtx()));
      expect(unknown.message).toBe('Allegro refused the pickup proposals: No carrier collects at postal code 00-000: it does not exist. (VALIDATION_ERROR)');
      expect(unknown.errors).toEqual({ 'sender.postal_code': ['Allegro: No carrier collects at postal code 00-000: it does not exist.'] });

      proxy.calls.length = 0;
      const none = await refusalOf(windows(query(TOMORROW, { shipments: [] }), settings, allegroCtx()));
      expect(none.errors).toEqual({ shipment_ids: ['Allegro: Allegro proposes pickup times for created shipments only, and none was given'] });
      expect(proxy.calls).toHaveLength(0);
    });

    it('takes Allegro\'s server error as an outage', async () => {
      await fault('allegro', 'error500');
      await expect(windows(query(TOMORROW), settings, allegroCtx())).rejects.toBeInstanceOf(CarrierTransientError);
    });
  });
});
