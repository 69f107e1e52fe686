import type { FieldErrorCollector } from './errors.js';

/**
 * What a channel's parcels are when an order says nothing of them (`parcel_defaults`): the weight of a usual parcel,
 * and the usual box. A warehouse that ships one box size imports orders with no measurements; a parcel weighed at
 * the desk keeps its weight.
 */
export interface ParcelDefaults {
  weight_amount?: number;
  /** KG, G or LB, as parcels take it (the schema checked it). */
  weight_unit?: string;
  length_dimension?: number;
  width_dimension?: number;
  height_dimension?: number;
  /** CM, MM, M or IN. */
  dimension_unit?: string;
}

const DIMENSIONS = ['length_dimension', 'width_dimension', 'height_dimension'] as const;
const isSet = (v: unknown) => v !== undefined && v !== null && v !== '';

/** The box is one thing: its three dimensions are set together (the schema checked each value). */
export function checkParcelDefaults(value: ParcelDefaults | null | undefined, errors: FieldErrorCollector, path = 'parcel_defaults'): void {
  if (!value) return;
  const set = DIMENSIONS.filter((d) => isSet(value[d]));
  if (set.length > 0 && set.length < DIMENSIONS.length) {
    for (const d of DIMENSIONS.filter((k) => !isSet(value[k]))) errors.add(`${path}.${d}`, 'is required with the other dimensions of the box');
  }
}

/**
 * A parcel with no weight takes the default weight; one with none of its dimensions takes the default box (a parcel
 * measured in part keeps what it has and is told what it lacks).
 */
export function withParcelDefaults<P extends ParcelDefaults>(parcels: readonly P[], defaults: ParcelDefaults | null | undefined): P[] {
  if (!defaults) return [...parcels];
  return parcels.map((p) => {
    const out: P = { ...p };
    if (!isSet(p.weight_amount) && isSet(defaults.weight_amount)) {
      out.weight_amount = defaults.weight_amount;
      out.weight_unit = defaults.weight_unit ?? 'KG';
    }
    if (DIMENSIONS.every((d) => !isSet(p[d])) && DIMENSIONS.every((d) => isSet(defaults[d]))) {
      for (const d of DIMENSIONS) out[d] = defaults[d];
      out.dimension_unit = defaults.dimension_unit ?? 'CM';
    }
    return out;
  });
}

/** Each parcel's weight and dimensions, given or defaulted: carriers price and route by them. */
export function checkParcelMeasures(parcels: readonly ParcelDefaults[], errors: FieldErrorCollector): void {
  parcels.forEach((p, i) => {
    if (!isSet(p.weight_amount)) errors.add(`parcels.${i}.weight_amount`, "is required: weigh the parcel, or set a weight in the channel's parcel_defaults");
    for (const d of DIMENSIONS) {
      if (!isSet(p[d])) errors.add(`parcels.${i}.${d}`, `is required: measure the parcel (length, width and height), or set a box in the channel's parcel_defaults`);
    }
  });
}
