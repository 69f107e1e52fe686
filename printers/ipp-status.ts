import type { PrinterStatus } from './types.js';

/**
 * printer-state-reasons that keep a printer from printing (RFC 8011 §5.4.12, PWG 5100.9). A reason with a
 * `-warning` or `-report` suffix is informational; without a suffix or with `-error` it blocks.
 */
const BLOCKING_REASONS = new Set([
  'paused', 'media-empty', 'media-needed', 'media-jam', 'cover-open', 'door-open', 'interlock-open', 'input-tray-missing',
  'output-tray-missing', 'output-area-full', 'marker-supply-empty', 'toner-empty', 'offline', 'shutdown', 'spool-area-full',
  'stopped-partly', 'stopping', 'timed-out', 'connecting-to-device-error',
]);

const PRINTER_STATES: Record<number, string> = { 3: 'idle', 4: 'processing', 5: 'stopped' };

function asList(value: unknown): string[] {
  if (value === undefined || value === null) return [];
  return (Array.isArray(value) ? value : [value]).map(String);
}

/** Get-Printer-Attributes → our status: `stopped`, not accepting jobs, or a blocking reason make it not ready. */
export function ippPrinterStatus(attributes: Record<string, unknown>): PrinterStatus {
  const raw = attributes['printer-state'];
  const state = typeof raw === 'number' ? (PRINTER_STATES[raw] ?? String(raw)) : String(raw ?? 'unknown');
  const reasons = asList(attributes['printer-state-reasons']).filter((r) => r !== 'none');
  const accepting = attributes['printer-is-accepting-jobs'] !== false;
  const message = typeof attributes['printer-state-message'] === 'string' ? attributes['printer-state-message'] : '';
  const problems: string[] = [];
  if (state === 'stopped') problems.push('stopped');
  if (!accepting) problems.push('not-accepting-jobs');
  for (const reason of reasons) {
    if (/-(warning|report)$/.test(reason)) continue;
    const base = reason.replace(/-error$/, '');
    if (BLOCKING_REASONS.has(base) && !problems.includes(base)) problems.push(base);
  }
  const detail = { protocol: 'ipp', printer_state: state, printer_state_reasons: reasons, printer_is_accepting_jobs: accepting, printer_state_message: message || null };
  if (problems.length === 0) return { state: 'ready', reachable: true, problems, message: message || state, detail };
  return { state: 'offline', reachable: true, problems, message: [problems.join(', '), message].filter(Boolean).join(': '), detail };
}
