import type { ComponentChildren } from 'preact';
import { hasProblemWord, problemWord, statusWord, t, type WordKey } from '../i18n';

/** A status as a coloured chip. */
export function Chip({ status, label }: { status: string; label?: string }) {
  return <span class={`chip chip-${status}`} data-status={status}>{label ?? statusWord(status)}</span>;
}

/** An input with its label and the API's messages for its field path (`recipient_contact.first_name`); `short` for a few characters. */
export function Field({ label, path, errors, short = false, children }: { label: WordKey; path: string; errors: Record<string, string[]>; short?: boolean; children: ComponentChildren }) {
  const messages = errors[path];
  return (
    <label class={['field', short && 'short', messages && 'invalid'].filter(Boolean).join(' ')} data-field={path}>
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

type PrinterLike = { status: string; status_detail: { problems?: unknown; message?: string } | null };
const problemsOf = (printer: PrinterLike) => (Array.isArray(printer.status_detail?.problems) ? (printer.status_detail!.problems as string[]) : []);

/** A printer's state as people name it: ready, paper out, head open, paused, offline. */
export function printerState(printer: PrinterLike): string {
  for (const problem of problemsOf(printer)) if (PROBLEM_STATES[problem]) return PROBLEM_STATES[problem]!;
  return printer.status;
}

/**
 * What keeps a printer from printing, in the desk's language: each problem's word, and the printer's own message where
 * it names more than a word can (an unreachable address, an unknown IPP reason); empty when it is ready.
 */
export function printerProblems(printer: PrinterLike): string {
  if (printer.status === 'ready') return '';
  const problems = problemsOf(printer);
  const words = problems.map((p) => problemWord(p));
  const told = problems.length === 0 || problems.some((p) => !hasProblemWord(p) || p === 'unreachable' || p === 'no_status_answer');
  return [words.join(', '), told ? printer.status_detail?.message ?? '' : ''].filter(Boolean).join(': ') || t(`state.${printerState(printer)}` as WordKey);
}

export function formatTime(iso: string | null | undefined): string {
  return iso ? new Date(iso).toLocaleString() : '';
}
