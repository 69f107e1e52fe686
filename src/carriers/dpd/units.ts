/** The META-API's whole units: weights in grams "without decimal delimiter", dimensions in whole centimetres. */

/** Rounded up, after dropping float noise (1.1 kg is 1100 g, not 1101). */
export function wholeUp(value: number): number {
  return Math.ceil(Number(value.toFixed(3)));
}
