/**
 * The emulators' stand-in for the carriers' postal code books: codes of their country's shape that no place has, which
 * every carrier refuses. A code of zeros, and 799 99 (Czechia) and 08999 (Spain), which pass packdesk's own check of a
 * code's shape and so reach the carrier.
 */
const NO_PLACE = new Set(['79999', '08999']);

export function noSuchPlace(postalCode: string): boolean {
  const digits = postalCode.replace(/[\s-]/g, '');
  return /^0+$/.test(digits) || NO_PLACE.has(digits);
}
