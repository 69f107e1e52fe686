import type { FieldErrorCollector } from './errors.js';

/** A time of day as people write it at a desk, `HH:MM` on a 24-hour clock. */
export const TIME_OF_DAY = /^([01]\d|2[0-3]):[0-5]\d$/;

/** Refuses a value that is not `HH:MM`, at `path`. */
export function checkTimeOfDay(value: unknown, path: string, errors: FieldErrorCollector): boolean {
  if (typeof value === 'string' && TIME_OF_DAY.test(value)) return true;
  errors.add(path, 'must be a time of day, HH:MM (e.g. 16:30)');
  return false;
}
