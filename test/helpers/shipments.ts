import { findProvider } from '../../src/carriers/registry.js';
import { expect } from 'vitest';
import { startEmulators, type RunningEmulators } from '../../src/carriers/emulator/server.js';
import { startTestDaemon, type TestAccount, type TestDaemon } from './harness.js';

/** A valid creation body (Prague → Brno); override what a story needs. */
export function shipmentBody(channelId: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    shipping_channel_id: channelId,
    label_format: 'pdf',
    reference_number: 'ORDER-1001',
    sender_contact: { company_name: 'Sklad Praha s.r.o.', email_address: 'sklad@example.cz', phone_number: '+420601111222' },
    recipient_contact: { first_name: 'Řehoř', last_name: 'Šťastný', email_address: 'rehor@example.cz', phone_number: '+420 602 333 444' },
    origin_address: { street_name: 'Skladová', house_number: '12', city_name: 'Praha', postal_code: '11000', country_code: 'CZ' },
    destination_address: { street_name: 'Údolní', house_number: '5', apartment_number: '3', city_name: 'Brno', postal_code: '60200', country_code: 'CZ' },
    parcels: [{ weight_amount: 1.5, length_dimension: 30, width_dimension: 20, height_dimension: 10 }],
    ...overrides,
  };
}

export function parcelsOf(n: number): Record<string, unknown>[] {
  return Array.from({ length: n }, (_, i) => ({ weight_amount: 1 + i, length_dimension: 30, width_dimension: 20, height_dimension: 10 + i }));
}

/** An active PPL channel pointed at the emulator. */
export async function pplChannel(account: TestAccount, emulatorUrl: string, settings: Record<string, unknown> = {}): Promise<string> {
  const res = await account.request('POST', '/v1/shipping-channels', {
    name: `PPL ${Math.random().toString(36).slice(2, 8)}`, provider: 'ppl',
    settings: { clientId: 'station-1', clientSecret: 'ppl-secret-value', baseUrl: emulatorUrl, ...settings },
  });
  expect(res.statusCode, res.body).toBe(201);
  expect(res.json().data.status, JSON.stringify(res.json().data.validation_error)).toBe('active');
  return res.json().data.id as string;
}

/** A daemon in the test process with one account and its active PPL channel on a PPL emulator, as ERP stories need. */
export interface PplStation {
  d: TestDaemon;
  emu: RunningEmulators;
  a: TestAccount;
  channel: string;
  /** Stops the workers (if started), the daemon and the emulator. */
  close(): Promise<void>;
}

export async function startPplStation(accountName: string): Promise<PplStation> {
  const emu = await startEmulators({ providers: ['ppl'], port: 0 });
  const d = await startTestDaemon();
  const a = await d.account(accountName);
  const channel = await pplChannel(a, emu.urls.ppl!);
  return {
    d, emu, a, channel,
    close: async () => {
      await d.workers.stop();
      await d.close();
      await emu.close();
    },
  };
}

/** An active channel of `provider` with its demo story's settings, pointed at its emulator. */
export async function demoChannel(account: TestAccount, provider: string, emulatorUrl: string): Promise<string> {
  const res = await account.request('POST', '/v1/shipping-channels', {
    name: `${provider} ${Math.random().toString(36).slice(2, 8)}`, provider, settings: { ...findProvider(provider)!.demo.settings, baseUrl: emulatorUrl },
  });
  expect(res.statusCode, res.body).toBe(201);
  expect(res.json().data.status, JSON.stringify(res.json().data.validation_error)).toBe('active');
  return res.json().data.id as string;
}

/** A shipment of `provider`'s demo story (without its COD currency) with `parcels` parcels, created at the carrier: the jobs ran. */
export async function createdDemoShipment(d: TestDaemon, account: TestAccount, provider: string, channelId: string, parcels: number) {
  const { cash_on_delivery_currency: _codCurrency, ...parties } = findProvider(provider)!.demo.shipment;
  const res = await account.request('POST', '/v1/shipments', {
    ...parties, shipping_channel_id: channelId, label_format: 'pdf', reference_number: `${provider.toUpperCase()}-TRACK`, parcels: parcelsOf(parcels),
  });
  expect(res.statusCode, res.body).toBe(201);
  await d.runJobs();
  const created = (await account.request('GET', `/v1/shipments/${res.json().data.id}`)).json().data;
  expect(created.status, JSON.stringify(created.failure)).toBe('created');
  return created as { id: string; provider_shipment_id: string; parcels: { tracking_number: string; tracking_status: string }[] };
}

/** Moves a parcel on in `provider`'s emulator (`/_emulator/<provider>/parcels/<number>/advance`): the events it went through, in the carrier's shape. */
export async function advanceEmulatedParcel(emulatorUrl: string, provider: string, number: string, to: string): Promise<Record<string, unknown>[]> {
  const res = await fetch(`${emulatorUrl}/_emulator/${provider}/parcels/${encodeURIComponent(number)}/advance`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ to }),
  });
  const answer = await res.text();
  expect(res.status, answer).toBe(200);
  return (JSON.parse(answer) as { events: Record<string, unknown>[] }).events;
}

export interface EmulatedShipment {
  referenceId: string;
  shipmentNumbers: string[];
  state: string;
  productType: string;
}

/** The PPL emulator's control endpoints (`/_emulator/ppl/…`) of a running emulator. */
export function pplEmulatorControl(emulatorUrl: () => string) {
  const post = (path: string, body: unknown) => fetch(`${emulatorUrl()}/_emulator/ppl/${path}`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body),
  });
  return {
    fault: (body: Record<string, unknown>) => post('faults', body),
    advance: (trackingNumber: string, to?: string) => post(`parcels/${trackingNumber}/advance`, to ? { to } : {}),
    shipments: async (): Promise<EmulatedShipment[]> =>
      ((await (await fetch(`${emulatorUrl()}/_emulator/ppl/shipments`)).json()) as { shipments: EmulatedShipment[] }).shipments,
  };
}
