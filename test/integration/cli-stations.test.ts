import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { startStation, type Env, type Station } from '../helpers/cli.js';

interface Settings {
  sender_contact?: Record<string, string> | null;
  origin_address?: Record<string, string> | null;
  shipping_channel_id?: string | null;
  label_format?: string | null;
  printers?: Record<string, string | null> | null;
  copies?: number | null;
  auto_print?: boolean | null;
  box_presets?: { name: string; length_dimension: number; weight_amount?: number }[] | null;
}

interface StationShown {
  station: string;
  settings: Settings;
  effective: Required<Settings>;
  account: Settings;
}

interface Shipped {
  id: string;
  status: string;
  label_format: string;
  sender_contact: Record<string, string>;
  shipping_channel_id: string;
  print_plan: { printer_id: string | null; printer_name: string | null; copies: number | null; reason: string | null } | null;
  print_job: { status: string; copies: number; format: string } | null;
  not_printed?: string;
}

const SENDER = {
  contact: { company_name: 'Sklad Ostrava s.r.o.', email_address: 'sklad@example.cz', phone_number: '601 111 222' },
  address: { street_name: 'Skladová', house_number: '12', city_name: 'Ostrava', postal_code: '702 00', country_code: 'CZ' },
};

describe('packdesk stations and ship at a station: the settings the daemon keeps for every packing desk', () => {
  let station: Station;
  let channel: string;
  let printer: { id: string; name: string };
  let labels: string;
  let senderFile: string;
  const here = hostname();

  /** Flags of a shipment that leaves sender, channel, label format and printing to the station. */
  const recipientFlags = (reference: string) => [
    'ship', '--reference', reference, '--recipient-name', 'Jana Nováková', '--recipient-email', 'jana@example.cz',
    '--recipient-phone', '604 555 666', '--street', 'Nádražní', '--house-number', '7', '--city', 'Brno', '--postal-code', '60200',
    '--parcel', '1x20x20x20', '--out', join(station.tmp, `${reference}.label`),
  ];

  beforeAll(async () => {
    station = await startStation({ ppl: true, account: 'Desk Ostrava' });
    channel = (await station.addPplChannel()).id;
    labels = join(station.tmp, 'labels');
    printer = await station.cliJson<{ id: string; name: string }>(['printers', 'add', '--name', 'Label folder', '--uri', pathToFileURL(labels).href, '--format', 'zpl,pdf', '--json']);
    senderFile = join(station.tmp, 'sender.json');
    writeFileSync(senderFile, JSON.stringify(SENDER));
  });

  afterAll(async () => {
    if (station) expect(await station.stop()).toBe(0);
  });

  it("stations show: the daemon's station with nothing set, and the defaults in effect", async () => {
    const shown = await station.cliJson<StationShown>(['stations', 'show', '--json']);
    expect(shown.station).toBe(here);
    expect(shown.effective).toMatchObject({ sender_contact: null, shipping_channel_id: null, label_format: 'pdf', copies: 1, auto_print: false, box_presets: [] });
    const table = await station.cli(['stations', 'show']);
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout).toMatch(new RegExp(`│ setting +│ station ${here} +│ account +│ in effect +│`));
    expect(table.stdout).toMatch(/│ label format +│ - +│ - +│ pdf +│/);
    expect(table.stdout).toMatch(/│ auto-print +│ - +│ - +│ off +│/);
  });

  it("stations set --account keeps the sender for every station; stations set changes this station's own values, shown by name", async () => {
    const account = await station.cli(['stations', 'set', '--account', '--sender-json', senderFile, '--channel', channel]);
    expect(account.code, account.stderr).toBe(0);
    expect(account.stdout).toMatch(/^saved the account's station settings$/m);
    const own = await station.cli([
      'stations', 'set', '--format', 'zpl', '--printer', `zpl=${printer.id}`, '--copies', '2', '--auto-print', 'on',
      '--box', 'Small=30x20x10:0,2', '--box', 'Big=60x40x40',
    ]);
    expect(own.code, own.stderr).toBe(0);
    // printers and channels by name, with the ids that `stations set` takes
    expect(own.stdout).toMatch(/│ ZPL printer +│ Label folder +│ - +│ Label folder +│/);
    expect(own.stdout).toContain(printer.id);
    expect(own.stdout).toMatch(/│ channel +│ - +│ PPL \(ppl, PRIV — PPL +│ PPL \(ppl, PRIV — PPL +│/);

    const shown = await station.cliJson<StationShown>(['stations', 'show', here, '--json']);
    expect(shown.account).toMatchObject({ sender_contact: { company_name: 'Sklad Ostrava s.r.o.', phone_number: '+420601111222' }, shipping_channel_id: channel });
    expect(shown.settings).toMatchObject({ label_format: 'zpl', printers: { zpl: printer.id }, copies: 2, auto_print: true });
    expect(shown.effective).toMatchObject({
      sender_contact: { company_name: 'Sklad Ostrava s.r.o.' }, origin_address: { postal_code: '70200' }, shipping_channel_id: channel,
      label_format: 'zpl', printers: { zpl: printer.id }, copies: 2, auto_print: true,
      box_presets: [{ name: 'Small', length_dimension: 30, weight_amount: 0.2 }, { name: 'Big', length_dimension: 60 }],
    });

    // a box of the same name replaces the one before; the other settings stay as they were
    await station.cli(['stations', 'set', '--box', 'Small=31x21x11']);
    const again = await station.cliJson<StationShown>(['stations', 'show', '--json']);
    expect(again.settings.box_presets!.map((b) => [b.name, b.length_dimension])).toEqual([['Big', 60], ['Small', 31]]);
    expect(again.settings).toMatchObject({ label_format: 'zpl', copies: 2, auto_print: true });
  });

  it('stations set refuses what makes no sense: a usage error before any request, the API\'s field errors after', async () => {
    expect((await station.cli(['stations', 'set'])).code).toBe(2);
    expect((await station.cli(['stations', 'set', '--format', 'png'])).code).toBe(2);
    expect((await station.cli(['stations', 'set', '--box', 'Huge=1x2'])).code).toBe(2);
    expect((await station.cli(['stations', 'set', '--clear', 'everything'])).code).toBe(2);
    expect((await station.cli(['stations', 'set', 'desk-2', '--account', '--copies', '2'])).code).toBe(2);
    const unknown = await station.cli(['stations', 'set', '--printer', 'zpl=prn_nope']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/^ {2}printers\.zpl: /m);
  });

  it("ship at the station: its sender, channel and label format, printed on its printer in its copies, and the record's print plan told", async () => {
    const shipped = await station.cliJson<Shipped>([...recipientFlags('AT-STATION-1'), '--json']);
    expect(shipped).toMatchObject({
      status: 'created', label_format: 'zpl', shipping_channel_id: channel, sender_contact: { company_name: 'Sklad Ostrava s.r.o.' },
      print_plan: { printer_id: printer.id, printer_name: 'Label folder', copies: 2 },
      print_job: { status: 'printed', copies: 2, format: 'zpl' },
    });
    expect(readdirSync(labels).filter((f) => f.endsWith('.zpl'))).toHaveLength(2);

    const told = await station.cli(recipientFlags('AT-STATION-2'));
    expect(told.code, told.stderr).toBe(0);
    expect(told.stdout).toMatch(/^printed label \(zpl, 2 copies, pj_\w+\) on Label folder$/m);
  });

  it('ship: --no-print and --printer win over the station; auto-print without a printer for the format says why nothing printed', async () => {
    const quiet = await station.cliJson<Shipped>([...recipientFlags('AT-STATION-3'), '--no-print', '--json']);
    expect(quiet).toMatchObject({ print_plan: null, print_job: null, not_printed: '--no-print was given' });
    const epl = await station.cli([...recipientFlags('AT-STATION-4'), '--format', 'epl']);
    expect(epl.code, epl.stderr).toBe(0);
    expect(epl.stdout).toMatch(new RegExp(`^not printed: no printer for EPL at station ${here}`, 'm'));
    const pdf = await station.cliJson<Shipped>([...recipientFlags('AT-STATION-5'), '--format', 'pdf', '--printer', printer.id, '--copies', '1', '--json']);
    expect(pdf).toMatchObject({ label_format: 'pdf', print_plan: { printer_id: printer.id, copies: 1 }, print_job: { status: 'printed', format: 'pdf' } });

    await station.cli(['stations', 'set', '--auto-print', 'off']);
    const off = await station.cli(recipientFlags('AT-STATION-6'));
    expect(off.stdout).toMatch(new RegExp(`^not printed: station ${here} does not print labels on creation \\(auto-print is off`, 'm'));
    const asked = await station.cliJson<Shipped>([...recipientFlags('AT-STATION-7'), '--print', '--json']);
    expect(asked).toMatchObject({ print_plan: { printer_id: printer.id, copies: 2 }, print_job: { status: 'printed', copies: 2 } });
    await station.cli(['stations', 'set', '--clear', 'auto_print']);
    expect((await station.cliJson<StationShown>(['stations', 'show', '--json'])).settings.auto_print).toBeNull();
  });

  it("a sender.json of an earlier packdesk becomes the account's station sender once, and is read from the daemon from then on", async () => {
    const { dataDir, localEnv } = station;
    const account = (await station.cliJson<{ account_id: string }>(['accounts', 'create', '--name', 'Second shop', '--data-dir', dataDir, '--json'], localEnv)).account_id;
    const key = await station.cliJson<{ api_key: string }>(['keys', 'create', '--account', account, '--data-dir', dataDir, '--json'], localEnv);
    const cfg = join(station.tmp, 'cfg-old-desk');
    mkdirSync(join(cfg, 'packdesk'), { recursive: true });
    writeFileSync(join(cfg, 'packdesk', 'sender.json'), JSON.stringify(SENDER));
    const env: Env = { ...station.env, PACKDESK_API_KEY: key.api_key, XDG_CONFIG_HOME: cfg };
    const own = (await station.cliJson<{ id: string }>([
      'channels', 'add', '--name', 'PPL', '--provider', 'ppl', '--setting', 'clientId=c2', '--setting', 'clientSecret=s3cret',
      '--setting', `baseUrl=${station.pplUrl}`, '--json',
    ], env)).id;
    expect((await station.cliJson<StationShown>(['stations', 'show', '--json'], { ...env, XDG_CONFIG_HOME: join(station.tmp, 'cfg-none') })).account.sender_contact).toBeNull();

    const first = await station.cli([...recipientFlags('OLD-DESK-1'), '--channel', own], env);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout.split('\n')[0]).toBe(`sender from ${join(cfg, 'packdesk', 'sender.json')} is now the account's station sender; you may delete the file`);
    const shown = await station.cliJson<StationShown>(['stations', 'show', '--json'], env);
    expect(shown.account).toMatchObject({ sender_contact: { company_name: 'Sklad Ostrava s.r.o.' }, origin_address: { city_name: 'Ostrava' } });
    // the first account's station settings are its own
    expect(shown.settings).toEqual(expect.not.objectContaining({ label_format: 'zpl' }));

    const second = await station.cli([...recipientFlags('OLD-DESK-2'), '--channel', own], env);
    expect(second.code, second.stderr).toBe(0);
    expect(second.stdout).not.toContain('sender.json');
    expect(second.stdout).toMatch(/^status\s+created$/m);
  });

  it("orders ship at the station: what the order leaves out comes from the station, and it prints on the station's printer", async () => {
    await station.cli(['stations', 'set', '--auto-print', 'on']);
    const res = await fetch(`${station.daemonUrl}/v1/orders`, {
      method: 'POST', headers: { authorization: `Bearer ${station.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        reference_number: 'Q-STATION-1', sender_contact: SENDER.contact, origin_address: SENDER.address,
        recipient_contact: { name: 'Jan Novák', email_address: 'jan@example.cz', phone_number: '777 888 999' },
        destination_address: { street_name: 'Údolní 5', city_name: 'Brno', postal_code: '602 00', country_code: 'CZ' },
      }),
    });
    expect(res.status).toBe(201);
    const order = ((await res.json()) as { data: { id: string } }).data;
    const shipped = await station.cliJson<Shipped>(['orders', 'ship', order.id, '--parcel', '1x20x20x20', '--out', join(station.tmp, 'q-station-1.zpl'), '--json']);
    expect(shipped).toMatchObject({
      status: 'created', label_format: 'zpl', shipping_channel_id: channel,
      print_plan: { printer_id: printer.id, copies: 2 }, print_job: { status: 'printed', format: 'zpl' },
    });
  });
});
