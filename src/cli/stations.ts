import { InvalidArgumentError, Option, type Command } from 'commander';
import type { AccountStationSettings, BoxPreset, Channel, LabelFormat, Printer, StationSettings, StationView } from './api-types.js';
import { ApiClient, type Page } from './client.js';
import { CliError, EXIT } from './exit-codes.js';
import { collect, printJson, printTable } from './output.js';
import { parseCopies } from './print-jobs.js';
import { channelProduct, productsOf } from './product-names.js';
import { action } from './run.js';
import { readSender } from './ship-body.js';
import { addressLine, contactName } from './shipment-records.js';
import {
  ACCOUNT_SETTINGS_PATH, fetchAccountSettings, fetchStation, migrateSenderFile, ownSettings, stationName, stationSettingsPath,
} from './station-settings.js';

const FORMATS: readonly LabelFormat[] = ['pdf', 'zpl', 'epl'];

/** What `--clear` takes: a setting of the API, or one format's printer. */
const CLEARABLE = [
  'sender_contact', 'origin_address', 'shipping_channel_id', 'label_format', 'printers', ...FORMATS.map((f) => `printers.${f}`),
  'copies', 'auto_print', 'box_presets',
] as const;

type Clearable = (typeof CLEARABLE)[number];

/** Repeated `--clear FIELD`, each one of CLEARABLE. */
function collectClearable(value: string, previous: Clearable[] | undefined): Clearable[] {
  if (!(CLEARABLE as readonly string[]).includes(value)) throw new InvalidArgumentError(`Allowed choices are ${CLEARABLE.join(', ')}.`);
  return [...(previous ?? []), value as Clearable];
}

/** Names of what settings refer to by id: printers and channels. */
interface Names {
  printers: Map<string, string>;
  channels: Map<string, string>;
}

async function namesFor(client: ApiClient, channelIds: (string | null | undefined)[]): Promise<Names> {
  const printers = (await client.get<Page<Printer>>('/v1/printers?per_page=100')).body.data;
  const channels = new Map<string, string>();
  for (const id of new Set(channelIds.filter((c): c is string => Boolean(c)))) {
    try {
      const channel = (await client.get<{ data: Channel }>(`/v1/shipping-channels/${encodeURIComponent(id)}`)).body.data;
      const product = channelProduct(channel.settings, await productsOf(client, channel.provider));
      channels.set(id, `${channel.name} (${channel.provider}${product ? `, ${product}` : ''}) ${id}`);
    } catch (err) {
      // a channel removed since: its id says what the setting holds
      if (!(err instanceof CliError && err.exitCode === EXIT.notFound)) throw err;
    }
  }
  return { printers: new Map(printers.map((p) => [p.id, `${p.name} (${p.id})`])), channels };
}

const describeBox = (b: BoxPreset): string =>
  `${b.name} ${b.length_dimension}×${b.width_dimension}×${b.height_dimension} cm${b.weight_amount ? ` ${b.weight_amount} kg` : ''}`;

/** One column of the table: a settings object's values as people read them; `-` where it sets nothing. */
function column(s: StationSettings | StationView['effective'], names: Names): string[] {
  const shown = (value: unknown, text: () => string) => (value === null || value === undefined ? '-' : text());
  const printer = (format: LabelFormat) => shown(s.printers?.[format], () => names.printers.get(s.printers![format]!) ?? s.printers![format]!);
  return [
    shown(s.sender_contact, () => `${contactName(s.sender_contact!)}, ${s.sender_contact!.email_address}, ${s.sender_contact!.phone_number}`),
    shown(s.origin_address, () => addressLine(s.origin_address!)),
    shown(s.shipping_channel_id, () => names.channels.get(s.shipping_channel_id!) ?? s.shipping_channel_id!),
    shown(s.label_format, () => s.label_format!),
    ...FORMATS.map(printer),
    shown(s.copies, () => String(s.copies)),
    shown(s.auto_print, () => (s.auto_print ? 'on' : 'off')),
    shown(s.box_presets, () => (s.box_presets!.length ? s.box_presets!.map(describeBox).join('; ') : 'none')),
  ];
}

const ROWS = ['sender', 'pickup address', 'channel', 'label format', ...FORMATS.map((f) => `${f.toUpperCase()} printer`), 'copies', 'auto-print', 'boxes'];

/** The station's own settings, the account's and those in effect, side by side (or as JSON). */
async function showStation(client: ApiClient, name: string, json: boolean | undefined): Promise<void> {
  const [station, account] = await Promise.all([fetchStation(client, name), fetchAccountSettings(client)]);
  if (json) {
    printJson({ ...station, account });
    return;
  }
  const names = await namesFor(client, [station.settings.shipping_channel_id, account.shipping_channel_id, station.effective.shipping_channel_id]);
  const columns = [column(station.settings, names), column(account, names), column(station.effective, names)];
  printTable(['setting', `station ${station.station}`, 'account', 'in effect'], ROWS.map((row, i) => [row, ...columns.map((c) => c[i])]));
  process.stdout.write(`- : not set there; a station takes the account's, else the defaults (pdf, 1 copy, no auto-print)\n`);
}

/** `FORMAT=PRINTER_ID`, e.g. `zpl=prn_…`. */
function parsePrinterFlag(text: string): [LabelFormat, string] {
  const [format, id] = text.split('=', 2).map((part) => part.trim()) as [string, string | undefined];
  if (!FORMATS.includes(format.toLowerCase() as LabelFormat) || !id) {
    throw new CliError(`--printer must be FORMAT=PRINTER_ID with FORMAT pdf, zpl or epl (e.g. zpl=prn_…), not "${text}"`, EXIT.usage);
  }
  return [format.toLowerCase() as LabelFormat, id];
}

/** `NAME=LxWxH[:KG]` in cm and kg, e.g. `Small=30x20x10:0.2` (also with `×` and decimal commas). */
export function parseBoxFlag(text: string): BoxPreset {
  const match = /^(.+?)=\s*([\d.,]+)\s*[x×X*]\s*([\d.,]+)\s*[x×X*]\s*([\d.,]+)\s*(?::\s*([\d.,]+))?\s*$/.exec(text);
  const numbers = match ? match.slice(2).map((n) => (n === undefined ? undefined : Number(n.replace(',', '.')))) : [];
  const name = match?.[1]!.trim() ?? '';
  if (!match || name.length === 0 || name.length > 40 || numbers.some((n) => n !== undefined && !(n > 0))) {
    throw new CliError(`--box must be NAME=LENGTHxWIDTHxHEIGHT[:KG] in cm and kg, a name of 1-40 characters (e.g. Small=30x20x10:0.2), not "${text}"`, EXIT.usage);
  }
  const [length, width, height, weight] = numbers as [number, number, number, number | undefined];
  return { name, length_dimension: length, width_dimension: width, height_dimension: height, ...(weight !== undefined ? { weight_amount: weight } : {}) };
}

interface SetFlags {
  account?: boolean;
  senderJson?: string;
  channel?: string;
  format?: LabelFormat;
  printer?: string[];
  copies?: string;
  autoPrint?: 'on' | 'off';
  box?: string[];
  clear?: Clearable[];
  json?: boolean;
}

/** `current` with what the flags say changed: set, or cleared back to inherited (null). */
function changedSettings(current: StationSettings, o: SetFlags): StationSettings {
  const next: StationSettings = { ...current };
  if (o.senderJson !== undefined) {
    const sender = readSender(o.senderJson, '--sender-json');
    next.sender_contact = sender.contact;
    next.origin_address = sender.address;
  }
  if (o.channel !== undefined) next.shipping_channel_id = o.channel;
  if (o.format !== undefined) next.label_format = o.format;
  if (o.printer?.length) next.printers = { ...next.printers, ...Object.fromEntries(o.printer.map(parsePrinterFlag)) };
  if (o.copies !== undefined) next.copies = parseCopies(o.copies);
  if (o.autoPrint !== undefined) next.auto_print = o.autoPrint === 'on';
  if (o.box?.length) {
    const boxes = o.box.map(parseBoxFlag);
    next.box_presets = [...(next.box_presets ?? []).filter((b) => !boxes.some((n) => n.name === b.name)), ...boxes];
  }
  for (const field of o.clear ?? []) {
    const [key, format] = field.split('.') as [keyof StationSettings, LabelFormat | undefined];
    if (format) next.printers = { ...next.printers, [format]: null };
    else next[key] = null;
  }
  return next;
}

/** `packdesk stations show|set`: the settings a packing desk works with, kept by the daemon for every station. */
export function registerStationCommands(program: Command): void {
  const stations = program.command('stations').description("station settings: sender, pickup address, channel, label format, printers, auto-print, boxes");

  stations.command('show')
    .description("a station's own settings, the account's, and those in effect (default: the daemon's station)")
    .argument('[name]', "station name (default: the station of the daemon the CLI talks to)")
    .option('--json', 'print {station, settings, effective, updated_at, account} as JSON')
    .action(action(async (name: string | undefined, o: { json?: boolean }) => {
      const client = ApiClient.fromConfig();
      const migrated = await migrateSenderFile(client);
      if (migrated) (o.json ? process.stderr : process.stdout).write(`${migrated}\n`);
      await showStation(client, await stationName(client, name), o.json);
    }));

  stations.command('set')
    .description("change a station's own settings (or with --account those every station starts from); the others are kept")
    .argument('[name]', "station name (default: the station of the daemon the CLI talks to)")
    .option('--account', "change the account's settings, which every station takes where it sets nothing itself")
    .option('--sender-json <file>', 'the sender and pickup address as {"contact": {...}, "address": {...}}')
    .option('--channel <id>', 'the default shipping channel (ch_…)')
    .addOption(new Option('--format <format>', 'the default label format').choices(FORMATS))
    .option('--printer <format=id>', 'the printer for a label format, e.g. zpl=prn_…; repeat for each format', collect)
    .option('--copies <n>', 'label copies to print, 1-20')
    .addOption(new Option('--auto-print <on|off>', 'print each label as soon as it exists').choices(['on', 'off']))
    .option('--box <name=LxWxH[:kg]>', 'a box preset in cm (and kg), e.g. Small=30x20x10:0.2; repeat for each; replaces one of the same name', collect)
    .addOption(new Option('--clear <field>', 'take this setting back to inherited; repeat for each').choices(CLEARABLE).argParser(collectClearable))
    .option('--json', 'print the settings saved as JSON')
    .action(action(async (name: string | undefined, o: SetFlags) => {
      if (o.account && name !== undefined) throw new CliError('give a station name or --account, not both', EXIT.usage);
      const client = ApiClient.fromConfig();
      const station = o.account ? undefined : await stationName(client, name);
      const path = station === undefined ? ACCOUNT_SETTINGS_PATH : stationSettingsPath(station);
      const current = ownSettings(station === undefined ? await fetchAccountSettings(client) : (await fetchStation(client, station)).settings);
      const next = ownSettings(changedSettings(current, o));
      if (JSON.stringify(next) === JSON.stringify(current)) {
        throw new CliError('nothing to change: give --sender-json, --channel, --format, --printer, --copies, --auto-print, --box or --clear', EXIT.usage);
      }
      const { body } = await client.request<{ data: AccountStationSettings | StationView }>('PUT', path, next);
      if (o.json) {
        printJson(body.data);
        return;
      }
      process.stdout.write(`saved ${station === undefined ? "the account's station settings" : `the settings of station ${station}`}\n\n`);
      await showStation(client, station ?? await stationName(client, undefined), false);
    }));
}
