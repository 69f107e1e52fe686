/** Units accepted on parcels and their exact factors to kilograms and centimetres. */
export const WEIGHT_UNITS = { KG: 1, G: 0.001, LB: 0.45359237 } as const;
export const DIMENSION_UNITS = { CM: 1, MM: 0.1, M: 100, IN: 2.54 } as const;

export type WeightUnit = keyof typeof WEIGHT_UNITS;
export type DimensionUnit = keyof typeof DIMENSION_UNITS;

/** Rounded to grams / tenths of a millimetre, which removes floating-point noise from the factors. */
export function toKilograms(amount: number, unit: WeightUnit): number {
  return Math.round(amount * WEIGHT_UNITS[unit] * 1000) / 1000;
}

/** The parcels' weight together in kilograms, or null where one has no weight (yet) or one in an unknown unit. */
export function totalKilograms(parcels: unknown): number | null {
  if (!Array.isArray(parcels) || parcels.length === 0) return null;
  let kg = 0;
  for (const p of parcels as { weight_amount?: unknown; weight_unit?: unknown }[]) {
    const unit = String(p?.weight_unit ?? 'KG');
    if (typeof p?.weight_amount !== 'number' || !Number.isFinite(p.weight_amount) || !(unit in WEIGHT_UNITS)) return null;
    kg += toKilograms(p.weight_amount, unit as WeightUnit);
  }
  return kg;
}

export function toCentimetres(amount: number, unit: DimensionUnit): number {
  return Math.round(amount * DIMENSION_UNITS[unit] * 100) / 100;
}
