import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStation, type Station } from '../helpers/cli.js';

interface Point {
  provider: string;
  provider_point_id: string;
  name: string;
  type: string;
  address: { street_name: string; house_number?: string; city_name: string; postal_code: string; country_code: string };
  opening_hours: { day: number; from: string; to: string }[];
  cash_on_delivery: boolean;
  open: boolean;
}

interface Shipment {
  id: string;
  status: string;
  cash_on_delivery_amount: number | null;
  destination_address: Point['address'];
  pickup_point: { provider_point_id: string; type: string | null; name: string | null; address: Point['address'] | null } | null;
}

const SENDER = {
  contact: { company_name: 'Sklad Praha s.r.o.', email_address: 'sklad@example.cz', phone_number: '+420601111222' },
  address: { street_name: 'Skladová', house_number: '12', city_name: 'Praha', postal_code: '11000', country_code: 'CZ' },
};

describe('packdesk points and ship --point: a ParcelShop or a locker found and shipped to from the command line', { timeout: 60_000 }, () => {
  let station: Station;
  let channel: string;
  let senderFile: string;
  /** The points the PPL emulator has in Brno, as `points search --json` answered. */
  let inBrno: Point[];
  /** A Brno postal code with a ParcelShop, as people type it (`602 00`), and its points. */
  let postalCode: string;
  let nearBrno: Point[];

  /** A one-parcel shipment of a recipient with no address: the point's is the destination. */
  const shipToPoint = (reference: string, extra: string[]) => [
    'ship', '--channel', channel, '--reference', reference, '--recipient-name', 'Řehoř Šťastný',
    '--recipient-email', 'rehor@example.cz', '--recipient-phone', '+420 602 333 444',
    '--parcel', '1.5x30x20x10', '--sender-json', senderFile, ...extra,
  ];

  beforeAll(async () => {
    station = await startStation({ ppl: true });
    channel = (await station.addPplChannel()).id;
    senderFile = join(station.tmp, 'sender.json');
    writeFileSync(senderFile, JSON.stringify(SENDER));
    inBrno = await station.cliJson<Point[]>(['points', 'search', '--channel', channel, '--country', 'CZ', '--city', 'Brno', '--limit', '100', '--json']);
    const withShop = inBrno.find((p) => p.type === 'parcelshop')!.address.postal_code;
    postalCode = `${withShop.slice(0, 3)} ${withShop.slice(3)}`;
    nearBrno = await station.cliJson<Point[]>(['points', 'search', '--channel', channel, '--country', 'CZ', '--postal-code', postalCode, '--limit', '50', '--json']);
  });
  afterAll(async () => {
    if (station) expect(await station.stop()).toBe(0);
  });

  it('points search --postal-code lists the points of that postal code: id, name, type, address, hours, COD and open in a table', async () => {
    expect(inBrno.length).toBeGreaterThan(10);
    expect(nearBrno.length).toBeGreaterThan(0);
    for (const p of nearBrno) expect(p).toMatchObject({ provider: 'ppl', address: { city_name: 'Brno', postal_code: postalCode.replace(' ', ''), country_code: 'CZ' } });
    const shop = nearBrno.find((p) => p.type === 'parcelshop')!;
    const result = await station.cli(['points', 'search', '--channel', channel, '--country', 'CZ', '--postal-code', postalCode, '--limit', '50']);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    const lines = result.stdout.split('\n').filter((line) => line.includes('│'));
    expect(lines[0]!.split('│').map((cell) => cell.trim()).filter(Boolean)).toEqual(['id', 'name', 'type', 'address', 'hours', 'COD', 'open']);
    for (const p of nearBrno) expect(result.stdout).toContain(p.provider_point_id);
    const row = lines.find((line) => line.includes(shop.provider_point_id))!;
    expect(row).toContain('parcelshop');
    expect(row).toMatch(new RegExp(`│ ${shop.cash_on_delivery ? 'yes' : 'no'} +│ ${shop.open ? 'yes' : 'no'} +│$`));
    // hours: the working days that share their hours as one group
    const monday = shop.opening_hours.find((h) => h.day === 1)!;
    expect(result.stdout).toContain(`Mo-Fr ${monday.from}-${monday.to}`);
  });

  it('points search --city --type finds only that kind in the city; with a station channel, no --channel is needed', async () => {
    const lockers = await station.cliJson<Point[]>(['points', 'search', '--channel', channel, '--country', 'CZ', '--city', 'Brno', '--type', 'locker', '--limit', '5', '--json']);
    expect(lockers.length).toBeGreaterThan(0);
    for (const p of lockers) expect(p).toMatchObject({ type: 'locker', address: { city_name: 'Brno' } });
    const table = await station.cli(['points', 'search', '--channel', channel, '--country', 'CZ', '--city', 'Brno', '--type', 'locker', '--limit', '5']);
    expect(table.code).toBe(0);
    expect(table.stdout).toContain('Mo-Su 00:00-24:00');
    expect((await station.cli(['stations', 'set', '--channel', channel])).code).toBe(0);
    const fromStation = await station.cliJson<Point[]>(['points', 'search', '--country', 'CZ', '--city', 'Brno', '--type', 'locker', '--limit', '5', '--json']);
    expect(fromStation.map((p) => p.provider_point_id)).toEqual(lockers.map((p) => p.provider_point_id));
  });

  it('points show PROVIDER ID gives one point as the carrier answers it; an unknown id exits 3', async () => {
    const shop = nearBrno.find((p) => p.type === 'parcelshop')!;
    expect(await station.cliJson<Point>(['points', 'show', 'ppl', shop.provider_point_id, '--channel', channel, '--json'])).toEqual(shop);
    const shown = await station.cli(['points', 'show', 'ppl', shop.provider_point_id, '--channel', channel]);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toMatch(new RegExp(`^id +${shop.provider_point_id}$`, 'm'));
    expect(shown.stdout).toMatch(new RegExp(`^name +${shop.name}$`, 'm'));
    expect(shown.stdout).toMatch(new RegExp(`^address +${shop.address.street_name} ${shop.address.house_number}, ${shop.address.postal_code} Brno, CZ$`, 'm'));
    expect(shown.stdout).toMatch(/^hours +Mo-/m);
    const unknown = await station.cli(['points', 'show', 'ppl', 'KM99999999', '--channel', channel]);
    expect(unknown.code).toBe(3);
    expect(unknown.stderr).toContain('KM99999999');
  });

  it('refuses what the API refuses of the flags with exit 2 and the field: a carrier without points, a channel not of the account, no place', async () => {
    const providers = (await station.cliJson<{ code: string; pickup_points: { types: string[] } }[]>(['providers', '--json']));
    const doorsOnly = providers.find((p) => p.pickup_points.types.length === 0)!;
    const refused = await station.cli(['points', 'search', '--provider', doorsOnly.code, '--country', 'CZ', '--city', 'Brno', '--json']);
    expect(refused.code).toBe(2);
    expect(refused.stdout).toBe('');
    const envelope = JSON.parse(refused.stderr) as { message: string; errors: Record<string, string[]> };
    expect(envelope.errors.provider![0]).toMatch(/no pickup point/);
    const people = await station.cli(['points', 'search', '--provider', doorsOnly.code, '--country', 'CZ', '--city', 'Brno']);
    expect(people.code).toBe(2);
    expect(people.stderr).toMatch(/^ {2}provider: .*no pickup point/m);
    expect(people.stderr).toContain('check --provider');

    const notOurs = await station.cli(['points', 'search', '--channel', 'ch_not_ours', '--country', 'CZ', '--city', 'Brno']);
    expect(notOurs.code).toBe(2);
    expect(notOurs.stderr).toMatch(/^ {2}shipping_channel_id: is not a shipping channel of this account$/m);
    const nowhere = await station.cli(['points', 'search', '--channel', channel, '--country', 'CZ']);
    expect(nowhere).toMatchObject({ code: 2, stderr: 'packdesk: give one of --postal-code, --city or --near\n' });
  });

  it('ship --point with no address creates a shipment to the point, whose record and report show it; shipments show too', async () => {
    const shop = inBrno.find((p) => p.type === 'parcelshop' && p.open && p.cash_on_delivery)!;
    const shipped = await station.cliJson<Shipment>([...shipToPoint('POINT-1', ['--point', shop.provider_point_id, '--point-type', 'parcelshop', '--cod', '499']), '--out', join(station.tmp, 'point-1.pdf'), '--json']);
    expect(shipped).toMatchObject({
      status: 'created', cash_on_delivery_amount: 499,
      pickup_point: { provider_point_id: shop.provider_point_id, type: 'parcelshop', name: shop.name, address: shop.address },
      destination_address: shop.address,
    });
    const where = `${shop.provider_point_id} ${shop.name} (parcelshop) — ${shop.address.street_name} ${shop.address.house_number}, ${shop.address.postal_code} Brno, CZ`;
    const shown = await station.cli(['shipments', 'show', shipped.id]);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toMatch(new RegExp(`^pickup point +${where.replace(/[()]/g, '\\$&')}$`, 'm'));

    const locker = inBrno.find((p) => p.type === 'locker' && p.open)!;
    const report = await station.cli([...shipToPoint('POINT-2', ['--point', locker.provider_point_id]), '--out', join(station.tmp, 'point-2.pdf')]);
    expect(report.code, report.stderr).toBe(0);
    expect(report.stdout).toMatch(new RegExp(`^pickup point +${locker.provider_point_id} ${locker.name} \\(locker\\) — `, 'm'));
  });

  it('shipments update --point sends a shipment the carrier refused to another point, as the same shipment', async () => {
    const [first, second] = inBrno.filter((p) => p.open && p.cash_on_delivery);
    // the recipient's own address is one PPL refuses: the shipment waits for a correction
    const refused = await station.cli([
      ...shipToPoint('POINT-FIX', ['--point', first!.provider_point_id, '--street', 'Údolní', '--house-number', '5', '--city', 'Brno', '--postal-code', '79999']),
      '--out', join(station.tmp, 'point-fix.pdf'),
    ]);
    expect(refused.code).toBe(1);
    const id = /shipment (sh_\w+) was not created/.exec(refused.stdout)![1]!;
    // another point alone: the address goes with the old point, the new point's is the destination
    const fixed = await station.cliJson<Shipment>(['shipments', 'update', id, '--point', second!.provider_point_id, '--out', join(station.tmp, 'point-fixed.pdf'), '--json']);
    expect(fixed).toMatchObject({
      id, status: 'created', destination_address: second!.address, pickup_point: { provider_point_id: second!.provider_point_id, name: second!.name },
    });
  });

  it('orders show names the point an order from the shop goes to', async () => {
    const locker = inBrno.find((p) => p.type === 'locker')!;
    const res = await fetch(`${station.daemonUrl}/v1/orders`, {
      method: 'POST', headers: { authorization: `Bearer ${station.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        reference_number: 'POINT-ORDER', recipient_contact: { first_name: 'Jana', last_name: 'Nováková', email_address: 'jana@example.cz', phone_number: '+420602444555' },
        destination_address: { street_name: 'Údolní', house_number: '5', city_name: 'Brno', postal_code: '60200', country_code: 'CZ' },
        pickup_point: { provider_point_id: locker.provider_point_id, type: 'locker' },
      }),
    });
    expect(res.status).toBe(201);
    const { data: order } = await res.json() as { data: { id: string } };
    const shown = await station.cli(['orders', 'show', order.id]);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toMatch(new RegExp(`^pickup point +${locker.provider_point_id} \\(locker\\)$`, 'm'));
  });

  it('ship --point to a point that takes no COD is refused before the carrier, on pickup_point; a door shipment shows no point', async () => {
    const noCod = inBrno.find((p) => p.open && !p.cash_on_delivery)!;
    const refused = await station.cli([...shipToPoint('POINT-3', ['--point', noCod.provider_point_id, '--cod', '499']), '--json']);
    expect(refused.code).toBe(1);
    const envelope = JSON.parse(refused.stderr) as { errors: Record<string, string[]> };
    expect(envelope.errors.pickup_point![0]).toMatch(/takes no cash on delivery/);
    const orphan = await station.cli(['ship', '--point-type', 'locker', '--channel', channel]);
    expect(orphan).toMatchObject({ code: 2, stderr: 'packdesk: --point-type goes with --point ID\n' });

    const door = await station.cliJson<Shipment>([
      ...shipToPoint('DOOR-1', ['--street', 'Údolní', '--house-number', '5', '--city', 'Brno', '--postal-code', '60200']), '--out', join(station.tmp, 'door-1.pdf'), '--json',
    ]);
    expect(door).toMatchObject({ status: 'created', pickup_point: null });
    expect((await station.cli(['shipments', 'show', door.id])).stdout).not.toContain('pickup point');
  });
});
