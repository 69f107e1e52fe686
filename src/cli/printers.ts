import { Option, type Command } from 'commander';
import { ApiClient, moveToDaemonStation, type Page } from './client.js';
import { CliError, EXIT } from './exit-codes.js';
import { collect, printJson, printPageFooter, printRecord, printTable } from './output.js';
import type { Printer, PrintJob } from './api-types.js';
import { describePrintJob, failIfAnyFailed, parsePrintWait, waitForPrintJobs } from './print-jobs.js';
import { action, listPath } from './run.js';

const FORMATS = ['zpl', 'epl', 'pdf'];
const statusQueryOption = () => new Option('--status-query <mode>', "auto: ask a tcp:// ZPL printer Zebra's ~HS (paper out, head open) before and after each job; "
  + 'none: a tcp:// printer that never answers ~HS (non-Zebra, print server) is only connected to').choices(['auto', 'none']);
export const printerPath = (id: string) => `/v1/printers/${encodeURIComponent(id)}`;

/** `--format zpl --format epl` or `--format zpl,epl`. */
function parseFormats(values: string[] = []): string[] {
  const formats = [...new Set(values.flatMap((v) => v.split(',')).map((v) => v.trim().toLowerCase()).filter(Boolean))];
  const unknown = formats.filter((f) => !FORMATS.includes(f));
  if (unknown.length) throw new CliError(`--format must be zpl, epl or pdf (not ${unknown.join(', ')})`, EXIT.usage);
  return formats;
}

/** "ready", or "offline: paper out" — what the printer said last. */
export function describePrinterStatus(p: Printer): string {
  const message = p.status_detail?.message;
  if (p.status === 'ready') return 'ready';
  return message ? `${p.status}: ${message}` : p.status;
}

function printPrinter(p: Printer): void {
  const detail = p.status_detail ?? { reachable: false, problems: [], message: '' };
  const { reachable: _r, problems, message: _m, protocol, ...facts } = detail;
  printRecord({
    id: p.id, name: p.name, station: p.station ?? 'any', uri: p.uri, formats: p.formats.join(', '), dpi: p.dpi, 'default for': p.default_for.join(', ') || '-',
    status: describePrinterStatus(p), 'status query': p.status_query, ...(problems.length ? { problems: problems.join(', ') } : {}),
    ...(protocol ? { 'status from': String(protocol) } : {}),
    ...Object.fromEntries(Object.entries(facts).map(([k, v]) => [k.replace(/_/g, ' '), typeof v === 'boolean' ? (v ? 'yes' : 'no') : v])),
    'last seen': p.last_seen_at ?? 'never', created: p.created_at, updated: p.updated_at,
  });
}

interface AddOptions {
  name?: string;
  uri?: string;
  format?: string[];
  dpi?: string;
  default?: boolean;
  statusQuery?: 'auto' | 'none';
  json?: boolean;
}

function parseDpi(dpi: string): number {
  if (dpi !== '203' && dpi !== '300') throw new CliError('--dpi must be 203 or 300', EXIT.usage);
  return Number(dpi);
}

/** `packdesk printers …`: label printers (raw socket, IPP, file) over the daemon's API. */
export function registerPrinterCommands(program: Command): void {
  const printers = program.command('printers').description('printers: Zebra and thermal printers over raw sockets, IPP printers, folders');

  printers.command('add')
    .description('add a printer (its status is checked at once)')
    .requiredOption('--name <name>', 'printer name, unique in the account')
    .requiredOption('--uri <uri>', 'tcp://host:9100 (ZPL/EPL), ipp://host:631/ipp/print or ipps://… (PDF, or ZPL to a CUPS raw queue), file:///dir')
    .option('--format <format>', 'a format it takes: zpl, epl or pdf; repeat or separate with commas', collect)
    .option('--dpi <dpi>', 'print head resolution, 203 or 300: labels packdesk converts for it are drawn at it', '203')
    .option('--default', 'make it the default printer for its formats')
    .addOption(statusQueryOption().default('auto'))
    .option('--json', 'print JSON')
    .action(action(async (o: AddOptions) => {
      const formats = parseFormats(o.format);
      if (formats.length === 0) throw new CliError('give at least one --format (zpl, epl or pdf)', EXIT.usage);
      const { body } = await ApiClient.fromConfig().post<{ data: Printer }>('/v1/printers', {
        name: o.name, uri: o.uri, formats, dpi: parseDpi(o.dpi ?? '203'), status_query: o.statusQuery, ...(o.default ? { default_for: formats } : {}),
      });
      if (o.json) printJson(body.data);
      else printPrinter(body.data);
    }));

  printers.command('update')
    .description('change a printer: its name, URI, formats, dpi, or whether it is asked its status (its status is checked again when that changes)')
    .argument('<id>', 'printer id (prn_…)')
    .option('--name <name>', 'printer name, unique in the account')
    .option('--uri <uri>', 'tcp://host:9100, ipp://…, ipps://… or file:///dir')
    .option('--format <format>', 'the formats it takes (all of them): zpl, epl or pdf; repeat or separate with commas', collect)
    .option('--dpi <dpi>', 'print head resolution, 203 or 300')
    .addOption(statusQueryOption())
    .option('--json', 'print JSON')
    .action(action(async (id: string, o: Omit<AddOptions, 'default'>) => {
      const formats = parseFormats(o.format);
      const patch = {
        ...(o.name !== undefined ? { name: o.name } : {}), ...(o.uri !== undefined ? { uri: o.uri } : {}), ...(formats.length ? { formats } : {}),
        ...(o.dpi !== undefined ? { dpi: parseDpi(o.dpi) } : {}), ...(o.statusQuery ? { status_query: o.statusQuery } : {}),
      };
      if (Object.keys(patch).length === 0) throw new CliError('give what to change: --name, --uri, --format, --dpi or --status-query', EXIT.usage);
      const { body } = await ApiClient.fromConfig().patch<{ data: Printer }>(printerPath(id), patch);
      if (o.json) printJson(body.data);
      else printPrinter(body.data);
    }));

  printers.command('list')
    .description('list printers with their status as last seen')
    .option('--format <format>', 'only printers that take this format')
    .option('--page <n>', 'page number')
    .option('--per-page <n>', 'printers per page (1-100)')
    .option('--json', 'print the whole API answer ({data, meta, links})')
    .action(action(async (o: { format?: string; page?: string; perPage?: string; json?: boolean }) => {
      const { body } = await ApiClient.fromConfig().get<Page<Printer>>(listPath('/v1/printers', { format: o.format ? parseFormats([o.format])[0]! : undefined }, o));
      if (o.json) {
        printJson(body);
        return;
      }
      printTable(
        ['id', 'name', 'station', 'uri', 'formats', 'default for', 'status', 'status query', 'last seen'],
        body.data.map((p) => [
          p.id, p.name, p.station ?? 'any', p.uri, p.formats.join(','), p.default_for.join(',') || '-', describePrinterStatus(p), p.status_query, p.last_seen_at ?? 'never',
        ]),
      );
      printPageFooter(body.meta);
    }));

  printers.command('show')
    .description('ask a printer for its status now (paper out, head open, paused; IPP state and reasons) and show it')
    .argument('<id>', 'printer id (prn_…)')
    .option('--cached', 'the status as last seen, without asking the printer')
    .option('--json', 'print JSON')
    .action(action(async (id: string, o: { cached?: boolean; json?: boolean }) => {
      const { body } = await ApiClient.fromConfig().get<{ data: Printer }>(`${printerPath(id)}${o.cached ? '?refresh=false' : ''}`);
      if (o.json) printJson(body.data);
      else printPrinter(body.data);
    }));

  printers.command('move')
    .description("make a printer this station's: the daemon this command talks to prints its jobs from now on (checking its URI here)")
    .argument('<id>', 'printer id (prn_…)')
    .option('--json', 'print JSON')
    .action(action(async (id: string, o: { json?: boolean }) => {
      const { station, data } = await moveToDaemonStation<Printer>(printerPath(id));
      if (o.json) printJson(data);
      else process.stdout.write(`${id} (${data.name}) is printed to by station ${station} now\n`);
    }));

  printers.command('test')
    .description("print a test label (a barcode and the station's name) in each format the printer takes")
    .argument('<id>', 'printer id (prn_…)')
    .option('--format <format>', 'only this format; repeat for more', collect)
    .option('--wait <seconds>', 'wait up to this many seconds for the labels to print', '10')
    .option('--json', 'print the print jobs as JSON')
    .action(action(async (id: string, o: { format?: string[]; wait: string; json?: boolean }) => {
      const wait = parsePrintWait(o.wait);
      const formats = parseFormats(o.format);
      const client = ApiClient.fromConfig();
      const { body } = await client.post<{ data: PrintJob[] }>(`${printerPath(id)}/test`, formats.length ? { formats } : undefined);
      const jobs = await waitForPrintJobs(client, body.data, wait);
      if (o.json) printJson(jobs);
      else for (const job of jobs) process.stdout.write(`${describePrintJob(job)}\n`);
      failIfAnyFailed(jobs);
    }));

  printers.command('default')
    .description('make a printer the default for its formats (or only those given)')
    .argument('<id>', 'printer id (prn_…)')
    .option('--format <format>', 'only this format; repeat for more', collect)
    .option('--json', 'print JSON')
    .action(action(async (id: string, o: { format?: string[]; json?: boolean }) => {
      const client = ApiClient.fromConfig();
      const { body: current } = await client.get<{ data: Printer }>(`${printerPath(id)}?refresh=false`);
      const asked = parseFormats(o.format);
      const formats = asked.length ? asked : current.data.formats;
      const { body } = await client.patch<{ data: Printer }>(printerPath(id), { default_for: [...new Set([...current.data.default_for, ...formats])] });
      if (o.json) printJson(body.data);
      else process.stdout.write(`${body.data.name} (${body.data.id}) is the default printer for ${body.data.default_for.join(', ')}\n`);
    }));

  printers.command('remove')
    .description('remove a printer (its queued print jobs are dropped)')
    .argument('<id>', 'printer id (prn_…)')
    .option('--json', 'print JSON')
    .action(action(async (id: string, o: { json?: boolean }) => {
      await ApiClient.fromConfig().delete(printerPath(id));
      if (o.json) printJson({ id, deleted: true });
      else process.stdout.write(`removed ${id}\n`);
    }));
}
