/** Money, weights and dimensions as people type them, read the same way on every page of the desk. */

/**
 * `2,4`, `1 249,90`, `1.249,90` and `1,249.90`: spaces (also non-breaking and narrow) dropped; with both a point and a
 * comma the last one is the decimal mark, with commas alone a comma is. Empty text is undefined, anything else not a
 * number NaN (sent on, so that the API names the field).
 */
export function readDecimal(text: string): number | undefined {
  let cleaned = text.replace(/[\s\u00a0\u202f']/g, '');
  if (cleaned === '') return undefined;
  const mark = Math.max(cleaned.lastIndexOf(','), cleaned.lastIndexOf('.'));
  if (cleaned.includes(',') && cleaned.includes('.')) cleaned = `${cleaned.slice(0, mark).replace(/[.,]/g, '')}.${cleaned.slice(mark + 1)}`;
  else cleaned = cleaned.replace(',', '.');
  if (!/^[+-]?(\d+\.?\d*|\.\d+)$/.test(cleaned)) return Number.NaN;
  return Number(cleaned);
}

/** A stored number as its input shows it again: nothing for none. */
export function showDecimal(value: number | null | undefined, decimals?: number): string {
  if (value === null || value === undefined) return '';
  return decimals === undefined ? String(value) : value.toFixed(decimals);
}
