import { and, eq } from 'drizzle-orm';
import { isoTimeOrNull } from '../domain/clock.js';
import { FieldErrorCollector, ValidationError } from '../domain/errors.js';
import { normaliseParties } from '../domain/parties.js';
import { checkAddress, checkContact, type Address, type Contact } from '../domain/shipment-input.js';
import { stationSettings } from '../store/schema.js';
import { listDaemons } from './daemons.js';
import type { PrintFormat } from '../../printers/index.js';
import type { ServiceContext } from './context.js';
import { channelForShipment } from './shipments/create.js';
import { checkPrintRequest } from './printing/print-jobs.js';
import { defaultPrinterFor, loadPrinterRow } from './printing/printers.js';

/**
 * What a packing station works with, kept on the daemon so every desk, `packdesk ship` and order shipping read the
 * same: the sender and pickup address, default channel and label format, a printer per format, copies, auto-print
 * and the boxes packers pick from. The account's own settings (stored as station `*`) are where every station
 * starts; a station's own values override them field by field.
 */
export interface StationSettings {
  sender_contact?: Contact | null;
  origin_address?: Address | null;
  shipping_channel_id?: string | null;
  label_format?: PrintFormat | null;
  printers?: Partial<Record<PrintFormat, string | null>> | null;
  copies?: number | null;
  auto_print?: boolean | null;
  box_presets?: BoxPreset[] | null;
}

export interface BoxPreset {
  name: string;
  length_dimension: number;
  width_dimension: number;
  height_dimension: number;
  weight_amount?: number;
}

/** The settings a station works with: its own, else the account's, else these defaults. */
export interface EffectiveSettings {
  sender_contact: Contact | null;
  origin_address: Address | null;
  shipping_channel_id: string | null;
  label_format: PrintFormat;
  printers: Record<PrintFormat, string | null>;
  copies: number;
  auto_print: boolean;
  box_presets: BoxPreset[];
}

const ACCOUNT = '*';
const FORMATS: readonly PrintFormat[] = ['pdf', 'zpl', 'epl'];
const FIELDS = ['sender_contact', 'origin_address', 'shipping_channel_id', 'label_format', 'printers', 'copies', 'auto_print', 'box_presets'] as const;

/** A station's name as daemons carry it (`--station`, `$PACKDESK_STATION`, the host name): one path segment. */
export function checkStationName(name: string, path = 'name'): void {
  if (name === ACCOUNT || name.length === 0 || name.length > 64 || /[/\\\p{Cc}]/u.test(name)) {
    throw new ValidationError({ [path]: ['must be a station name: 1 to 64 characters, no slashes or control characters'] });
  }
}

async function storedSettings(ctx: ServiceContext, accountId: string, station: string) {
  return ctx.db.select().from(stationSettings).where(and(eq(stationSettings.accountId, accountId), eq(stationSettings.station, station))).get();
}

/** Only the fields that say something: a null or absent field inherits. */
function own(settings: Record<string, unknown> | undefined): StationSettings {
  const out: Record<string, unknown> = {};
  for (const key of FIELDS) if (settings?.[key] !== undefined && settings[key] !== null) out[key] = settings[key];
  return out as StationSettings;
}

function presentOwn(settings: StationSettings) {
  return Object.fromEntries(FIELDS.map((key) => [key, settings[key] ?? null])) as Required<{ [K in keyof StationSettings]: NonNullable<StationSettings[K]> | null }>;
}

/**
 * Reads settings as the shipment rules read the same fields: sender and pickup address as people write them (the
 * phone for the address's country, the street with its number), the channel and printers this account's, each
 * printer taking its format. Problems go to `errors` at the field's path.
 */
async function checkSettings(ctx: ServiceContext, accountId: string, input: StationSettings, errors: FieldErrorCollector): Promise<StationSettings> {
  const settings = own(input as Record<string, unknown>);
  const parties = normaliseParties({ sender_contact: settings.sender_contact, origin_address: settings.origin_address }, errors);
  if (settings.sender_contact) {
    checkContact(errors, 'sender_contact', parties.sender_contact);
    settings.sender_contact = parties.sender_contact;
  }
  if (settings.origin_address) {
    checkAddress(errors, 'origin_address', parties.origin_address);
    settings.origin_address = parties.origin_address;
  }
  if (settings.shipping_channel_id) await channelForShipment(ctx, accountId, settings.shipping_channel_id, errors);
  if (settings.printers) {
    const chosen: Partial<Record<PrintFormat, string>> = {};
    for (const format of FORMATS) {
      const printerId = settings.printers[format];
      if (!printerId) continue;
      // the print request's rule (this account's, takes the format), said of the station's printer for the format
      const found = new FieldErrorCollector();
      await checkPrintRequest(ctx, accountId, { printer_id: printerId }, format, found, '');
      for (const message of found.errors.printer_id ?? []) errors.add(`printers.${format}`, message);
      chosen[format] = printerId;
    }
    if (Object.keys(chosen).length > 0) settings.printers = chosen;
    else delete settings.printers;
  }
  const names = new Set<string>();
  settings.box_presets?.forEach((box, i) => {
    if (names.has(box.name)) errors.add(`box_presets.${i}.name`, `is already the name of another box (${box.name})`);
    names.add(box.name);
  });
  errors.throwIfAny();
  return settings;
}

/** The station's own values over the account's, then the defaults; a format's printer falls back to the account's default for it. */
async function effectiveOf(ctx: ServiceContext, accountId: string, station: StationSettings, account: StationSettings): Promise<EffectiveSettings> {
  const pick = <K extends keyof StationSettings>(key: K) => station[key] ?? account[key] ?? null;
  const printers = {} as Record<PrintFormat, string | null>;
  for (const format of FORMATS) {
    // a printer removed since it was chosen is passed over, not printed to
    let chosen: string | null = null;
    for (const id of [station.printers?.[format], account.printers?.[format]]) {
      if (id && !chosen && (await loadPrinterRow(ctx, id))?.accountId === accountId) chosen = id;
    }
    printers[format] = chosen ?? (await defaultPrinterFor(ctx, accountId, format))?.id ?? null;
  }
  return {
    sender_contact: pick('sender_contact'), origin_address: pick('origin_address'), shipping_channel_id: pick('shipping_channel_id'),
    label_format: pick('label_format') ?? 'pdf', printers, copies: pick('copies') ?? 1, auto_print: pick('auto_print') ?? false,
    box_presets: pick('box_presets') ?? [],
  };
}

async function save(ctx: ServiceContext, accountId: string, station: string, settings: StationSettings): Promise<void> {
  const now = ctx.clock.now();
  await ctx.db.insert(stationSettings).values({ accountId, station, settings: settings as Record<string, unknown>, updatedAt: now })
    .onConflictDoUpdate({ target: [stationSettings.accountId, stationSettings.station], set: { settings: settings as Record<string, unknown>, updatedAt: now } }).run();
}

/** The account's settings, which every station starts from. */
export async function getAccountStationSettings(ctx: ServiceContext, accountId: string) {
  const row = await storedSettings(ctx, accountId, ACCOUNT);
  return { ...presentOwn(own(row?.settings)), updated_at: isoTimeOrNull(row?.updatedAt ?? null) };
}

export async function putAccountStationSettings(ctx: ServiceContext, accountId: string, input: StationSettings, errors = new FieldErrorCollector()) {
  await save(ctx, accountId, ACCOUNT, await checkSettings(ctx, accountId, input, errors));
  return getAccountStationSettings(ctx, accountId);
}

/** What a station has: its own values and the settings it works with. */
export async function getStationSettings(ctx: ServiceContext, accountId: string, station: string) {
  checkStationName(station);
  const [row, accountRow] = [await storedSettings(ctx, accountId, station), await storedSettings(ctx, accountId, ACCOUNT)];
  const settings = own(row?.settings);
  return {
    station, settings: presentOwn(settings), effective: await effectiveOf(ctx, accountId, settings, own(accountRow?.settings)),
    updated_at: isoTimeOrNull(row?.updatedAt ?? null),
  };
}

export async function putStationSettings(ctx: ServiceContext, accountId: string, station: string, input: StationSettings, errors = new FieldErrorCollector()) {
  checkStationName(station);
  await save(ctx, accountId, station, await checkSettings(ctx, accountId, input, errors));
  return getStationSettings(ctx, accountId, station);
}

export async function effectiveStationSettings(ctx: ServiceContext, accountId: string, station: string): Promise<EffectiveSettings> {
  return (await getStationSettings(ctx, accountId, station)).effective;
}

/**
 * A shipment body read at a station: what it leaves out of sender, pickup address, channel and label format comes
 * from the station's settings; with auto-print on and no `print` of its own it prints on the station's printer for
 * its format, or records why it cannot.
 */
export async function withStationSettings<B extends object>(ctx: ServiceContext, accountId: string, body: B & { station?: string }): Promise<B> {
  const { station, ...rest } = body;
  if (station === undefined) return rest as B;
  checkStationName(station, 'station');
  const effective = await effectiveStationSettings(ctx, accountId, station);
  const out: Record<string, unknown> = { ...rest };
  for (const key of ['sender_contact', 'origin_address', 'shipping_channel_id', 'label_format'] as const) {
    if (out[key] === undefined && effective[key] !== null) out[key] = effective[key];
  }
  const format = out.label_format as PrintFormat | undefined;
  if (!('print' in out) && effective.auto_print && format && FORMATS.includes(format)) {
    const printerId = effective.printers[format];
    out.print = printerId ? { printer_id: printerId, copies: effective.copies } : { printer_id: null, reason: `no printer for ${format.toUpperCase()} at station ${station}` };
  }
  return out as B;
}

/** The account's stations: those a daemon serves now and those with settings of their own, by name. */
export async function listStations(ctx: ServiceContext, accountId: string) {
  const rows = await ctx.db.select({ station: stationSettings.station, updatedAt: stationSettings.updatedAt }).from(stationSettings)
    .where(eq(stationSettings.accountId, accountId)).all();
  const configured = new Map(rows.filter((r) => r.station !== ACCOUNT).map((r) => [r.station, r.updatedAt]));
  const served = new Set((await listDaemons(ctx)).map((d) => d.station));
  return [...new Set([...served, ...configured.keys()])].sort().map((station) => ({
    station, served: served.has(station), this_daemon: station === ctx.station, settings_updated_at: isoTimeOrNull(configured.get(station) ?? null),
  }));
}
