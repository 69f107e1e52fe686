/** One interface, one driver per URI scheme: `tcp:` raw socket, `ipp:`/`ipps:` IPP, `file:` a directory. */

export type PrintFormat = 'pdf' | 'zpl' | 'epl';
export const PRINT_FORMATS: readonly PrintFormat[] = ['pdf', 'zpl', 'epl'];

/** `auto`: ask the printer its status as its protocol allows (Zebra `~HS`, IPP attributes); `none`: only connect to it. */
export type StatusQuery = 'auto' | 'none';
export const STATUS_QUERIES: readonly StatusQuery[] = ['auto', 'none'];

/** What a printer said when last asked. */
export interface PrinterStatus {
  /** `ready`: takes jobs now; `offline`: unreachable, or reachable but unable to print (paper out, paused, stopped …). */
  state: 'ready' | 'offline' | 'unknown';
  reachable: boolean;
  /** Why it cannot print, as keywords: `paper_out`, `head_open`, `paused`, `media-empty`, `stopped` … (empty when ready). */
  problems: string[];
  /** One line for people. */
  message: string;
  /** What the driver read: Zebra host status flags, IPP printer-state and printer-state-reasons … */
  detail: Record<string, unknown>;
}

/** Page size asked of an IPP printer for a PDF: the 10×15 cm label, or an A4 sheet for the office layout. */
export type PrintMedia = 'label_100x150mm' | 'iso_a4';

export interface PrintDocument {
  /** Our print job id: it names the job at the printer, so a restarted daemon can find what it already sent. */
  jobId: string;
  format: PrintFormat;
  content: Buffer;
  copies: number;
  media: PrintMedia;
  /** True when an earlier attempt may have reached the printer (the daemon died, or an answer was lost). */
  resumed: boolean;
}

/** `printed`: the printer has the whole job; `submitted`: an IPP printer accepted it but has not finished yet. */
export type PrintOutcome =
  | { state: 'printed'; status: PrinterStatus }
  | { state: 'submitted'; status: PrinterStatus; message: string };

export interface PrinterDriver {
  /** The URI scheme family: `tcp`, `ipp` or `file`. */
  readonly name: string;
  status(): Promise<PrinterStatus>;
  print(document: PrintDocument): Promise<PrintOutcome>;
}

export interface DriverOptions {
  uri: URL;
  /** The formats the printer takes (a raw socket printer that takes ZPL answers Zebra's `~HS`). */
  formats: readonly PrintFormat[];
  /** `none`: a raw socket printer that never answers `~HS` is only connected to (default `auto`). */
  statusQuery?: StatusQuery;
  /** Time limit of one exchange with the printer. */
  timeoutMs: number;
  /** IPP: how long to wait for an accepted job to finish before leaving it to a later check. */
  completionWaitMs?: number;
}

export type DriverFactory = (options: DriverOptions) => PrinterDriver;

/** The problem of a raw printer that took the connection but did not answer `~HS` (not a Zebra, or a print server). */
export const NO_STATUS_ANSWER = 'no_status_answer';

export function readyStatus(message: string, detail: Record<string, unknown> = {}): PrinterStatus {
  return { state: 'ready', reachable: true, problems: [], message, detail };
}

export function unreachableStatus(message: string, detail: Record<string, unknown> = {}): PrinterStatus {
  return { state: 'offline', reachable: false, problems: ['unreachable'], message, detail };
}
