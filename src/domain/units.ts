/** Units accepted on parcels and their exact factors to kilograms and centimetres. */
export const WEIGHT_UNITS = { KG: 1, G: 0.001, LB: 0.45359237 } as const;
export const DIMENSION_UNITS = { CM: 1, MM: 0.1, M: 100, IN: 2.54 } as const;

export type WeightUnit = keyof typeof WEIGHT_UNITS;
export type DimensionUnit = keyof typeof DIMENSION_UNITS;

/** Rounded to grams / tenths of a millimetre, which removes floating-point noise from the factors. */
export function toKilograms(amount: number, unit: WeightUnit): number {
  return Math.round(amount * WEIGHT_UNITS[unit] * 1000) / 1000;
}

export function toCentimetres(amount: number, unit: DimensionUnit): number {
  return Math.round(amount * DIMENSION_UNITS[unit] * 100) / 100;
}
