import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ApiClient } from '../../src/cli/client.js';
import { previewShipmentLabel } from '../../src/cli/label-preview.js';
import { decodeEplBarcodes, decodePngBarcodes } from '../helpers/barcodes.js';
import { startStation, type Station } from '../helpers/cli.js';

const TRACKING = /\b\d{11}\b/g;

interface Shipment {
  id: string;
  reference_number: string | null;
  status: string;
  product: string | null;
  label_format: string;
  cash_on_delivery_amount: number | null;
  cash_on_delivery_currency: string | null;
  sender_contact: Record<string, string>;
  recipient_contact: Record<string, string>;
  destination_address: Record<string, string>;
  parcels: { tracking_number: string | null; weight_amount: number; length_dimension: number }[];
  failure: { message: string; errors: Record<string, string[]> } | null;
  has_label: boolean;
  label_file?: { path: string; format: string; pages: number; size: number } | null;
}

interface ListBody<T> {
  data: T[];
  meta: { total: number };
}

const SENDER = {
  contact: { company_name: 'Sklad Praha s.r.o.', email_address: 'sklad@example.cz', phone_number: '+420601111222' },
  address: { street_name: 'Skladová', house_number: '12', city_name: 'Praha', postal_code: '11000', country_code: 'CZ' },
};

describe('packdesk ship and packdesk shipments against a real daemon and the PPL emulator', () => {
  let station: Station;
  let tmp: string;
  let work: string;
  let channelId: string;
  let senderFile: string;
  let codShipment: Shipment;
  let zplShipment: Shipment;

  /** Flags of a valid two-parcel shipment to Brno; `extra` flags come last and win. */
  const shipFlags = (reference: string, extra: string[] = []) => [
    'ship', '--channel', channelId, '--reference', reference, '--recipient-name', 'Řehoř Šťastný',
    '--recipient-email', 'rehor@example.cz', '--recipient-phone', '+420 602 333 444',
    '--street', 'Údolní', '--house-number', '5', '--city', 'Brno', '--postal-code', '60200',
    '--parcel', '2.5x30x20x10', '--parcel', '1x20x15x10', '--sender-json', senderFile, ...extra,
  ];

  const rawLabel = async (id: string): Promise<{ body: Buffer; disposition: string | null }> => {
    const res = await fetch(`${station.daemonUrl}/v1/shipments/${id}/label?download=1`, { headers: { authorization: `Bearer ${station.apiKey}` } });
    expect(res.status).toBe(200);
    return { body: Buffer.from(await res.arrayBuffer()), disposition: res.headers.get('content-disposition') };
  };

  beforeAll(async () => {
    station = await startStation({ ppl: true });
    tmp = station.tmp;
    work = station.desk;
    senderFile = join(tmp, 'sender.json');
    writeFileSync(senderFile, JSON.stringify(SENDER));
    expect(station.pplUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/ppl$/);
    const channel = await station.addPplChannel();
    expect(channel.status).toBe('active');
    channelId = channel.id;
  });

  afterAll(async () => {
    if (station) expect(await station.stop()).toBe(0);
  });

  it('ship with flags: two parcels with COD, the PDF label saved as <reference>.pdf in the current directory', async () => {
    const result = await station.cli(shipFlags('COD-2', ['--cod', '1299.50']));
    expect(result.code, result.stderr).toBe(0);
    const numbers = result.stdout.match(TRACKING) ?? [];
    expect(new Set(numbers).size).toBe(2);
    const file = join(work, 'COD-2.pdf');
    expect(result.stdout).toContain(file);
    expect(result.stdout).toMatch(/status\s+created/);
    expect(result.stdout).toContain('2 pages');
    expect(readFileSync(file).subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(result.stdout + result.stderr).not.toContain(station.apiKey);
    // this station does not auto-print: ship says that nothing printed, and why
    expect(result.stdout).toMatch(/^not printed: station \S+ does not print labels on creation \(auto-print is off: give --print, /m);
  });

  it('ship refuses a reference shipped before unless --allow-duplicate-reference; nothing is created meanwhile', async () => {
    const shipped = async () => (await station.cliJson<ListBody<{ id: string; reference_number: string }>>(['shipments', 'list', '--search', 'COD-2', '--json']))
      .data.filter((s) => s.reference_number === 'COD-2');
    const [first] = await shipped();
    expect(first?.id).toMatch(/^sh_/);

    const again = await station.cli(shipFlags('COD-2', ['--cod', '1299.50']));
    expect(again.code).toBe(2);
    expect(again.stdout).toBe('');
    expect(again.stderr).toContain('packdesk: reference COD-2 was shipped before; give --allow-duplicate-reference to ship it again\n');
    expect(again.stderr).toContain(`reference_number: was shipped before: ${first!.id} (created, `);
    const json = await station.cli(shipFlags('COD-2', ['--json']));
    expect(json.code).toBe(2);
    expect(JSON.parse(json.stderr)).toEqual({
      message: 'reference COD-2 was shipped before; give --allow-duplicate-reference to ship it again',
      errors: { reference_number: [expect.stringContaining(first!.id)] },
    });
    expect(await shipped()).toHaveLength(1);

    const allowed = await station.cliJson<Shipment>(shipFlags('COD-2', ['--allow-duplicate-reference', '--out', join(tmp, 'cod-2-again.pdf'), '--json']));
    expect(allowed).toMatchObject({ status: 'created', reference_number: 'COD-2' });
    expect((await shipped()).map((s) => s.id).sort()).toEqual([first!.id, allowed.id].sort());
  });

  it('ship takes a national phone, a COD amount "1 249,90" and a weight "2,4" as people write them', async () => {
    const shipped = await station.cliJson<Shipment & { not_printed?: string; print_job?: unknown }>(shipFlags('NATIONAL-1', [
      '--recipient-phone', '602 333 444', '--cod', '1 249,90', '--parcel', '2,4x40x30x20', '--out', join(tmp, 'national.pdf'), '--json',
    ]));
    expect(shipped).toMatchObject({
      status: 'created', cash_on_delivery_amount: 1249.9, cash_on_delivery_currency: 'CZK',
      recipient_contact: { phone_number: '+420602333444' }, print_job: null,
      not_printed: expect.stringContaining('does not print labels on creation'),
    });
    expect(shipped.parcels.map((p) => p.weight_amount)).toEqual([2.5, 1, 2.4]);
    const shown = await station.cli(['shipments', 'show', shipped.id]);
    expect(shown.stdout).toMatch(/^COD\s+1249\.90 CZK$/m);
    expect(shown.stdout).toContain('+420602333444');
    const badCod = await station.cli(shipFlags('NATIONAL-2', ['--cod', '12 34']));
    expect(badCod.code).toBe(2);
    expect(badCod.stderr).toContain('--cod must be an amount above 0 with at most 2 decimals');
  });

  it('ship --json prints the created shipment with the COD product and where the label went', async () => {
    const out = join(tmp, 'labels-cod.pdf');
    codShipment = await station.cliJson<Shipment>(shipFlags('COD-JSON', ['--cod', '450', '--cod-currency', 'czk', '--out', out, '--json']));
    expect(codShipment).toMatchObject({
      status: 'created', product: 'PRID', label_format: 'pdf', reference_number: 'COD-JSON',
      cash_on_delivery_amount: 450, cash_on_delivery_currency: 'CZK', failure: null,
      recipient_contact: { first_name: 'Řehoř', last_name: 'Šťastný' }, destination_address: { country_code: 'CZ' },
      sender_contact: SENDER.contact,
    });
    expect(codShipment.parcels.map((p) => [p.weight_amount, p.length_dimension])).toEqual([[2.5, 30], [1, 20]]);
    for (const p of codShipment.parcels) expect(p.tracking_number).toMatch(/^\d{11}$/);
    expect(codShipment.label_file).toMatchObject({ path: out, format: 'pdf', pages: 2 });
    expect(statSync(out).size).toBe(codShipment.label_file!.size);
    expect(readFileSync(out).equals((await rawLabel(codShipment.id)).body)).toBe(true);
  });

  it('ship --from-json - takes a ZPL body on stdin, flags override its fields, and writes a .zpl file with two labels', async () => {
    const body = {
      shipping_channel_id: channelId, label_format: 'zpl', reference_number: 'FROM-FILE',
      sender_contact: SENDER.contact, origin_address: SENDER.address,
      recipient_contact: { company_name: 'Pekárna Brno', email_address: 'pekarna@example.cz', phone_number: '+420603444555' },
      destination_address: { street_name: 'Masarykova', house_number: '1', city_name: 'Brno', postal_code: '60200', country_code: 'CZ' },
      parcels: [
        { weight_amount: 3, length_dimension: 40, width_dimension: 30, height_dimension: 20 },
        { weight_amount: 4, length_dimension: 40, width_dimension: 30, height_dimension: 25 },
      ],
    };
    const result = await station.cli(['ship', '--from-json', '-', '--reference', 'ZPL-2', '--json'], station.env, JSON.stringify(body));
    expect(result.code, result.stderr).toBe(0);
    zplShipment = JSON.parse(result.stdout) as Shipment;
    expect(zplShipment).toMatchObject({ status: 'created', product: 'PRIV', label_format: 'zpl', reference_number: 'ZPL-2' });
    const file = join(work, 'ZPL-2.zpl');
    expect(zplShipment.label_file).toMatchObject({ path: file, format: 'zpl', pages: 2 });
    const zpl = readFileSync(file, 'latin1');
    expect(zpl.match(/\^XA/g)).toHaveLength(2);
    for (const p of zplShipment.parcels) expect(zpl).toContain(p.tracking_number!);
  });

  it('ship --from-json FILE reads a body from a file', async () => {
    const file = join(tmp, 'body.json');
    writeFileSync(file, JSON.stringify({
      shipping_channel_id: channelId, label_format: 'pdf', reference_number: 'FILE-1',
      recipient_contact: { first_name: 'Jana', last_name: 'Nováková', email_address: 'jana@example.cz', phone_number: '+420604555666' },
      destination_address: { street_name: 'Nádražní', house_number: '7', city_name: 'Ostrava', postal_code: '70200', country_code: 'CZ' },
      parcels: [{ weight_amount: 1, length_dimension: 20, width_dimension: 20, height_dimension: 20 }],
    }));
    const shipped = await station.cliJson<Shipment>(['ship', '--from-json', file, '--sender-json', senderFile, '--out', join(tmp, 'file-1.pdf'), '--json']);
    expect(shipped).toMatchObject({ status: 'created', reference_number: 'FILE-1', sender_contact: SENDER.contact });
    expect(existsSync(join(tmp, 'file-1.pdf'))).toBe(true);
  });

  it('ship without a sender anywhere (no --sender-json, none at the station) exits 2 and says how to store one', async () => {
    const withoutFlag = shipFlags('NO-SENDER-1').filter((a, i, all) => a !== '--sender-json' && all[i - 1] !== '--sender-json');
    const none = await station.cli(withoutFlag, { ...station.env, XDG_CONFIG_HOME: join(tmp, 'cfg-empty') });
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('packdesk stations set --account --sender-json FILE');
    expect(none.stdout).toBe('');
  });

  it('ship --customs-json reads the declaration from a file: kept with the shipment; a bad one, or a route its carrier cannot declare, is refused naming the field', async () => {
    const customs = { contents_type: 'sale', items: [{ description: 'Hrnek smaltovaný', hs_code: '7323 94 00', quantity: 2, unit_value: 12.5, unit_weight: 0.3, origin_country: 'CZ' }] };
    const file = join(tmp, 'customs.json');
    writeFileSync(file, JSON.stringify(customs));
    const shipped = await station.cli([...shipFlags('CUSTOMS-1', ['--customs-json', file]), '--json']);
    expect(shipped.code, shipped.stderr).toBe(0);
    expect((JSON.parse(shipped.stdout) as { customs: unknown }).customs).toMatchObject(customs);

    writeFileSync(file, JSON.stringify({ ...customs, items: [{ ...customs.items[0], hs_code: '73' }] }));
    const badCode = await station.cli(shipFlags('CUSTOMS-2', ['--customs-json', file]));
    expect(badCode.code, badCode.stderr).toBe(1);
    expect(badCode.stderr).toMatch(/^ {2}customs\.items\.0\.hs_code: must be an HS code of 6 to 10 digits/m);

    writeFileSync(file, JSON.stringify(customs));
    const toNorway = await station.cli(shipFlags('CUSTOMS-3', ['--customs-json', file, '--country', 'NO', '--city', 'Oslo', '--postal-code', '0150', '--recipient-phone', '+47 22 00 00 00']));
    expect(toNorway.code, toNorway.stderr).toBe(1);
    expect(toNorway.stderr).toMatch(/^ {2}destination_address\.country_code: PPL does not ship across a customs border \(CZ to NO\)/m);
  });

  it('ship --return makes the return label for the box with the shipment; shipments return ID makes one of a shipment later', async () => {
    const shipped = await station.cliJson<Shipment & { return: boolean; return_shipment_ids: string[] }>([...shipFlags('BOX-1', ['--return']), '--json']);
    expect(shipped).toMatchObject({ status: 'created', return: true });
    expect(shipped.return_shipment_ids).toHaveLength(1);
    const boxed = await station.cliJson<Shipment & { return_of: string }>(['shipments', 'show', shipped.return_shipment_ids[0]!, '--wait', '30', '--json']);
    expect(boxed).toMatchObject({ status: 'created', product: 'RETD', return_of: shipped.id });

    const later = await station.cliJson<Shipment & { return_of: string }>(['shipments', 'return', shipped.id, '--format', 'zpl', '--json']);
    expect(later).toMatchObject({ status: 'created', product: 'RETD', return_of: shipped.id, label_format: 'zpl' });
    const again = await station.cli(['shipments', 'return', later.id]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain(`is itself the return of ${shipped.id}`);
  });

  it('rates quotes the shipment at the station\'s channels: the price by the channel\'s price list, or why none', async () => {
    const flags = shipFlags('RATES-1').filter((a, i, all) => a !== 'ship' && a !== '--reference' && all[i - 1] !== '--reference' && a !== '--channel' && all[i - 1] !== '--channel');
    const none = await station.cliJson<{ shipping_channel_id: string; price: number | null; cannot: string | null }[]>(['rates', ...flags, '--json']);
    expect(none.find((q) => q.shipping_channel_id === channelId)).toMatchObject({ price: null, cannot: 'the channel has no price list, and its carrier answers prices only at creation' });

    const file = join(tmp, 'price-list.json');
    writeFileSync(file, JSON.stringify({ currency: 'CZK', zones: [{ name: 'CZ', countries: ['CZ'] }], bands: [{ max_weight_kg: 5, prices: { CZ: 99 } }], extra_parcel: 10 }));
    expect((await station.cli(['channels', 'update', channelId, '--price-list-json', file])).code).toBe(0);
    const table = await station.cli(['rates', ...flags, '--channel', channelId]);
    expect(table.code, table.stderr).toBe(0);
    // two parcels: 99 + 99 + 10
    expect(table.stdout).toMatch(new RegExp(`\\(${channelId}\\)[\\s│]+ppl[\\s│]+208\\.00 CZK`));
  });

  it('ship rejects a malformed --parcel or --cod with exit 2 before calling the daemon', async () => {
    const parcel = await station.cli(shipFlags('BAD-1', ['--parcel', '2.5x30x20']));
    expect(parcel.code).toBe(2);
    expect(parcel.stderr).toContain('WEIGHTxLENGTHxWIDTHxHEIGHT');
    const cod = await station.cli(shipFlags('BAD-2', ['--cod', '-5']));
    expect(cod.code).toBe(2);
    const wait = await station.cli(shipFlags('BAD-3', ['--wait', '31']));
    expect(wait.code).toBe(2);
  });

  it('shipments list --json holds both shipments; --search by reference finds one; the table shows them', async () => {
    const list = await station.cliJson<ListBody<{ id: string; reference_number: string; status: string }>>(['shipments', 'list', '--json']);
    const ids = list.data.map((s) => s.id);
    expect(ids).toContain(codShipment.id);
    expect(ids).toContain(zplShipment.id);
    const found = await station.cliJson<ListBody<{ id: string }>>(['shipments', 'list', '--search', 'ZPL-2', '--json']);
    expect(found.data.map((s) => s.id)).toEqual([zplShipment.id]);
    expect(found.meta.total).toBe(1);
    const byStatus = await station.cliJson<ListBody<{ status: string }>>(['shipments', 'list', '--status', 'created', '--channel', channelId, '--per-page', '2', '--json']);
    expect(byStatus.data).toHaveLength(2);
    expect(byStatus.data.every((s) => s.status === 'created')).toBe(true);
    const table = await station.cli(['shipments', 'list', '--search', 'COD-JSON']);
    expect(table.code).toBe(0);
    expect(table.stdout).toContain(codShipment.id);
    expect(table.stdout).toContain('page 1 of 1, 1 in all');
  });

  it('shipments show --json returns the record; the human form lists the parcels with their tracking numbers', async () => {
    const shown = await station.cliJson<Shipment>(['shipments', 'show', codShipment.id, '--json']);
    expect(shown).toMatchObject({
      id: codShipment.id, status: 'created', product: 'PRID', reference_number: 'COD-JSON', has_label: true,
      parcels: codShipment.parcels.map((p) => ({ tracking_number: p.tracking_number })),
    });
    expect(shown).not.toHaveProperty('label_file');
    const human = await station.cli(['shipments', 'show', zplShipment.id, '--wait', '1']);
    expect(human.code).toBe(0);
    expect(human.stdout).toContain('Pekárna Brno');
    for (const p of zplShipment.parcels) expect(human.stdout).toContain(p.tracking_number!);
    expect(human.stdout).toContain('40×30×25 CM');
  });

  it('shipments label --out writes the same bytes as the raw label of the API', async () => {
    const out = join(tmp, 'again.zpl');
    const saved = await station.cliJson<{ path: string; format: string; pages: number; size: number }>(['shipments', 'label', zplShipment.id, '--out', out, '--json']);
    const raw = await rawLabel(zplShipment.id);
    expect(saved).toEqual({ path: out, format: 'zpl', pages: 2, size: raw.body.length });
    expect(readFileSync(out).equals(raw.body)).toBe(true);

    const human = await station.cli(['shipments', 'label', codShipment.id]);
    expect(human.code, human.stderr).toBe(0);
    expect(raw.disposition).toBe('attachment; filename="ZPL-2.zpl"');
    expect(human.stdout).toContain(join(work, 'COD-JSON.pdf'));
    expect(readFileSync(join(work, 'COD-JSON.pdf')).equals((await rawLabel(codShipment.id)).body)).toBe(true);

    const a4 = await station.cliJson<{ format: string; pages: number }>(['shipments', 'label', codShipment.id, '--a4', '--out', join(tmp, 'a4.pdf'), '--json']);
    expect(a4).toMatchObject({ format: 'pdf', pages: 1 });
  });

  it('shipments retry of a created shipment exits 1 and says only a failed pending one can be retried', async () => {
    const result = await station.cli(['shipments', 'retry', zplShipment.id]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('only a pending shipment whose creation failed can be retried');
  });

  it('shipments cancel turns a created shipment cancelled', async () => {
    const cancelled = await station.cliJson<Shipment>(['shipments', 'cancel', zplShipment.id, '--json']);
    expect(cancelled).toMatchObject({ id: zplShipment.id, status: 'cancelled' });
    expect((await station.cliJson<Shipment>(['shipments', 'show', zplShipment.id, '--json'])).status).toBe('cancelled');
    // a cancelled shipment was not shipped: its reference may be shipped again without asking
    const again = await station.cliJson<Shipment>(shipFlags('ZPL-2', ['--out', join(tmp, 'zpl-2-again.pdf'), '--json']));
    expect(again).toMatchObject({ status: 'created', reference_number: 'ZPL-2' });
  });

  it('ship with an unknown postal code exits 1 with the carrier failure naming destination_address.postal_code; delete then removes it', async () => {
    const result = await station.cli(shipFlags('BAD-ZIP', ['--postal-code', '79999'])); // a Czech code's shape, but no post office has it
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('destination_address.postal_code');
    const id = /shipment (sh_\w+) was not created/.exec(result.stdout)?.[1];
    expect(id).toMatch(/^sh_/);
    const failed = await station.cliJson<Shipment>(['shipments', 'show', id!, '--json']);
    expect(failed.status).toBe('pending');
    expect(Object.keys(failed.failure!.errors)).toContain('destination_address.postal_code');
    const deleted = await station.cli(['shipments', 'delete', id!]);
    expect(deleted.code, deleted.stderr).toBe(0);
    expect((await station.cli(['shipments', 'show', id!])).code).toBe(3);
  });

  it('shipments update fixes a shipment the carrier refused in place: the same shipment is created, one for its reference', async () => {
    const refused = await station.cli(shipFlags('FIX-ME', ['--postal-code', '79999', '--out', join(tmp, 'fix-me.pdf')]));
    expect(refused.code).toBe(1);
    const id = /shipment (sh_\w+) was not created/.exec(refused.stdout)![1]!;
    expect(refused.stdout).toContain(`packdesk shipments update ${id} --postal-code …`);
    const waiting = await station.cliJson<ListBody<{ id: string; needs_attention: boolean }>>(['shipments', 'list', '--needs-attention', '--json']);
    expect(waiting.data.map((s) => s.id)).toContain(id);
    expect((await station.cli(['shipments', 'show', id])).stdout).toMatch(/^status\s+pending, needs attention$/m);

    // corrected wrongly again: refused again, with the carrier's field error, still the one shipment
    const again = await station.cli(['shipments', 'update', id, '--postal-code', '79999', '--city', 'Brno']);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/^ {2}destination_address\.postal_code: /m);

    const fixed = await station.cli(['shipments', 'update', id, '--postal-code', '60200', '--recipient-phone', '602 333 445', '--out', join(tmp, 'fixed.pdf')]);
    expect(fixed.code, fixed.stderr).toBe(0);
    expect(fixed.stdout).toMatch(new RegExp(`^shipment\\s+${id}$`, 'm'));
    expect(fixed.stdout).toMatch(/^status\s+created$/m);
    expect(readFileSync(join(tmp, 'fixed.pdf')).subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const shown = await station.cliJson<Shipment>(['shipments', 'show', id, '--json']);
    expect(shown).toMatchObject({ status: 'created', destination_address: { postal_code: '60200', city_name: 'Brno' }, recipient_contact: { phone_number: '+420602333445', email_address: 'rehor@example.cz' } });
    const sameReference = await station.cliJson<ListBody<{ id: string; reference_number: string }>>(['shipments', 'list', '--search', 'FIX-ME', '--json']);
    expect(sameReference.data.filter((s) => s.reference_number === 'FIX-ME').map((s) => s.id)).toEqual([id]);
    const nothing = await station.cli(['shipments', 'update', id]);
    expect(nothing.code).toBe(2);
  });

  it('ship and shipments show name the carrier\'s product beside its code', async () => {
    const shipped = await station.cli(shipFlags('PRODUCT-1', ['--cod', '100', '--out', join(tmp, 'product-1.pdf')]));
    expect(shipped.code, shipped.stderr).toBe(0);
    expect(shipped.stdout).toMatch(/^product\s+PRID — PPL Parcel CZ Private - dobírka$/m);
    const id = /shipment\s+(sh_\w+)/.exec(shipped.stdout)![1]!;
    expect((await station.cli(['shipments', 'show', id])).stdout).toMatch(/^product\s+PRID — PPL Parcel CZ Private - dobírka$/m);
    // scripts keep the code alone
    expect((await station.cliJson<Shipment>(['shipments', 'show', id, '--json'])).product).toBe('PRID');
  });

  it('ship without a recipient e-mail exits 1 with the API field error on stderr', async () => {
    const args = shipFlags('NO-MAIL').filter((a, i, all) => a !== '--recipient-email' && all[i - 1] !== '--recipient-email');
    const result = await station.cli(args);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^ {2}recipient_contact\.email_address: /m);
  });

  it('ship --format epl on a PPL channel saves the EPL packdesk converted from PPL\'s PDF', async () => {
    const result = await station.cliJson<Shipment>([...shipFlags('EPL-1', ['--format', 'epl']), '--json']);
    expect(result.label_file).toMatchObject({ format: 'epl', pages: 2 });
    const epl = readFileSync(result.label_file!.path);
    expect(epl.toString('latin1')).toMatch(/^GW\d+,\d+,\d+,\d+,/m);
    expect(await decodeEplBarcodes(epl)).toEqual(result.parcels.map((p) => [p.tracking_number]));
  });

  it('shipments label --preview writes one PNG per parcel where the terminal shows no pictures, and they scan', async () => {
    const dir = join(tmp, 'pictures');
    const human = await station.cli(['shipments', 'label', codShipment.id, '--preview', '--out', dir]);
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout).toContain('this terminal does not show pictures');
    const shown = await station.cliJson<{ parcel: number; path: string }[]>(['shipments', 'label', codShipment.id, '--preview', '--parcel', '2', '--out', dir, '--json']);
    expect(shown).toEqual([{ parcel: 2, path: join(dir, 'COD-JSON-2.png') }]);
    const numbers = codShipment.parcels.map((p) => p.tracking_number);
    expect(await decodePngBarcodes(readFileSync(join(dir, 'COD-JSON-1.png')))).toEqual([numbers[0]]);
    expect(await decodePngBarcodes(readFileSync(join(dir, 'COD-JSON-2.png')))).toEqual([numbers[1]]);
    const outOfRange = await station.cli(['shipments', 'label', codShipment.id, '--preview', '--parcel', '3']);
    // the daemon refuses the query parameter --parcel became: a usage error
    expect(outOfRange.code).toBe(2);
    expect(outOfRange.stderr).toMatch(/^ {2}parcel: must be from 1 to 2/m);
  });

  it('shipments label --preview draws each parcel inline in a kitty terminal', async () => {
    const written: string[] = [];
    const previous = process.env.PACKDESK_IMAGE_PROTOCOL;
    process.env.PACKDESK_IMAGE_PROTOCOL = 'kitty';
    try {
      const shown = await previewShipmentLabel(new ApiClient(station.daemonUrl, station.apiKey), codShipment.id, {}, { isTTY: true, write: (text: string) => written.push(text) });
      expect(shown).toEqual({ shown: 'terminal', images: [{ parcel: 1 }, { parcel: 2 }] });
    } finally {
      if (previous === undefined) delete process.env.PACKDESK_IMAGE_PROTOCOL;
      else process.env.PACKDESK_IMAGE_PROTOCOL = previous;
    }
    const output = written.join('');
    expect(output).toContain(`parcel 2 of ${codShipment.id} (PDF, the carrier's own)`);
    // each picture: kitty graphics escapes whose payloads, joined, are a PNG that scans to the parcel's number
    const pictures = output.split(/parcel \d of /).slice(1).map((part) => Buffer.from([...part.matchAll(/\x1b_G[^;]*;([^\x1b]*)\x1b\\/g)].map((m) => m[1]).join(''), 'base64'));
    expect(await Promise.all(pictures.map(decodePngBarcodes))).toEqual(codShipment.parcels.map((p) => [p.tracking_number]));
  });

  it('shipments show of an unknown id exits 3', async () => {
    const result = await station.cli(['shipments', 'show', 'sh_nope']);
    expect(result.code).toBe(3);
    expect(result.stdout).toBe('');
  });

  it('an unreachable daemon exits 4', async () => {
    const result = await station.cli(['shipments', 'list'], { ...station.env, PACKDESK_URL: 'http://127.0.0.1:9' });
    expect(result.code).toBe(4);
  });
});
