import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, extname, join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Option, type Command } from 'commander';
import { ApiClient, type Page } from './client.js';
import { CliError, EXIT } from './exit-codes.js';
import { parseCopies } from './print-jobs.js';
import { MAPPING_PRESETS } from '../imports/mapping.js';
import { IMPORT_TARGETS } from '../imports/orders.js';
import type { ImportOrderResult, ImportRecord, ImportRowError } from './api-types.js';
import { channelOrOnlyActive, importPath, presetAndMapping, printImport } from './import-records.js';
import { printJson, printPageFooter, printTable } from './output.js';
import { action, listPath } from './run.js';

interface ImportOptions {
  channel?: string;
  format: string;
  printer?: string;
  copies?: string;
  preset?: string;
  mapping?: string;
  target?: string;
  out?: string;
  json?: boolean;
}

const POLL_MS = 200;
/** Orders listed one by one in the summary; a bigger file shows counts by status (the result file has every line). */
const LISTED_ORDERS = 30;
const LISTED_ERRORS = 20;

/** Progress on a terminal only: rows whose order is finished (its shipment created at the carrier, or failed). */
async function progressBar(fileName: string) {
  if (!process.stderr.isTTY || process.env.CI) return undefined;
  const { default: progress } = await import('cli-progress');
  const bar = new progress.SingleBar({
    format: `${fileName} [{bar}] {value}/{total} rows | {shipments} shipments | {failed} failed rows`,
    stream: process.stderr, hideCursor: true, clearOnComplete: false,
  }, progress.Presets.shades_classic);
  bar.start(1, 0, { shipments: 0, failed: 0 });
  return bar;
}

async function waitForImport(client: ApiClient, record: ImportRecord, showProgress: boolean): Promise<ImportRecord> {
  const bar = showProgress ? await progressBar(record.file_name) : undefined;
  let current = record;
  try {
    while (current.status === 'processing') {
      await sleep(POLL_MS);
      current = (await client.get<{ data: ImportRecord }>(importPath(record.id))).body.data;
      bar?.setTotal(Math.max(1, current.rows));
      bar?.update(current.rows_processed, { shipments: current.shipments_created, failed: current.failed_rows });
    }
  } finally {
    bar?.stop();
  }
  return current;
}

async function saveFile(client: ApiClient, record: ImportRecord, which: 'result' | 'errors', to: string): Promise<string> {
  const { body } = await client.requestRaw('GET', `${importPath(record.id)}/${which}?download=1`);
  writeFileSync(to, body);
  return to;
}

function printSummary(record: ImportRecord, results: ImportOrderResult[], errors: ImportRowError[], files: { result: string; errors: string | null }): void {
  const orders = results.length;
  // the import record's counts, as the desk shows them; those that are 0 are left out, but for the shipments
  const counts = [[record.refused_by_carrier, 'refused by the carrier'], [record.awaiting_carrier, 'waiting for the carrier'],
    [record.invalid, 'invalid'], [record.queued, 'queued'], [record.orders_already_imported, 'already imported']] as const;
  const told = [`${record.created} shipments created`, ...counts.filter(([n]) => n > 0).map(([n, what]) => `${n} ${what}`)];
  process.stdout.write(`${record.file_name} (${record.id}): ${record.rows} rows, ${orders} orders — ${told.join(', ')}\n`);
  if (orders > 0 && orders <= LISTED_ORDERS) {
    printTable(['reference', 'status', 'shipment', 'tracking numbers', 'error'],
      results.map((r) => [r.reference_number, r.status, r.shipment_id, r.tracking_numbers.join(' '), r.error]));
  } else if (orders > 0) {
    const byStatus = new Map<string, number>();
    for (const r of results) byStatus.set(r.status, (byStatus.get(r.status) ?? 0) + 1);
    printTable(['status', 'orders'], [...byStatus]);
  }
  for (const e of errors.slice(0, LISTED_ERRORS)) {
    process.stdout.write(`  row ${e.row}${e.reference_number ? ` (${e.reference_number})` : ''} ${e.field}${e.column ? ` [${e.column}]` : ''}: ${e.message}\n`);
  }
  if (errors.length > LISTED_ERRORS) process.stdout.write(`  … and ${errors.length - LISTED_ERRORS} more in the errors file\n`);
  process.stdout.write(`result: ${files.result}\n${files.errors ? `errors: ${files.errors}\n` : ''}`);
}

/** `packdesk import FILE` and `packdesk imports …`: the watched-folder pipeline, once, through the daemon. */
export function registerImportCommands(program: Command): void {
  program.command('import')
    .description('import an order file once (as a watched folder would): shipments, labels, a result file and an errors file')
    .argument('<file>', 'the CSV file (UTF-8 or Windows-1250/ISO-8859-2; "," ";" or tab; a header row), or an XML file of --preset pohoda or money-s3')
    .option('--channel <id>', 'shipping channel (default: the only active channel)')
    .option('--format <format>', 'label format: pdf, zpl or epl', 'pdf')
    .option('--printer <id>', 'print each label on this printer once it exists')
    .option('--copies <n>', 'label copies to print, 1-20 (default 1)')
    .addOption(new Option('--preset <name>', 'read the file as this shop\'s or ERP\'s export; a --mapping FILE adds its columns and defaults (the sender)')
      .choices(Object.keys(MAPPING_PRESETS)))
    .option('--mapping <file>', 'a JSON column mapping ({"preset": ..., "columns": {...}, "defaults": {...}}) or a preset name')
    .addOption(new Option('--target <target>', 'what its orders become: shipments at once, or orders in the queue that `packdesk orders ship` ships').choices([...IMPORT_TARGETS]))
    .option('--out <dir>', 'where to write <name>.result.csv and <name>.errors.csv (default: beside the file)')
    .option('--json', 'print {import, results, errors, result_file, errors_file} as JSON')
    .action(action(async (file: string, o: ImportOptions) => {
      if (!existsSync(file) || !statSync(file).isFile()) throw new CliError(`${file}: no such file`, EXIT.usage);
      if (!['pdf', 'zpl', 'epl'].includes(o.format)) throw new CliError('--format must be pdf, zpl or epl', EXIT.usage);
      const client = ApiClient.fromConfig();
      const { body } = await client.post<{ data: ImportRecord }>('/v1/imports', {
        file_name: basename(file), content_base64: readFileSync(file).toString('base64'),
        shipping_channel_id: await channelOrOnlyActive(client, o.channel), label_format: o.format,
        ...(o.printer ? { printer_id: o.printer } : {}), ...(o.copies !== undefined ? { copies: parseCopies(o.copies) } : {}),
        ...(o.preset !== undefined || o.mapping !== undefined ? { mapping: presetAndMapping(o.preset, o.mapping) } : {}),
        ...(o.target !== undefined ? { target: o.target } : {}),
      });
      const record = await waitForImport(client, body.data, !o.json);
      const outDir = resolve(o.out ?? dirname(file));
      const stem = basename(file, extname(file));
      const results = (await client.get<{ data: ImportOrderResult[] }>(`${importPath(record.id)}/result`)).body.data;
      const errors = record.errors_path ? (await client.get<{ data: ImportRowError[] }>(`${importPath(record.id)}/errors`)).body.data : [];
      const files = {
        result: await saveFile(client, record, 'result', join(outDir, `${stem}.result.csv`)),
        errors: record.errors_path ? await saveFile(client, record, 'errors', join(outDir, `${stem}.errors.csv`)) : null,
      };
      if (o.json) printJson({ import: record, results, errors, result_file: files.result, errors_file: files.errors });
      else printSummary(record, results, errors, files);
      const failedOrders = results.filter((r) => r.status === 'error' || r.status === 'failed').length;
      if (record.status === 'failed') throw new CliError(`no order of ${record.file_name} could be imported; see ${files.errors ?? files.result}`, EXIT.failure);
      if (failedOrders > 0) throw new CliError(`${failedOrders} of ${results.length} orders failed; see ${files.errors ?? files.result}`, EXIT.failure);
    }));

  const imports = program.command('imports').description('imports: one per order file, from watched folders and `packdesk import`');

  imports.command('list')
    .description('list imports, newest first')
    .option('--folder <id>', 'only this watched folder (wf_…)')
    .option('--status <status>', 'only processing, done or failed ones')
    .option('--page <n>', 'page number')
    .option('--per-page <n>', 'imports per page (1-100)')
    .option('--json', 'print the whole API answer ({data, meta, links})')
    .action(action(async (o: { folder?: string; status?: string; page?: string; perPage?: string; json?: boolean }) => {
      const { body } = await ApiClient.fromConfig().get<Page<ImportRecord>>(listPath('/v1/imports', { watched_folder_id: o.folder, status: o.status }, o));
      if (o.json) {
        printJson(body);
        return;
      }
      printTable(
        ['id', 'file', 'folder', 'status', 'rows', 'created', 'refused', 'invalid', 'queued', 'already', 'started'],
        body.data.map((i) => [i.id, i.file_name, i.watched_folder_id ?? '-', i.status, i.rows, i.created, i.refused_by_carrier, i.invalid, i.queued, i.orders_already_imported, i.created_at]),
      );
      printPageFooter(body.meta);
    }));

  imports.command('show')
    .description('show one import: progress, figures and where its result and errors files are')
    .argument('<id>', 'import id (imp_…)')
    .option('--json', 'print JSON')
    .action(action(async (id: string, o: { json?: boolean }) => {
      const { body } = await ApiClient.fromConfig().get<{ data: ImportRecord }>(importPath(id));
      if (o.json) printJson(body.data);
      else printImport(body.data);
    }));
}
