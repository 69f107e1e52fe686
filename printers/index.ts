import { fileURLToPath } from 'node:url';
import { hostProblem } from '../src/net/addresses.js';
import type { DriverFactory, DriverOptions, PrinterDriver, PrintFormat, StatusQuery } from './types.js';

export * from './types.js';
export { PrinterUnavailableError, PrintJobFailedError } from './errors.js';

interface Scheme {
  /** The formats a printer behind this scheme can take. */
  formats: readonly PrintFormat[];
  /** The status queries a printer behind this scheme can be set to (`none` only where asking can go unanswered). */
  statusQueries: readonly StatusQuery[];
  /** Loaded on first use, so the CLI and the API never load socket or IPP code they do not need. */
  load(): Promise<DriverFactory>;
}

const SCHEMES: Record<string, Scheme> = {
  'tcp:': { formats: ['zpl', 'epl'], statusQueries: ['auto', 'none'], load: async () => (await import('./raw-tcp.js')).rawTcpDriver },
  'ipp:': { formats: ['pdf', 'zpl', 'epl'], statusQueries: ['auto'], load: async () => (await import('./ipp.js')).ippDriver },
  'ipps:': { formats: ['pdf', 'zpl', 'epl'], statusQueries: ['auto'], load: async () => (await import('./ipp.js')).ippDriver },
  'file:': { formats: ['pdf', 'zpl', 'epl'], statusQueries: ['auto'], load: async () => (await import('./file.js')).fileDriver },
};

export const PRINTER_URI_EXAMPLES = 'tcp://192.168.1.50:9100, ipp://printer.local:631/ipp/print, ipps://…, file:///var/spool/labels';

/** Why a `file:` URI names no directory the daemon can write to; checked here, so decoding it later cannot fail. */
function fileDirectoryProblem(uri: URL): string | undefined {
  if (uri.search || uri.hash) return 'file URIs take no query or fragment (write ? as %3F and # as %23)';
  let directory: string;
  try {
    directory = fileURLToPath(uri);
  } catch (err) {
    return (err as { code?: string }).code === 'ERR_INVALID_FILE_URL_PATH'
      ? 'file URIs must not hold an encoded slash (%2F): write / between directories'
      : 'file URIs may use % only to escape UTF-8 bytes as %XX (write % itself as %25)';
  }
  if (/[\x00-\x1f\x7f]/.test(directory)) return 'file URIs must not name a directory with control characters (%00–%1F, %7F)';
  return undefined;
}

/** Checks a printer URI; answers the parsed URI, or why it is not one packdesk can print to. */
export function parsePrinterUri(text: string): { uri: URL } | { error: string } {
  let uri: URL;
  try {
    uri = new URL(text);
  } catch {
    return { error: `must be a URI such as ${PRINTER_URI_EXAMPLES}` };
  }
  if (!SCHEMES[uri.protocol]) return { error: `scheme ${uri.protocol.replace(/:$/, '')} is not supported (tcp, ipp, ipps or file)` };
  if (uri.username || uri.password) return { error: 'must not hold credentials' };
  if (uri.protocol === 'file:') {
    if (uri.hostname && uri.hostname !== 'localhost') return { error: 'file URIs name a local directory: file:///path/to/dir' };
    if (uri.pathname === '/' || uri.pathname === '') return { error: 'file URIs need a directory: file:///path/to/dir' };
    const problem = fileDirectoryProblem(uri);
    return problem ? { error: problem } : { uri };
  }
  if (!uri.hostname) return { error: 'needs a host' };
  if (hostProblem(uri.hostname)) return { error: 'must not point to a link-local or metadata address' };
  if (uri.protocol === 'tcp:' && uri.pathname !== '' && uri.pathname !== '/') return { error: 'tcp URIs are host and port only: tcp://host:9100' };
  return { uri };
}

/** The formats a printer at this URI can take (its scheme decides). */
export function formatsForScheme(uri: URL): readonly PrintFormat[] {
  return SCHEMES[uri.protocol]?.formats ?? [];
}

/** The status queries a printer at this URI can be set to (its scheme decides). */
export function statusQueriesForScheme(uri: URL): readonly StatusQuery[] {
  return SCHEMES[uri.protocol]?.statusQueries ?? [];
}

/** The driver for a printer URI (already checked by `parsePrinterUri`). */
export async function printerDriver(uri: URL, options: Omit<DriverOptions, 'uri'>): Promise<PrinterDriver> {
  const scheme = SCHEMES[uri.protocol];
  if (!scheme) throw new Error(`no printer driver for ${uri.protocol}`);
  return (await scheme.load())({ ...options, uri });
}
