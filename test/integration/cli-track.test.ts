import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { startStation, type Station } from '../helpers/cli.js';

interface TrackingParcel {
  id: string;
  tracking_number: string;
  status: string;
  origin: string;
  shipment_id: string | null;
  checks_done: number;
  next_check_at: string | null;
  status_updates: { status: string; carrier_status: { code: string; text: string | null } }[];
}

describe('packdesk track against a real daemon and the PPL emulator', () => {
  let station: Station;
  let emulatorUrl: string;
  let shipChannel: string;
  let trackChannel: string;
  let shipmentId: string;
  let number: string;
  let external: TrackingParcel;

  const advance = async (trackingNumber: string, to: string) => {
    const res = await fetch(`${emulatorUrl}/_emulator/ppl/parcels/${trackingNumber}/advance`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ to }),
    });
    expect(res.status).toBe(200);
  };

  beforeAll(async () => {
    station = await startStation({ ppl: true });
    emulatorUrl = station.pplUrl!.replace(/\/ppl$/, '');
    shipChannel = (await station.addPplChannel('PPL shipping')).id;
    // the same PPL account on a second channel: numbers shipped on the first can be tracked on it by hand
    trackChannel = (await station.addPplChannel('PPL tracking')).id;

    const res = await fetch(`${station.daemonUrl}/v1/shipments`, {
      method: 'POST',
      headers: { authorization: `Bearer ${station.apiKey}`, 'content-type': 'application/json', prefer: 'wait=30' },
      body: JSON.stringify({
        shipping_channel_id: shipChannel, label_format: 'pdf', reference_number: 'TRACK-1',
        sender_contact: { company_name: 'Sklad Praha s.r.o.', email_address: 'sklad@example.cz', phone_number: '+420601111222' },
        recipient_contact: { first_name: 'Jana', last_name: 'Nováková', email_address: 'jana@example.cz', phone_number: '+420602333444' },
        origin_address: { street_name: 'Skladová', house_number: '12', city_name: 'Praha', postal_code: '11000', country_code: 'CZ' },
        destination_address: { street_name: 'Údolní', house_number: '5', city_name: 'Brno', postal_code: '60200', country_code: 'CZ' },
        parcels: [{ weight_amount: 1.5, length_dimension: 30, width_dimension: 20, height_dimension: 10 }],
      }),
    });
    const shipment = (await res.json()) as { data: { id: string; status: string; parcels: { tracking_number: string }[] } };
    expect(shipment.data.status).toBe('created');
    shipmentId = shipment.data.id;
    number = shipment.data.parcels[0]!.tracking_number;
  });

  afterAll(async () => {
    if (station) expect(await station.stop()).toBe(0);
  });

  it('track add --json tracks a PPL number on a channel; a bad number or a second add fails with the field named', async () => {
    external = await station.cliJson<TrackingParcel>(['track', 'add', number, '--channel', trackChannel, '--check-delay-hours', '2', '--max-checks', '10', '--json']);
    expect(external).toMatchObject({ tracking_number: number, status: 'created', origin: 'external', shipment_id: null, checks_done: 0 });
    expect(external.id).toMatch(/^tp_/);

    const twice = await station.cli(['track', 'add', number, '--channel', trackChannel]);
    expect(twice.code).toBe(1);
    expect(twice.stderr).toContain('tracking_number: is already tracked on this shipping channel');
    const bad = await station.cli(['track', 'add', '12AB', '--channel', trackChannel]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/tracking_number: is not a PPL tracking number/);
    const noChannel = await station.cli(['track', 'add', number]);
    expect(noChannel.code).toBe(2);
    const badDelay = await station.cli(['track', 'add', number, '--channel', trackChannel, '--check-delay-hours', 'soon']);
    expect(badDelay.code).toBe(2);
  });

  it('track refresh asks PPL now and shows the new status with the carrier code', async () => {
    await advance(number, 'in_transit');
    const refreshed = await station.cliJson<TrackingParcel>(['track', 'refresh', external.id, '--json']);
    expect(refreshed.status).toBe('in_transit');
    expect(refreshed.checks_done).toBeGreaterThanOrEqual(1);
    expect(refreshed.status_updates.map((u) => u.carrier_status.code)).toEqual(['150', '900']);

    await advance(number, 'out_for_delivery');
    const human = await station.cli(['track', 'refresh', external.id]);
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout).toMatch(/status\s+out_for_delivery/);
    expect(human.stdout).toContain('status updates (newest first)');
    expect(human.stdout).toMatch(/out_for_delivery\s*│\s*400\s*│\s*Out for delivery/);
  });

  it('track show and track list, with filters, in tables and JSON', async () => {
    const shown = await station.cli(['track', 'show', external.id]);
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toContain(number);
    expect(shown.stdout).toMatch(/checks\s+\d+ of 10, every 2 h/);

    const list = await station.cliJson<{ data: TrackingParcel[]; meta: { total: number } }>(['track', 'list', '--json']);
    expect(list.meta.total).toBe(2); // the shipment's parcel and the one added by hand
    expect(list.data.map((p) => p.origin).sort()).toEqual(['external', 'shipment']);
    const moving = await station.cliJson<{ data: TrackingParcel[] }>(['track', 'list', '--status', 'out_for_delivery', '--json']);
    expect(moving.data.map((p) => p.id)).toEqual([external.id]);
    const byChannel = await station.cliJson<{ data: TrackingParcel[] }>(['track', 'list', '--channel', shipChannel, '--json']);
    expect(byChannel.data.map((p) => p.shipment_id)).toEqual([shipmentId]);
    const table = await station.cli(['track', 'list', '--search', number.slice(2, 8)]);
    expect(table.code).toBe(0);
    expect(table.stdout).toContain(external.id);
    expect(table.stdout).toContain('page 1 of 1, 2 in all');
  });

  it("shipments show lists each parcel's tracking status, kept by the shipment's own tracking parcel", async () => {
    const list = await station.cliJson<{ data: TrackingParcel[] }>(['track', 'list', '--channel', shipChannel, '--json']);
    const internal = list.data[0]!;
    expect(await station.cliJson<TrackingParcel>(['track', 'refresh', internal.id, '--json'])).toMatchObject({ status: 'out_for_delivery' });
    const shown = await station.cli(['shipments', 'show', shipmentId]);
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toMatch(/status\s+shipped/);
    expect(shown.stdout).toContain('tracking status');
    expect(shown.stdout).toMatch(new RegExp(`${number}\\s*│\\s*out_for_delivery`));

    const refused = await station.cli(['track', 'remove', internal.id]);
    expect(refused.code).toBe(1);
    expect(refused.stdout).toBe('');
    // the API names the field with the message itself: said once
    expect(refused.stderr).toBe(`packdesk: Cannot delete the tracking parcel of shipment ${shipmentId}; set enable_tracking to false on the shipment to stop tracking it\n`);
    const json = await station.cli(['track', 'remove', internal.id, '--json']);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stderr)).toMatchObject({ message: expect.stringContaining('enable_tracking'), errors: { id: [expect.stringContaining('enable_tracking')] } });
  });

  it("the emulator's control endpoints answer errors in the API's envelope", async () => {
    const control = (path: string, body: string) => fetch(`${emulatorUrl}/_emulator/${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    const unknown = await control('ppl/parcels/unknown/advance', JSON.stringify({ to: 'in_transit' }));
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({ message: 'unknown parcel unknown', errors: { tracking_number: ['is not a parcel the ppl emulator created'] } });
    const badTarget = await control(`ppl/parcels/${number}/advance`, JSON.stringify({ to: 'the moon' }));
    expect(badTarget.status).toBe(400);
    expect(await badTarget.json()).toEqual({ message: 'The given data was invalid.', errors: { to: [expect.stringMatching(/^must be one of .*in_transit/)] } });
    const notJson = await control('ppl/faults', '{mode');
    expect(notJson.status).toBe(400);
    expect(await notJson.json()).toEqual({ message: expect.stringContaining('invalid JSON') });
    const noProvider = await control('nope/faults', JSON.stringify({ mode: 'none' }));
    expect(noProvider.status).toBe(404);
    expect(await noProvider.json()).toMatchObject({ message: 'no emulator for provider nope is running', errors: { provider: [expect.stringContaining('ppl')] } });
    const nowhere = await fetch(`${emulatorUrl}/_emulator/ppl/nowhere`);
    expect(nowhere.status).toBe(404);
    expect(await nowhere.json()).toEqual({ message: 'no control endpoint GET /_emulator/ppl/nowhere' });
  });

  it('track remove stops tracking a number added by hand; show then exits 3', async () => {
    const removed = await station.cli(['track', 'remove', external.id]);
    expect(removed.code, removed.stderr).toBe(0);
    expect(removed.stdout).toBe(`removed ${external.id}\n`);
    const gone = await station.cli(['track', 'show', external.id]);
    expect(gone.code).toBe(3);
    expect((await station.cli(['track', 'remove', 'tp_00000000000000000000'])).code).toBe(3);
  });
});
