/** Money is stored exactly as integer minor units; the API speaks JSON numbers with at most 2 decimals. */

/** Minor units of `amount`, or undefined when it has more than 2 decimals or is not a finite positive number. */
export function toMinorUnits(amount: number): number | undefined {
  if (!Number.isFinite(amount)) return undefined;
  const minor = Math.round(amount * 100);
  return Math.abs(minor - amount * 100) < 1e-6 ? minor : undefined;
}

export function fromMinorUnits(minor: number): number {
  return minor / 100;
}

/** `"499.00"` — the decimal text carriers want. */
export function formatMinorUnits(minor: number): string {
  const sign = minor < 0 ? '-' : '';
  const abs = Math.abs(minor);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}
