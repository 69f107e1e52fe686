import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStation, type Station } from '../helpers/cli.js';

interface Rule { id: string; position: number; name: string; active: boolean; conditions: Record<string, unknown>; action: Record<string, unknown> }

const SENDER = {
  contact: { company_name: 'Sklad Praha s.r.o.', email_address: 'sklad@example.cz', phone_number: '+420601111222' },
  address: { street_name: 'Skladová', house_number: '12', city_name: 'Praha', postal_code: '11000', country_code: 'CZ' },
};
const priceList = (sk: number) => ({ currency: 'CZK', zones: [{ name: 'home', countries: ['CZ'] }, { name: 'near', countries: ['SK'] }], bands: [{ max_weight_kg: 31.5, prices: { home: 99, near: sk } }] });

/** The rows of a printed table below its head, each cell's wrapped lines joined by a space. */
function tableRows(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[][] = [];
  for (const line of text.split('\n')) {
    if (line.startsWith('│')) row.push(line.split('│').slice(1, -1).map((cell) => cell.trim()));
    else if (row.length > 0) {
      rows.push(row[0]!.map((_, c) => row.map((l) => l[c]).filter(Boolean).join(' ')));
      row = [];
    }
  }
  return rows.slice(1);
}

describe('packdesk rules against a real daemon', () => {
  let station: Station;
  let home: string;
  let heavy: string;
  let senderFile: string;

  /** Flags of a shipment to Bratislava with one parcel of `kg`. */
  const slovakShipment = (kg: string) => [
    '--recipient-name', 'Ján Kováč', '--recipient-email', 'jan@example.sk', '--recipient-phone', '+421 902 123 456',
    '--street', 'Obchodná', '--house-number', '1', '--city', 'Bratislava', '--postal-code', '811 06', '--country', 'SK',
    '--parcel', `${kg}x30x20x10`, '--sender-json', senderFile,
  ];
  const list = () => station.cliJson<Rule[]>(['rules', 'list', '--json']);

  beforeAll(async () => {
    station = await startStation({ ppl: true });
    senderFile = join(station.tmp, 'sender.json');
    writeFileSync(senderFile, JSON.stringify(SENDER));
    home = (await station.addPplChannel('PPL home')).id;
    heavy = (await station.addPplChannel('PPL heavy')).id;
    for (const [id, sk] of [[home, 140], [heavy, 120]] as const) {
      const file = join(station.tmp, `${id}.json`);
      writeFileSync(file, JSON.stringify(priceList(sk)));
      const updated = await station.cli(['channels', 'update', id, '--price-list-json', file]);
      expect(updated.code, updated.stderr).toBe(0);
    }
  });
  afterAll(async () => {
    if (station) expect(await station.stop()).toBe(0);
  });

  it('adds rules from flags and lists them in order, conditions and action in words with the channel names', async () => {
    const added = await station.cli(['rules', 'add', '--name', 'Default', '--action', 'use_channel', '--channel', home]);
    expect(added.code, added.stderr).toBe(0);
    expect(added.stdout).toMatch(/^name +Default$/m);
    expect(added.stdout).toMatch(/^when +every shipment \(default\)$/m);
    expect(added.stdout).toContain(`use PPL home (${home})`);

    const heavyRule = await station.cliJson<Rule>([
      'rules', 'add', '--name', 'Heavy to Slovakia', '--action', 'cheapest', '--channel', home, '--channel', heavy,
      '--country', 'sk', '--min-weight', '20', '--no-cod', '--no-point', '--position', '1', '--json',
    ]);
    expect(heavyRule).toMatchObject({
      position: 1, active: true,
      conditions: { destination_countries: ['SK'], weight_kg: { min: 20 }, cash_on_delivery: false, pickup_point: false },
      action: { type: 'cheapest', shipping_channel_ids: [home, heavy] },
    });

    const table = await station.cli(['rules', 'list']);
    expect(table.code, table.stderr).toBe(0);
    expect(tableRows(table.stdout).map(([position, _id, ...rest]) => [position, ...rest])).toEqual([
      ['1', 'Heavy to Slovakia', 'yes', 'to SK; weight 20 kg or more; without COD; to a door', `cheapest of PPL home (${home}), PPL heavy (${heavy})`],
      ['2', 'Default', 'yes', 'every shipment (default)', `use PPL home (${home})`],
    ]);
  });

  it('tests a shipment against the rules: each rule tried with its reason, the quotes, and the channel chosen', async () => {
    const light = await station.cli(['rules', 'test', ...slovakShipment('2')]);
    expect(light.code, light.stderr).toBe(0);
    expect(tableRows(light.stdout)).toEqual([
      ['1', 'Heavy to Slovakia', 'no', 'its weight 2 kg is below 20 kg'],
      ['2', 'Default', 'yes', expect.stringContaining('PPL home')],
    ]);
    expect(light.stdout).toContain(`channel: PPL home (${home}), chosen by rule Default:`);

    const bulky = await station.cliJson<{ shipping_channel_id: string; chosen_by: { name: string }; quotes: { price: number }[] }>(['rules', 'test', ...slovakShipment('24'), '--json']);
    expect(bulky).toMatchObject({ shipping_channel_id: heavy, chosen_by: { name: 'Heavy to Slovakia' } });
    expect(bulky.quotes.map((q) => q.price).sort()).toEqual([120, 140]);
    const shown = await station.cli(['rules', 'test', ...slovakShipment('24')]);
    expect(shown.stdout).toMatch(new RegExp(`quote PPL heavy \\(${heavy}\\): 120\\.00 CZK`));
    expect(shown.stdout).toContain(`channel: PPL heavy (${heavy}), chosen by rule Heavy to Slovakia: the cheapest of 2 priced channels`);

    // the packdesk process itself, the body on its stdin and the reference a flag
    const piped = await station.cli(['rules', 'test', '--from-json', '-', '--reference', 'SK-77', '--sender-json', senderFile, '--json'], undefined, JSON.stringify({
      recipient_contact: { first_name: 'Ján', last_name: 'Kováč', email_address: 'jan@example.sk', phone_number: '+421902123456' },
      destination_address: { street_name: 'Obchodná', house_number: '1', city_name: 'Bratislava', postal_code: '81106', country_code: 'SK' },
      parcels: [{ weight_amount: 1, weight_unit: 'KG', length_dimension: 30, width_dimension: 20, height_dimension: 10, dimension_unit: 'CM' }],
      cash_on_delivery_amount: 20, cash_on_delivery_currency: 'EUR',
    }));
    expect(piped.code, piped.stderr).toBe(0);
    expect(JSON.parse(piped.stdout).rules[0]).toMatchObject({ name: 'Heavy to Slovakia', chose: false, reason: 'its weight 1 kg is below 20 kg' });
  });

  it('moves, disables, enables and deletes a rule by its id', async () => {
    const [first, second] = await list();
    const moved = await station.cli(['rules', 'move', second!.id, '--position', '1']);
    expect(moved.code, moved.stderr).toBe(0);
    expect((await list()).map((r) => r.name)).toEqual([second!.name, first!.name]);

    expect((await station.cli(['rules', 'disable', first!.id])).code).toBe(0);
    expect((await list()).find((r) => r.id === first!.id)?.active).toBe(false);
    const skipped = await station.cliJson<{ rules: { name: string }[] }>(['rules', 'test', ...slovakShipment('24'), '--json']);
    expect(skipped.rules.map((r) => r.name)).toEqual(['Default']);
    expect((await station.cli(['rules', 'enable', first!.id])).code).toBe(0);

    const deleted = await station.cli(['rules', 'delete', first!.id]);
    expect(deleted).toMatchObject({ code: 0, stdout: `deleted ${first!.id}\n` });
    expect((await list()).map((r) => [r.position, r.name])).toEqual([[1, 'Default']]);
    expect((await station.cli(['rules', 'delete', first!.id])).code).toBe(3);
  });

  it('refuses a rule the API cannot take with each field path, and a command line that cannot make one with exit 2', async () => {
    const refused = await station.cli(['rules', 'add', '--name', 'Nowhere', '--action', 'cheapest', '--channel', home, '--channel', 'ch_nowhere', '--country', 'XX']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('  conditions.destination_countries.0: must be an ISO 3166-1 alpha-2 country code');
    expect(refused.stderr).toContain('  action.shipping_channel_ids.1: is not a shipping channel of this account');
    const asJson = await station.cli(['rules', 'add', '--name', 'Nowhere', '--action', 'use_channel', '--channel', home, '--country', 'XX', '--json']);
    expect(JSON.parse(asJson.stderr).errors).toEqual({ 'conditions.destination_countries.0': ['must be an ISO 3166-1 alpha-2 country code'] });

    const twoChannels = await station.cli(['rules', 'add', '--name', 'Two', '--action', 'use_channel', '--channel', home, '--channel', heavy]);
    expect(twoChannels.code).toBe(2);
    expect(twoChannels.stderr).toContain('--action use_channel takes one --channel, not 2');
    const badWeight = await station.cli(['rules', 'add', '--name', 'W', '--action', 'use_channel', '--channel', home, '--max-weight', 'heavy']);
    expect(badWeight.code).toBe(2);
    const noAction = await station.cli(['rules', 'add', '--name', 'W', '--channel', home]);
    expect(noAction.code).toBe(2);
    expect((await list()).map((r) => r.name)).toEqual(['Default']);
  });

  it('takes conditions without a flag from --conditions-json, the flags laid over them', async () => {
    const file = join(station.tmp, 'conditions.json');
    writeFileSync(file, JSON.stringify({ metadata: { shop: 'eu-*' }, parcel_count: { min: 2 }, destination_countries: ['DE'] }));
    const rule = await station.cliJson<Rule>(['rules', 'add', '--name', 'EU shop', '--action', 'use_channel', '--channel', heavy, '--conditions-json', file, '--country', 'AT', '--reference', 'EXP-*', '--json']);
    expect(rule.conditions).toEqual({ metadata: { shop: 'eu-*' }, parcel_count: { min: 2 }, destination_countries: ['AT'], reference_pattern: 'EXP-*' });
    const table = await station.cli(['rules', 'list']);
    expect(tableRows(table.stdout).map((r) => r[4])).toEqual(['every shipment (default)', 'to AT; parcels 2 or more; reference EXP-*; shop eu-*']);
  });
});
