import type { CsvLimits } from './csv-table.js';

/** How much of an order file the daemon reads before it refuses the file (`packdesk daemon --import-limit`). */
export interface ImportLimits extends CsvLimits {
  /** Bytes of the file. */
  maxFileBytes: number;
}

/**
 * Far beyond a day's export of a busy e-shop (a 10,000-order file is about 3 MiB), and small enough that a file's
 * orders fit the daemon's memory many times over.
 */
export const DEFAULT_IMPORT_LIMITS: Readonly<ImportLimits> = {
  maxFileBytes: 32 * 2 ** 20,
  maxRows: 100_000,
  maxLineChars: 64 * 1024,
  maxColumns: 256,
};

/** The names of `--import-limit NAME=VALUE`, as admins write them. */
export const IMPORT_LIMIT_NAMES: Readonly<Record<string, keyof ImportLimits>> = {
  'file-mib': 'maxFileBytes',
  rows: 'maxRows',
  'line-chars': 'maxLineChars',
  columns: 'maxColumns',
};
