import Table from 'cli-table3';
import { CliError } from './exit-codes.js';

/** Prints JSON for scripts (`--json`) or a table for people. */
export function printJson(value: unknown): void {
  process.stdout.write(JSON.stringify(value, null, 2) + '\n');
}

/** The widest a table may be: the terminal's width, else 100 columns (logs, pipes, a narrow terminal). */
const DEFAULT_TABLE_WIDTH = 100;

const lineWidth = (text: string): number => Math.max(0, ...text.split('\n').map((line) => [...line].length));
const longestWord = (text: string): number => Math.max(0, ...text.split(/\s+/).map((word) => [...word].length));

/**
 * Column widths (each with its two spaces of padding) that fit `maxWidth` by wrapping the columns of several words,
 * widest first. Undefined when the table fits as it is, or cannot fit without breaking words (ids, URLs, times).
 */
export function fitColumns(rows: string[][], maxWidth: number): number[] | undefined {
  const columns = rows[0]?.length ?? 0;
  const widths = Array.from({ length: columns }, (_, c) => Math.max(...rows.map((r) => lineWidth(r[c] ?? ''))) + 2);
  const least = Array.from({ length: columns }, (_, c) => Math.max(...rows.map((r) => longestWord(r[c] ?? ''))) + 2);
  const total = (w: number[]) => w.reduce((a, b) => a + b, 0) + columns + 1;
  if (total(widths) <= maxWidth || total(least) > maxWidth) return undefined;
  while (total(widths) > maxWidth) {
    let widest = -1;
    for (let c = 0; c < columns; c++) if (widths[c]! > least[c]! && (widest < 0 || widths[c]! > widths[widest]!)) widest = c;
    widths[widest]! -= 1;
  }
  return widths;
}

export function printTable(head: string[], rows: (string | number | boolean | null | undefined)[][]): void {
  if (rows.length === 0) {
    process.stdout.write('(none)\n');
    return;
  }
  const cells = rows.map((row) => row.map((c) => (c == null ? '' : String(c))));
  const maxWidth = process.stdout.isTTY && process.stdout.columns ? process.stdout.columns : DEFAULT_TABLE_WIDTH;
  const colWidths = fitColumns([head, ...cells], maxWidth);
  const table = new Table({ head, style: { head: [], border: [] }, ...(colWidths ? { colWidths, wordWrap: true } : {}) });
  for (const row of cells) table.push(row);
  process.stdout.write(table.toString() + '\n');
}

/** `1249.90 CZK`: two decimals, as the API keeps money, then the currency. */
export function formatMoney(amount: number, currency: string | null | undefined): string {
  return `${amount.toFixed(2)}${currency ? ` ${currency}` : ''}`;
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

/**
 * How every command reports an error on stderr: with `json`, the API's envelope `{"message", "errors"}` on one line;
 * else `packdesk: message`, one line per field error that adds to it, and the hint.
 */
export function printError(err: CliError, json: boolean): void {
  if (json) {
    process.stderr.write(`${JSON.stringify({ message: err.message, errors: err.details ?? {} })}\n`);
    return;
  }
  process.stderr.write(`packdesk: ${err.message}\n`);
  for (const [field, messages] of Object.entries(err.details ?? {})) {
    // the API often names the field of its message with the message itself: say it once
    const more = messages.filter((m) => m !== err.message);
    if (more.length > 0) process.stderr.write(`  ${field}: ${more.join('; ')}\n`);
  }
  if (err.hint) process.stderr.write(`${err.hint}\n`);
}

/** True when the command line asks for `--json` (before any `--`): for errors found before a command runs. */
export function argvAsksForJson(args: readonly string[]): boolean {
  const end = args.indexOf('--');
  return (end === -1 ? args : args.slice(0, end)).includes('--json');
}

export function isInteractive(json?: boolean): boolean {
  return Boolean(process.stdin.isTTY && process.stdout.isTTY && !json && !process.env.CI);
}

/** Commander option parser for repeatable flags (`--event a --event b`); the option has no default, so help shows none. */
export const collect = (value: string, previous: string[] | undefined): string[] => [...(previous ?? []), value];
