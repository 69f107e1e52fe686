import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { startEmulators, type RunningEmulators } from '../../src/carriers/emulator/server.js';
import { localTime } from '../../src/carriers/local-time.js';
import { findProvider } from '../../src/carriers/registry.js';
import { CarrierRefusedError } from '../../src/carriers/errors.js';
import type {
  CarrierContext, CarrierParty, CarrierProgress, ChannelSettings, CreatedAtCarrier, CustomsForCarrier, ParcelToTrack, PickupPoint, ProviderDefinition, ShipmentForCarrier,
  ShipmentToDispatch,
} from '../../src/carriers/types.js';
import { recordingProxy } from './recording-proxy.js';

/** Helpers for stories that drive a carrier's adapter directly: shipments of its demo, progress kept in memory, a PDF's text. */

interface DemoContact { company_name?: string; first_name?: string; last_name?: string; email_address: string; phone_number: string }
interface DemoAddress { street_name: string; house_number: string; apartment_number?: string; city_name: string; postal_code: string; country_code: string }

function party(contact: DemoContact, address: DemoAddress): CarrierParty {
  return {
    companyName: contact.company_name ?? null, personName: [contact.first_name, contact.last_name].filter(Boolean).join(' ') || null,
    email: contact.email_address, phone: contact.phone_number, street: address.street_name, houseNumber: address.house_number,
    apartmentNumber: address.apartment_number ?? null, city: address.city_name, postalCode: address.postal_code, countryCode: address.country_code,
  };
}

/** The provider's demo shipment (its `fixtures/contract.json` parties) with `parcels` parcels of 1, 2, 3 … kg, as the adapter takes it. */
export function demoShipment(provider: ProviderDefinition, id: string, shippingDate: string, parcels = 1): ShipmentForCarrier {
  const demo = provider.demo.shipment as Record<string, DemoContact & DemoAddress>;
  return {
    id, reference: `REF-${id}`, shippingDate, labelFormat: 'pdf',
    sender: party(demo.sender_contact!, demo.origin_address!), recipient: party(demo.recipient_contact!, demo.destination_address!),
    parcels: Array.from({ length: parcels }, (_, i) => ({ parcelType: 'package', weightKg: 1 + i, lengthCm: 30, widthCm: 20, heightCm: 10 })),
    cashOnDelivery: null, labelComment: null, pickupPoint: null, customs: null, returnOf: null,
  };
}

/** A call straight to the One by Allegro emulator, with the demo account's HTTP Basic login as One's API takes it. */
export function callOneEmulator(emulatorUrl: string, method: string, path: string, body?: unknown): Promise<Response> {
  const { apiUser, apiKey } = findProvider('onedelivery')!.demo.settings as { apiUser: string; apiKey: string };
  return fetch(`${emulatorUrl}/${path}`, {
    method, headers: { authorization: `Basic ${Buffer.from(`${apiUser}:${apiKey}`).toString('base64')}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
}

/**
 * The return of `s` as the carrier step hands it to an adapter (services/shipments/returns.ts): the customer sends,
 * the warehouse receives, no COD and no point, a declaration of the same goods as a return, the outbound named.
 */
export function returnShipment(s: ShipmentForCarrier, outbound: Pick<CreatedAtCarrier, 'providerShipmentId' | 'parcels'>, id: string): ShipmentForCarrier {
  return {
    ...s, id, sender: s.recipient, recipient: s.sender, cashOnDelivery: null, pickupPoint: null,
    customs: s.customs ? { ...s.customs, contentsType: 'return' } : null,
    returnOf: { providerShipmentId: outbound.providerShipmentId, trackingNumbers: outbound.parcels.map((p) => p.trackingNumber) },
  };
}

/**
 * A Czech e-shop's declaration of three goods (2 × 12.99 + 1 × 7.25 + 3 × 24.50 = 106.73 in `currency`, 2.3 kg) sold
 * DDP, as the carrier step hands it to an adapter.
 */
export function threeGoods(currency: string, invoiceNumber: string, invoiceDate: string): CustomsForCarrier {
  return {
    contentsType: 'sale', incoterm: 'DDP', invoiceNumber, invoiceDate, currency,
    exporterEori: 'CZ12345678', exporterVatNumber: 'CZ12345678', importerTaxId: null,
    items: [
      { description: 'Cotton T-shirt, screen printed', hsCode: '610910', quantity: 2, unitValueMinor: 1299, unitWeightKg: 0.2, originCountry: 'CZ', sku: 'TS-01' },
      { description: 'Ceramic coffee mug', hsCode: '69120085', quantity: 1, unitValueMinor: 725, unitWeightKg: 0.4, originCountry: 'PL', sku: null },
      { description: 'Illustrated book, hardcover', hsCode: '4901990000', quantity: 3, unitValueMinor: 2450, unitWeightKg: 0.5, originCountry: 'CZ', sku: 'BK-7' },
    ],
  };
}

/**
 * The provider's demo shipment to `point` instead of a door: the recipient's address is the point's, as packdesk fills
 * it when a shipment names a point and no address.
 */
export function pointShipment(
  provider: ProviderDefinition, point: Pick<PickupPoint, 'id' | 'address'> & { type: PickupPoint['type'] | null },
  cashOnDelivery: ShipmentForCarrier['cashOnDelivery'], options: { id?: string; shippingDate?: string; parcels?: number } = {},
): ShipmentForCarrier {
  const s = demoShipment(provider, options.id ?? `sh_point_${Math.random().toString(36).slice(2, 10)}`, options.shippingDate ?? nextWorkingDay(), options.parcels);
  const { street, houseNumber, city, postalCode, countryCode } = point.address;
  return {
    ...s, recipient: { ...s.recipient, street, houseNumber, apartmentNumber: null, city, postalCode, countryCode },
    cashOnDelivery, pickupPoint: { id: point.id, type: point.type },
  };
}

/** The carrier's refusal a call ends in; fails the test when the call succeeds or fails otherwise. */
export function refusalOf(call: Promise<unknown>): Promise<CarrierRefusedError> {
  return call.then(
    () => { throw new Error('the carrier took it'); },
    (err: unknown) => {
      if (err instanceof CarrierRefusedError) return err;
      throw err;
    },
  );
}

/** The events the adapter's tracking reads of a parcel; fails the test where the carrier does not know it. */
export async function trackedEvents(provider: ProviderDefinition, parcel: ParcelToTrack, settings: ChannelSettings, ctx: CarrierContext) {
  const [result] = await provider.adapter.track([parcel], settings, ctx);
  if (!result?.found) throw new Error(`${provider.name} does not know ${parcel.trackingNumber}`);
  return result.events;
}

/** What a dispatch hands the carrier of a shipment `createShipment` created. */
export function toDispatch(s: ShipmentForCarrier, created: CreatedAtCarrier): ShipmentToDispatch {
  return {
    providerShipmentId: created.providerShipmentId, reference: s.reference, cashOnDelivery: s.cashOnDelivery,
    parcels: created.parcels.map((p, i) => ({ trackingNumber: p.trackingNumber, carrierRef: p.carrierRef ?? null, weightKg: s.parcels[i]!.weightKg })),
  };
}

/** Progress kept in memory, as the store keeps it between attempts; `failSave` makes the next save matching it throw once. */
export function memoryProgress(): CarrierProgress & { state: Record<string, unknown> | null; failSave(when: (saved: Record<string, unknown>) => boolean): void } {
  let failing: ((saved: Record<string, unknown>) => boolean) | undefined;
  const progress = {
    state: null as Record<string, unknown> | null,
    load: () => progress.state,
    save: async (saved: Record<string, unknown>) => {
      if (failing?.(saved)) {
        failing = undefined;
        throw new Error('the process died before the progress was stored');
      }
      progress.state = saved;
    },
    failSave: (when: (saved: Record<string, unknown>) => boolean) => {
      failing = when;
    },
  };
  return progress;
}

/** The text of a PDF, as `pdftotext` reads it (layout kept, so a line reads as printed). */
export function pdfText(pdf: Uint8Array): string {
  const read = spawnSync('pdftotext', ['-layout', '-', '-'], { input: pdf, encoding: 'utf8' });
  if (read.error) throw read.error;
  if (read.status !== 0) throw new Error(`pdftotext: ${read.stderr}`);
  return read.stdout;
}

/** The next Monday-to-Friday after `now`, in the station's time zone (the process's): a day every carrier's courier works. */
export function nextWorkingDay(now = Date.now()): string {
  const clock = localTime(Intl.DateTimeFormat().resolvedOptions().timeZone);
  for (let days = 1; ; days++) {
    const day = clock.format(now + days * 86_400_000).slice(0, 10);
    if (![0, 6].includes(new Date(`${day}T12:00:00Z`).getUTCDay())) return day;
  }
}

/** The carrier's emulator behind a recording proxy, and its demo settings (with `extra`) pointed at the proxy. */
export async function carrierBehindProxy(provider: ProviderDefinition, extra: Record<string, string | number | boolean> = {}) {
  const emu = await startEmulators({ providers: [provider.code], port: 0 });
  const proxy = await recordingProxy(emu.url, { bodies: true });
  const settings: Record<string, string | number | boolean> = { ...provider.demo.settings, ...extra, baseUrl: `${proxy.url}/${provider.code}` };
  return { emu, proxy, settings };
}

/**
 * carrierBehindProxy (the demo settings with `extra`) around a describe block's tests: started before them and handed
 * to `take`, the proxy's record emptied before each test, closed after them.
 */
export function withCarrierBehindProxy(
  provider: ProviderDefinition, take: (running: Awaited<ReturnType<typeof carrierBehindProxy>>) => void | Promise<void>,
  extra: Record<string, string | number | boolean> = {},
): void {
  let running: Awaited<ReturnType<typeof carrierBehindProxy>> | undefined;
  beforeAll(async () => {
    running = await carrierBehindProxy(provider, extra);
    await take(running);
  });
  beforeEach(() => {
    if (running) running.proxy.calls.length = 0;
  });
  afterAll(async () => {
    await running?.proxy.close();
    await running?.emu.close();
  });
}

/** A seller's access token at the Allegro emulator: the person authorises the application once, by the device flow, as the daemon does. */
export async function allegroAccessToken(provider: ProviderDefinition, emu: RunningEmulators): Promise<string> {
  const { clientId, clientSecret } = provider.demo.settings as { clientId: string; clientSecret: string };
  const basic = { authorization: `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}` };
  const device = (await (await fetch(`${emu.urls.allegro}/auth/oauth/device?client_id=${clientId}`, { method: 'POST', headers: basic })).json()) as { device_code: string; user_code: string };
  await fetch(`${emu.url}/_emulator/allegro/device/${device.user_code}/approve`, { method: 'POST' });
  const grant = new URLSearchParams({ grant_type: 'urn:ietf:params:oauth:grant-type:device_code', device_code: device.device_code });
  return ((await (await fetch(`${emu.urls.allegro}/auth/oauth/token?${grant}`, { method: 'POST', headers: basic })).json()) as { access_token: string }).access_token;
}
