import type { ComponentChildren } from 'preact';
import { statusWord, t, type WordKey } from '../i18n';

/** A status as a coloured chip. */
export function Chip({ status, label }: { status: string; label?: string }) {
  return <span class={`chip chip-${status}`} data-status={status}>{label ?? statusWord(status)}</span>;
}

/** An input with its label and the API's messages for its field path (`recipient_contact.first_name`). */
export function Field({ label, path, errors, children }: { label: WordKey; path: string; errors: Record<string, string[]>; children: ComponentChildren }) {
  const messages = errors[path];
  return (
    <label class={messages ? 'field invalid' : 'field'} data-field={path}>
      <span>{t(label)}</span>
      {children}
      {messages && <small class="error" id={`error-${path}`}>{messages.join('; ')}</small>}
    </label>
  );
}

/** Problems a Zebra (~HS) or an IPP printer (printer-state-reasons) reports, as the state people name. */
const PROBLEM_STATES: Record<string, string> = {
  paper_out: 'paper_out', 'media-empty': 'paper_out', 'media-needed': 'paper_out',
  head_open: 'head_open', 'cover-open': 'head_open', 'door-open': 'head_open', paused: 'paused',
};

/** A printer's state as people name it: ready, paper out, head open, paused, offline. */
export function printerState(printer: { status: string; status_detail: { problems?: unknown } | null }): string {
  const problems = Array.isArray(printer.status_detail?.problems) ? (printer.status_detail!.problems as string[]) : [];
  for (const problem of problems) if (PROBLEM_STATES[problem]) return PROBLEM_STATES[problem]!;
  return printer.status;
}

export function formatTime(iso: string | null | undefined): string {
  return iso ? new Date(iso).toLocaleString() : '';
}
