import type { Clock } from '../../domain/clock.js';

/**
 * Parcel numbers an emulated carrier gives out: `digits` long, starting at `prefix` followed by a part of the
 * clock (so two emulator runs rarely repeat a number), each with the carrier's check digit when it has one.
 * Never reset: a number once given out is not given out again by this process.
 */
export function numberSequence(clock: Clock, options: { prefix: string; digits: number; checkDigit?: (body: string) => string }): () => string {
  const check = options.checkDigit ?? (() => '');
  const bodyDigits = options.digits - options.prefix.length - (options.checkDigit ? 1 : 0);
  const span = 10 ** bodyDigits;
  let next = (Math.floor(clock.now() / 1000) % Math.floor(span / 1000)) * 1000;
  return () => {
    const body = options.prefix + String(next++ % span).padStart(bodyDigits, '0');
    return body + check(body);
  };
}

/** Mod-7 check digit, as DHL Express waybill numbers use. */
export function mod7CheckDigit(body: string): string {
  return String(Number(BigInt(body) % 7n));
}
