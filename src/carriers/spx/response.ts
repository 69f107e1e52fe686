import type { FieldErrors } from '../../domain/errors.js';
import { nameOfCode, statusOfCode } from '../codes.js';
import type { TrackingEventFromCarrier, TrackResult } from '../types.js';
import { SPX_TRACKING } from './codes.js';
import { warsawTime } from '../local-time.js';

/**
 * SP Express answers → our results. Pure. Shapes: sp-express/php-sdk `src/Client/ApiRequest.php` (the envelope),
 * `src/Objects/Output/*.php` (packages, tracking), `src/Enums/ErrorCodes.php` (error codes).
 */

interface SpxError {
  error_code?: number | null;
  desc?: string | null;
  details?: unknown;
}

/** `{result: "OK", response}` or `{result: "FAIL", error}`; HTTP-level failures answer `{status, message}` instead. */
export interface SpxEnvelope<T> {
  result?: string;
  response?: T;
  error?: SpxError;
  status?: number;
  message?: string;
}

interface SpxPackageAnswer {
  package_id?: string | number;
  result?: string;
  log?: string | null;
  labels_no?: number;
  labels?: string[];
  labels_file_ext?: string;
  external_id?: string | null;
  operator_name?: string | null;
}

export interface SpxCreateAnswer {
  number?: number;
  packages?: SpxPackageAnswer[];
}

export type SpxCreated =
  | { state: 'created'; parcels: { trackingNumber: string; labels: string[]; externalId: string | null }[] }
  | { state: 'label_failed'; packageIds: string[]; message: string };

/** Why a created package cannot be used: no label (`log` says why, the SDK's LabelException), or not the PDF asked for. */
function unusable(p: SpxPackageAnswer): string | undefined {
  if (p.result !== 'OK' || !p.labels?.length) return `without a label: ${p.log || 'no reason given'}`;
  const ext = (p.labels_file_ext ?? 'pdf').toLowerCase();
  return ext === 'pdf' ? undefined : `with a ${ext} label instead of PDF`;
}

export function parseCreated(body: SpxEnvelope<SpxCreateAnswer>): SpxCreated {
  const packages = body.response?.packages ?? [];
  for (const p of packages) {
    const reason = unusable(p);
    if (!reason) continue;
    return {
      state: 'label_failed',
      packageIds: packages.flatMap((q) => (q.package_id !== undefined ? [String(q.package_id)] : [])),
      message: `SP Express created package ${p.package_id ?? '?'} ${reason}`,
    };
  }
  return {
    state: 'created',
    parcels: packages.map((p) => ({ trackingNumber: String(p.package_id), labels: p.labels!, externalId: p.external_id ?? null })),
  };
}

/** 1001 authentication problems, 1002 account locked; a wrong Basic login is a plain HTTP 401. */
const CREDENTIAL_CODES = new Set([1001, 1002]);
/** Maintenance, settings service down, exceptions and processing problems: worth another try. */
const TRANSIENT_CODES = new Set([1000, 1010, 1050, 1051, 1052, 1053]);

type SpxFailure = { kind: 'credentials' | 'transient' | 'refused'; code: number | null; message: string };

/** A non-OK answer: what kind of failure it is and the carrier's own words (null for an OK answer). */
export function spxFailure(status: number, body: SpxEnvelope<unknown> | undefined): SpxFailure | null {
  if (body?.result === 'OK' && status < 400) return null;
  const code = body?.error?.error_code ?? null;
  const message = body?.error?.desc || body?.message || `HTTP ${status}`;
  if (status === 401 || status === 403 || (code !== null && CREDENTIAL_CODES.has(code))) return { kind: 'credentials', code, message };
  if (code !== null && TRANSIENT_CODES.has(code)) return { kind: 'transient', code, message };
  return { kind: 'refused', code, message };
}

type Party = { contact: string; address: string };
const SENDER: Party = { contact: 'sender_contact', address: 'origin_address' };
const RECEIVER: Party = { contact: 'recipient_contact', address: 'destination_address' };

function partyPath(party: Party, key: string): string {
  const fields: Record<string, string> = {
    name: `${party.contact}.last_name`, company: `${party.contact}.company_name`, tel: `${party.contact}.phone_number`,
    email: `${party.contact}.email_address`, address_line_1: `${party.address}.street_name`, address_line_2: `${party.address}.street_name`,
    city: `${party.address}.city_name`, zip_code: `${party.address}.postal_code`, country: `${party.address}.country_code`,
  };
  return fields[key] ?? party.address;
}

const PACKAGE_FIELDS: Record<string, string> = {
  weight: 'parcels', size_l: 'parcels', size_w: 'parcels', size_d: 'parcels',
  ref: 'reference_number', note1: 'label_comment', content: 'shipping_channel_id', value: 'shipping_channel_id',
};
const OPTION_FIELDS: Record<string, string> = {
  number: 'parcels', cod: 'cash_on_delivery_amount', cod_currency: 'cash_on_delivery_currency',
  cod_bank_account: 'shipping_channel_id', operator: 'shipping_channel_id',
};

/** Codes named after one field of ours, whatever `details` says (1420 also means a bad delivery point, which packdesk never sends). */
const CODE_PATHS: Record<number, string> = {
  1001: 'shipping_channel_id', 1002: 'shipping_channel_id',
  1110: 'parcels', 1111: 'parcels', 1460: 'parcels',
  1416: 'label_format',
  1420: 'cash_on_delivery_amount', 1421: 'cash_on_delivery_amount', 1422: 'cash_on_delivery_amount',
  1423: 'shipping_channel_id', 1425: 'shipping_channel_id', 1426: 'cash_on_delivery_amount',
  1424: 'cash_on_delivery_currency', 1427: 'cash_on_delivery_currency',
  1450: 'shipping_channel_id', 1451: 'shipping_channel_id', 1452: 'shipping_channel_id',
  // the SDK names 1202 the receiver's and 1302 the sender's unknown country (ErrorCodes.php)
  1202: 'destination_address.country_code', 1302: 'origin_address.country_code',
  1470: 'origin_address', 1471: 'destination_address.country_code',
};

/** Where a `details` key of an error lands among our fields; unknown parameters (1101, 1201, 1301, 1401) are ours to fix. */
function spxFieldPath(code: number | null, key: string): string {
  if (code !== null && Object.hasOwn(CODE_PATHS, code)) return CODE_PATHS[code]!;
  if (code === 1200) return partyPath(SENDER, key);
  if (code === 1300) return partyPath(RECEIVER, key);
  if (code === 1100) return PACKAGE_FIELDS[key] ?? 'parcels';
  if (code !== null && code >= 1400 && code < 1500 && code !== 1401) return OPTION_FIELDS[key] ?? 'shipment';
  return 'shipment';
}

/** `details` as Yii model errors `{field: [messages]}`, or a bare message; anything else adds nothing. */
function detailMessages(details: unknown): [string, string[]][] {
  if (typeof details === 'string' && details) return [['', [details]]];
  if (typeof details !== 'object' || details === null || Array.isArray(details)) return [];
  return Object.entries(details).map(([key, value]) => [key, (Array.isArray(value) ? value : [value]).map(String)]);
}

/** A refusal → a message and our field errors. */
export function parseRefusal(status: number, body: SpxEnvelope<unknown> | undefined): { message: string; errors: FieldErrors } {
  const code = body?.error?.error_code ?? null;
  const desc = body?.error?.desc || body?.message || `HTTP ${status}`;
  const details = detailMessages(body?.error?.details);
  const errors: FieldErrors = {};
  for (const [key, messages] of details) {
    for (const m of messages) (errors[spxFieldPath(code, key)] ??= []).push(`SP Express: ${m}`);
  }
  if (Object.keys(errors).length === 0) errors[status === 401 ? 'shipping_channel_id' : spxFieldPath(code, '')] = [`SP Express: ${desc}`];
  const first = details[0]?.[1][0];
  return { message: `SP Express refused the request${code !== null ? ` (error ${code})` : ` (HTTP ${status})`}: ${desc}${first ? ` — ${first}` : ''}`, errors };
}

interface SpxStatIdEvent {
  date?: string;
  id?: string | number;
  location?: string | null;
}

interface SpxStatEvent {
  date?: string;
  name?: string | null;
  name_full?: string | null;
  location?: string | null;
}

interface SpxTrackedPackage {
  id?: string;
  result?: string;
  error_code?: number | null;
  current_stat_id?: string | number | null;
  stat_history?: SpxStatEvent[];
  stat_id_history?: SpxStatIdEvent[];
  /** The id history under its earlier name (`/V1/track/test`). */
  stat_map_history?: SpxStatIdEvent[];
}

export interface SpxTrackAnswer {
  number?: number;
  tts?: Record<string, SpxTrackedPackage>;
}

/** `POST /V1/track/courier` → one result per asked number; an id SP Express answers without `result: OK` is not found. */
export function parseTracking(body: SpxEnvelope<SpxTrackAnswer>, asked: readonly string[]): TrackResult[] {
  const tts = body.response?.tts ?? {};
  return asked.map((trackingNumber) => {
    const tt = Object.hasOwn(tts, trackingNumber) ? tts[trackingNumber] : undefined;
    return tt?.result === 'OK' ? { trackingNumber, found: true, events: trackingEvents(tt) } : { trackingNumber, found: false };
  });
}

/** Status ids with their times, oldest first; the worded event of the same time adds its text and place. */
function trackingEvents(tt: SpxTrackedPackage): TrackingEventFromCarrier[] {
  const worded = new Map((tt.stat_history ?? []).map((e) => [e.date, e]));
  const ids = tt.stat_id_history ?? tt.stat_map_history ?? [];
  const events: TrackingEventFromCarrier[] = [];
  for (const e of ids) {
    const occurredAt = warsawTime.parse(e.date ?? '');
    if (e.id === undefined || occurredAt === undefined) continue;
    const code = String(e.id);
    const words = worded.get(e.date);
    events.push({
      code, text: nameOfCode(SPX_TRACKING, code), status: statusOfCode(SPX_TRACKING, code),
      location: e.location || words?.location || null, description: words?.name_full || words?.name || null, occurredAt,
    });
  }
  return events.sort((a, b) => a.occurredAt - b.occurredAt);
}
