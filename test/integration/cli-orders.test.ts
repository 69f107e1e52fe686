import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startEmulators, type RunningEmulators } from '../../src/carriers/emulator/server.js';
import { decodePdfBarcodes } from '../helpers/barcodes.js';
import { startStation, type Station } from '../helpers/cli.js';
import { pplEmulatorControl } from '../helpers/shipments.js';

interface Order {
  id: string;
  status: string;
  reference_number: string | null;
  shipment_id: string | null;
  recipient_contact: Record<string, string>;
  destination_address: Record<string, string>;
}

interface ShippedOrder {
  id: string;
  status: string;
  reference_number: string | null;
  parcels: { tracking_number: string | null; weight_amount: number; length_dimension: number }[];
  label_file: { path: string; format: string; pages: number } | null;
  not_printed?: string;
}

interface ListBody<T> {
  data: T[];
  meta: { total: number };
}

const SENDER = {
  sender_contact: { company_name: 'Sklad Praha s.r.o.', email_address: 'sklad@example.cz', phone_number: '+420601111222' },
  origin_address: { street_name: 'Skladová', house_number: '12', city_name: 'Praha', postal_code: '11000', country_code: 'CZ' },
};

describe('packdesk orders: the packer works through the order queue against a real daemon', () => {
  let station: Station;
  let emu: RunningEmulators;
  let channel: string;
  const orders: Record<'jan' | 'bakery' | 'nowhere', Order> = {} as never;
  const { shipments: emulated } = pplEmulatorControl(() => emu.url);

  /** The daemon's /v1 API with the station's key, as a shop or ERP calls it. */
  const api = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(station.daemonUrl + path, {
      method, headers: { authorization: `Bearer ${station.apiKey}`, 'content-type': 'application/json' }, body: JSON.stringify(body),
    });
    const json = (await res.json()) as { data: Order };
    expect(res.status, JSON.stringify(json)).toBeLessThan(300);
    return json.data;
  };
  const queue = (reference: string, recipient: Record<string, string>, destination: Record<string, string>) =>
    api('POST', '/v1/orders', { ...SENDER, reference_number: reference, recipient_contact: recipient, destination_address: { country_code: 'CZ', ...destination } });

  beforeAll(async () => {
    emu = await startEmulators({ providers: ['ppl'], port: 0 });
    station = await startStation();
    channel = (await station.cliJson<{ id: string }>([
      'channels', 'add', '--name', 'PPL', '--provider', 'ppl', '--setting', 'clientId=c1', '--setting', 'clientSecret=s3cret',
      '--setting', `baseUrl=${emu.urls.ppl}`, '--json',
    ])).id;
    // a parcel weighed at the desk goes in the channel's usual box
    await api('PATCH', `/v1/shipping-channels/${channel}`, { parcel_defaults: { length_dimension: 30, width_dimension: 20, height_dimension: 15 } });
    // the shop writes names, phones and streets as people do; the API stores them in the carriers' form
    orders.jan = await queue('Q-5001', { name: 'Ing. Jan Novák', email_address: 'jan@example.cz', phone_number: '777 888 999' },
      { street_name: 'Údolní 5', city_name: 'Brno', postal_code: '602 00' });
    orders.bakery = await queue('Q-5002', { company_name: 'Pekárna Olomouc', email_address: 'pekarna@example.cz', phone_number: '+420603444555' },
      { street_name: 'Dlouhá', house_number: '5a', city_name: 'Olomouc', postal_code: '779 00' });
  });

  afterAll(async () => {
    if (station) expect(await station.stop()).toBe(0);
    await emu?.close();
  });

  it('orders list shows the awaiting queue oldest first, as the API read it, in a table of 100 columns and as JSON', async () => {
    const listed = await station.cliJson<ListBody<Order>>(['orders', 'list', '--json']);
    expect(listed.data.map((o) => o.id)).toEqual([orders.jan.id, orders.bakery.id]);
    expect(listed.data[0]).toMatchObject({
      status: 'awaiting', shipment_id: null,
      recipient_contact: { first_name: 'Ing. Jan', last_name: 'Novák', phone_number: '+420777888999' },
      destination_address: { street_name: 'Údolní', house_number: '5', postal_code: '60200' },
    });

    const table = await station.cli(['orders', 'list']);
    expect(table.code, table.stderr).toBe(0);
    const rows = table.stdout.split('\n');
    const janRow = rows.findIndex((line) => line.includes(orders.jan.id));
    // the creation time is the desk's local minute, wrapped below its date where the 100 columns need it
    expect(rows[janRow]).toMatch(/│ Q-5001\s+│ Ing\. Jan Novák\s+│ 60200 Brno\s+│ awaiting\s+│ \d{4}-\d\d-\d\d( \d\d:\d\d)?\s+│$/);
    expect(rows.findIndex((line) => line.includes(orders.bakery.id))).toBeGreaterThan(janRow);
    expect(table.stdout).toContain('page 1 of 1, 2 in all');
    for (const line of rows) expect([...line].length, line).toBeLessThanOrEqual(100);

    const found = await station.cliJson<ListBody<Order>>(['orders', 'list', '--search', '77900', '--json']);
    expect(found.data.map((o) => o.reference_number)).toEqual(['Q-5002']);
    // the shell offers the queue's ids with what they are
    const ids = await station.cli(['completion', 'ids', 'orders', '--describe']);
    expect(ids.stdout).toBe(`${orders.jan.id}\tQ-5001 Ing. Jan Novák\n${orders.bakery.id}\tQ-5002 Pekárna Olomouc\n`);
    expect((await station.cli(['completion', 'bash'])).stdout).toContain("'orders ship|0') printf '%s\\n' ids:orders ;;");
  });

  it('orders show prints the order as queued: no parcels until the packer weighs them', async () => {
    const shown = await station.cli(['orders', 'show', orders.jan.id]);
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toMatch(/^recipient\s+Ing\. Jan Novák — Údolní 5, 60200 Brno, CZ$/m);
    expect(shown.stdout).toMatch(/^channel\s+given when shipping$/m);
    expect(shown.stdout).toContain('parcels: none yet, given when shipping (--weight or --parcel)');
  });

  it('orders ship weighs the parcel into the channel\'s box, saves a label whose barcode is the tracking number; again, it answers the same shipment', async () => {
    const out = join(station.tmp, 'label.pdf');
    const shipped = await station.cli(['orders', 'ship', orders.jan.id, '--channel', channel, '--weight', '2,4', '--out', out]);
    expect(shipped.code, shipped.stderr).toBe(0);
    expect(shipped.stdout).toMatch(/^status\s+created$/m);
    const tracking = /^parcel 1\s+(\d{11})$/m.exec(shipped.stdout)?.[1];
    expect(tracking).toBeDefined();
    expect(shipped.stdout).toContain(`${out}  (pdf, 1 page`);
    expect(shipped.stdout).toMatch(/^not printed: station \S+ does not print labels on creation/m);
    expect(await decodePdfBarcodes(readFileSync(out))).toEqual([[tracking]]);

    const order = await station.cliJson<Order>(['orders', 'show', orders.jan.id, '--json']);
    expect(order).toMatchObject({ status: 'shipped', shipment_id: expect.stringMatching(/^sh_/) });
    const shipment = await station.cliJson<ShippedOrder>(['shipments', 'show', order.shipment_id!, '--json']);
    expect(shipment).toMatchObject({ reference_number: 'Q-5001', parcels: [{ tracking_number: tracking, weight_amount: 2.4, length_dimension: 30 }] });
    const atCarrier = (await emulated()).length;
    expect((await emulated()).filter((s) => s.referenceId === shipment.id)).toHaveLength(1);

    const again = await station.cli(['orders', 'ship', orders.jan.id, '--channel', channel, '--weight', '2,4', '--out', join(station.tmp, 'again.pdf')]);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain(`order ${orders.jan.id} was shipped before, as ${shipment.id}: nothing new was created`);
    expect(again.stdout).toMatch(new RegExp(`^parcel 1\\s+${tracking}$`, 'm'));
    expect(readFileSync(join(station.tmp, 'again.pdf')).equals(readFileSync(out))).toBe(true);
    // other weights after the fact change nothing: the order is shipped, its shipment is the answer
    const reweighed = await station.cliJson<ShippedOrder>(['orders', 'ship', orders.jan.id, '--weight', '3', '--out', join(station.tmp, 'third.pdf'), '--json']);
    expect(reweighed).toMatchObject({ id: shipment.id, status: 'created', parcels: [{ weight_amount: 2.4 }], label_file: { format: 'pdf', pages: 1 } });
    expect(reweighed.not_printed).toContain(`packdesk shipments print ${shipment.id}`);
    expect(await emulated()).toHaveLength(atCarrier);
  });

  it('orders cancel takes an order out of the queue; shipping it then exits 1 with the API\'s reason', async () => {
    const cancelled = await station.cli(['orders', 'cancel', orders.bakery.id]);
    expect(cancelled).toMatchObject({ code: 0, stdout: `cancelled ${orders.bakery.id} (status cancelled)\n` });
    expect((await station.cliJson<ListBody<Order>>(['orders', 'list', '--json'])).data).toEqual([]);
    const all = await station.cli(['orders', 'list', '--all']);
    expect(all.stdout).toMatch(new RegExp(`${orders.jan.id} .*│ shipped( │\\n.*│)? ?sh_\\w+`, 's'));
    expect(all.stdout).toMatch(new RegExp(`${orders.bakery.id} .*│ cancelled`));

    const ship = await station.cli(['orders', 'ship', orders.bakery.id, '--channel', channel, '--weight', '1']);
    expect(ship.code).toBe(1);
    expect(ship.stdout).toBe('');
    expect(ship.stderr).toBe('packdesk: The given data was invalid.\n  status: the order was cancelled\n');
  });

  it('orders ship refused by the carrier exits 1 naming the field; deleted, the order ships anew as a new shipment', async () => {
    orders.nowhere = await queue('Q-5003', { name: 'Eva Malá', email_address: 'eva@example.cz', phone_number: '604 555 666' },
      { street_name: 'Údolní 5', city_name: 'Brno', postal_code: '79999' }); // a Czech code's shape, but no post office has it
    const flags = ['orders', 'ship', orders.nowhere.id, '--channel', channel, '--weight', '1', '--out', join(station.tmp, 'nowhere.pdf')];
    const refused = await station.cli(flags);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^ {2}destination_address\.postal_code: /m);
    const first = /shipment (sh_\w+) was not created/.exec(refused.stdout)?.[1];
    expect(refused.stdout).toContain(`  packdesk shipments delete ${first}\n`);
    expect((await station.cli(['shipments', 'delete', first!])).code).toBe(0);
    expect((await station.cliJson<Order>(['orders', 'show', orders.nowhere.id, '--json'])).status).toBe('awaiting');

    const second = await station.cli(flags);
    expect(second.code).toBe(1);
    expect(/shipment (sh_\w+) was not created/.exec(second.stdout)?.[1]).not.toBe(first);
  });

  it('orders show of an unknown id exits 3; a weight or flags that make no sense exit 2 before any request', async () => {
    const unknown = await station.cli(['orders', 'show', 'or_nope']);
    expect(unknown).toMatchObject({ code: 3, stdout: '' });
    const weight = await station.cli(['orders', 'ship', orders.jan.id, '--weight', '2.4kg']);
    expect(weight.code).toBe(2);
    expect(weight.stderr).toContain('--weight must be a weight in kg above 0 (e.g. 2.4 or 2,4), not "2.4kg"');
    expect((await station.cli(['orders', 'list', '--all', '--status', 'shipped'])).code).toBe(2);
    expect((await station.cli(['orders', 'list', '--status', 'packed'])).code).toBe(2);
  });
});
