/**
 * The check digit of a GLS parcel number: weights 3 and 1 alternating from the right, the sum plus one, then
 * (10 − sum mod 10) mod 10. Inferred from GLS's published sample number 202800020052 (ShipIT API examples); GLS
 * Poland documents none of its own.
 */
export function glsParcelCheckDigit(body: string): string {
  let sum = 1;
  for (let i = 0; i < body.length; i++) sum += Number(body[body.length - 1 - i]) * (i % 2 === 0 ? 3 : 1);
  return String((10 - (sum % 10)) % 10);
}
