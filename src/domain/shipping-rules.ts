import type { FieldErrorCollector } from './errors.js';
import { COUNTRY_CODES } from './reference-data.js';
import { toCentimetres, totalKilograms, DIMENSION_UNITS, type DimensionUnit } from './units.js';

/** A range of a measure; either end may be open. Both ends are included. */
export interface Range { min?: number | null; max?: number | null }

/**
 * What a shipment must be for a rule to choose its channel. Every condition given must hold; a rule with none holds
 * for every shipment (an account's default, placed last).
 */
export interface RuleConditions {
  destination_countries?: string[];
  /** A region: destination postal codes starting with one of these (spaces and dashes ignored). */
  destination_postal_code_prefixes?: string[];
  /** The shipment's total weight, kg. */
  weight_kg?: Range;
  parcel_count?: Range;
  /** The longest side of its longest parcel, cm. */
  longest_side_cm?: Range;
  /** true: cash on delivery only; false: none only. */
  cash_on_delivery?: boolean;
  /** The amount to collect, in the shipment's COD currency (a shipment without COD does not match). */
  cash_on_delivery_amount?: Range;
  /** The goods' value: the sum of its customs items (quantity × unit value); a shipment without items does not match. */
  order_value?: Range;
  /** true: to a pickup point or locker only; false: to a door only. */
  pickup_point?: boolean;
  /** The reference number, as a pattern: `*` any run of characters, `?` one; case ignored. */
  reference_pattern?: string;
  /** Metadata values (an order's tags, its shop …) by key, as patterns like reference_pattern. */
  metadata?: Record<string, string>;
  /** The watched folders whose files it came from (a shipment from anywhere else does not match). */
  import_folder_ids?: string[];
}

/** What a rule does when it holds: ship with one channel, or with the cheapest or fastest of some by their quotes. */
export type RuleAction =
  | { type: 'use_channel'; shipping_channel_id: string }
  | { type: 'cheapest' | 'fastest'; shipping_channel_ids: string[] };

export const RULE_ACTION_TYPES = ['use_channel', 'cheapest', 'fastest'] as const;

/** Which rule chose a shipment's channel, and why that channel. */
export interface ChosenBy {
  shipping_rule_id: string;
  name: string;
  reason: string;
}

/** The channels a rule's action names. */
export function actionChannels(action: RuleAction): string[] {
  return action.type === 'use_channel' ? [action.shipping_channel_id] : action.shipping_channel_ids;
}

/** What the conditions read of a shipment body (API, order or import row), whatever it has so far. */
export interface RuleFacts {
  countryCode: string | null;
  postalCode: string | null;
  /** null where a parcel has no weight yet (an order waiting to be weighed). */
  weightKg: number | null;
  parcelCount: number;
  longestSideCm: number | null;
  cod: { amount: number; currency: string | null } | null;
  orderValue: number | null;
  toPoint: boolean;
  reference: string | null;
  metadata: Record<string, unknown>;
  importFolderId: string | null;
}

interface FactsBody {
  destination_address?: { country_code?: unknown; postal_code?: unknown } | null;
  parcels?: { weight_amount?: unknown; weight_unit?: unknown; length_dimension?: unknown; width_dimension?: unknown; height_dimension?: unknown; dimension_unit?: unknown }[] | null;
  cash_on_delivery_amount?: unknown;
  cash_on_delivery_currency?: unknown;
  customs?: { items?: { quantity?: unknown; unit_value?: unknown }[] | null } | null;
  pickup_point?: unknown;
  reference_number?: unknown;
  metadata?: unknown;
}

const text = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const finite = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/** The facts of a body as given: values the body lacks or gives in an unknown unit are unknown (null), not zero. */
export function ruleFacts(body: FactsBody, importFolderId: string | null = null): RuleFacts {
  const parcels = Array.isArray(body.parcels) ? body.parcels : [];
  const sides = parcels.flatMap((p) => [p.length_dimension, p.width_dimension, p.height_dimension].map((side) => (
    finite(side) && String(p.dimension_unit ?? 'CM') in DIMENSION_UNITS ? toCentimetres(side, String(p.dimension_unit ?? 'CM') as DimensionUnit) : null)));
  const items = Array.isArray(body.customs?.items) ? body.customs.items : [];
  const itemValues = items.map((i) => (finite(i.quantity) && finite(i.unit_value) ? i.quantity * i.unit_value : null));
  const known = <T>(values: (T | null)[]): values is T[] => values.length > 0 && values.every((v) => v !== null);
  return {
    countryCode: text(body.destination_address?.country_code),
    postalCode: text(body.destination_address?.postal_code),
    weightKg: totalKilograms(parcels),
    parcelCount: parcels.length,
    longestSideCm: known(sides) ? Math.max(...sides) : null,
    cod: finite(body.cash_on_delivery_amount) ? { amount: body.cash_on_delivery_amount, currency: text(body.cash_on_delivery_currency) } : null,
    orderValue: known(itemValues) ? itemValues.reduce((a, b) => a + b, 0) : null,
    toPoint: body.pickup_point != null,
    reference: text(body.reference_number),
    metadata: body.metadata && typeof body.metadata === 'object' ? body.metadata as Record<string, unknown> : {},
    importFolderId,
  };
}

/**
 * Whether `value` matches a `*`/`?` pattern, case ignored. Greedy with one remembered star: at most
 * pattern × value steps, so no pattern can hold the event loop the way a regular expression could.
 */
export function matchesPattern(pattern: string, value: string): boolean {
  const p = pattern.toLowerCase();
  const v = value.toLowerCase();
  let pi = 0;
  let vi = 0;
  let star = -1;
  let resume = 0;
  while (vi < v.length) {
    if (pi < p.length && (p[pi] === '?' || p[pi] === v[vi])) {
      pi++;
      vi++;
    } else if (pi < p.length && p[pi] === '*') {
      star = pi++;
      resume = vi;
    } else if (star >= 0) {
      pi = star + 1;
      vi = ++resume;
    } else return false;
  }
  while (p[pi] === '*') pi++;
  return pi === p.length;
}

const compact = (postalCode: string) => postalCode.replace(/[\s-]/g, '').toUpperCase();

function inRange(value: number | null, range: Range, what: string, unit: string): string | null {
  if (value === null) return `its ${what} is not known yet`;
  const shown = `${Math.round(value * 1000) / 1000}${unit}`;
  if (range.min != null && value < range.min) return `its ${what} ${shown} is below ${range.min}${unit}`;
  if (range.max != null && value > range.max) return `its ${what} ${shown} is above ${range.max}${unit}`;
  return null;
}

/** Why the conditions do not hold for the facts (the first condition that fails), or null when they all hold. */
export function unmetCondition(c: RuleConditions, f: RuleFacts): string | null {
  if (c.destination_countries?.length && !c.destination_countries.includes(f.countryCode ?? '')) {
    return `it goes to ${f.countryCode ?? 'no country yet'}, not ${c.destination_countries.join(', ')}`;
  }
  if (c.destination_postal_code_prefixes?.length) {
    const code = compact(f.postalCode ?? '');
    if (!c.destination_postal_code_prefixes.some((prefix) => code.startsWith(compact(prefix)))) {
      return `its postal code ${f.postalCode ?? '(none)'} starts with none of ${c.destination_postal_code_prefixes.join(', ')}`;
    }
  }
  const ranged: [Range | null | undefined, number | null, string, string][] = [
    [c.weight_kg, f.weightKg, 'weight', ' kg'],
    [c.parcel_count, f.parcelCount, 'parcel count', ''],
    [c.longest_side_cm, f.longestSideCm, 'longest side', ' cm'],
    [c.order_value, f.orderValue, 'order value (its customs items)', ''],
  ];
  for (const [range, value, what, unit] of ranged) {
    const unmet = range ? inRange(value, range, what, unit) : null;
    if (unmet) return unmet;
  }
  if (c.cash_on_delivery != null && c.cash_on_delivery !== (f.cod !== null)) return c.cash_on_delivery ? 'it has no cash on delivery' : 'it has cash on delivery';
  if (c.cash_on_delivery_amount) {
    const unmet = f.cod ? inRange(f.cod.amount, c.cash_on_delivery_amount, 'amount to collect', f.cod.currency ? ` ${f.cod.currency}` : '') : 'it has no cash on delivery';
    if (unmet) return unmet;
  }
  if (c.pickup_point != null && c.pickup_point !== f.toPoint) return c.pickup_point ? 'it goes to a door, not a pickup point' : 'it goes to a pickup point';
  if (c.reference_pattern != null && !matchesPattern(c.reference_pattern, f.reference ?? '')) {
    return `its reference ${f.reference ?? '(none)'} does not match ${c.reference_pattern}`;
  }
  for (const [key, pattern] of Object.entries(c.metadata ?? {})) {
    const value = f.metadata[key];
    if (!matchesPattern(pattern, value == null ? '' : String(value))) return `its metadata ${key} does not match ${pattern}`;
  }
  if (c.import_folder_ids?.length && !c.import_folder_ids.includes(f.importFolderId ?? '')) {
    return f.importFolderId ? 'it came from another watched folder' : 'it did not come from a watched folder';
  }
  return null;
}

/** The checks the schema cannot make: known country codes and ranges whose ends are in order (values of other types are the schema's to refuse). */
export function checkRuleConditions(c: RuleConditions | null | undefined, errors: FieldErrorCollector, path = 'conditions'): void {
  if (!c || typeof c !== 'object') return;
  if (Array.isArray(c.destination_countries)) {
    c.destination_countries.forEach((code, i) => {
      if (typeof code === 'string' && !COUNTRY_CODES.has(code)) errors.add(`${path}.destination_countries.${i}`, 'must be an ISO 3166-1 alpha-2 country code');
    });
  }
  for (const key of ['weight_kg', 'parcel_count', 'longest_side_cm', 'cash_on_delivery_amount', 'order_value'] as const) {
    const range = c[key];
    if (range && typeof range.min === 'number' && typeof range.max === 'number' && range.min > range.max) errors.add(`${path}.${key}.max`, `must not be below min (${range.min})`);
  }
  if (c.cash_on_delivery === false && c.cash_on_delivery_amount) errors.add(`${path}.cash_on_delivery_amount`, 'can never hold with cash_on_delivery false');
}
