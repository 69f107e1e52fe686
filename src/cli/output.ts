import Table from 'cli-table3';
import { CliError } from './exit-codes.js';

/** Prints JSON for scripts (`--json`) or a table for people. */
export function printJson(value: unknown): void {
  process.stdout.write(JSON.stringify(value, null, 2) + '\n');
}

export function printTable(head: string[], rows: (string | number | boolean | null | undefined)[][]): void {
  if (rows.length === 0) {
    process.stdout.write('(none)\n');
    return;
  }
  const table = new Table({ head, style: { head: [], border: [] } });
  for (const row of rows) table.push(row.map((c) => (c == null ? '' : String(c))));
  process.stdout.write(table.toString() + '\n');
}

/** Key/value lines for one record. */
export function printRecord(record: Record<string, unknown>): void {
  const width = Math.max(...Object.keys(record).map((k) => k.length));
  for (const [key, value] of Object.entries(record)) {
    const shown = value == null ? '' : typeof value === 'object' ? JSON.stringify(value) : String(value);
    process.stdout.write(`${key.padEnd(width)}  ${shown}\n`);
  }
}

export function printPageFooter(meta: { current_page: number; last_page: number; total: number }): void {
  process.stdout.write(`page ${meta.current_page} of ${meta.last_page}, ${meta.total} in all\n`);
}

/** One line on stderr for the error, then one line per field error. */
export function printError(err: CliError): void {
  process.stderr.write(`packdesk: ${err.message}\n`);
  for (const [field, messages] of Object.entries(err.details ?? {})) {
    process.stderr.write(`  ${field}: ${messages.join('; ')}\n`);
  }
}

export function isInteractive(json?: boolean): boolean {
  return Boolean(process.stdin.isTTY && process.stdout.isTTY && !json && !process.env.CI);
}

/** Commander option parser for repeatable flags (`--event a --event b`). */
export const collect = (value: string, previous: string[]): string[] => [...previous, value];
