import { resolve } from 'node:path';
import { Option, type Command } from 'commander';
import { IMPORT_TARGETS } from '../imports/orders.js';
import type { ImportRecord, WatchedFolder } from './api-types.js';
import { ApiClient, moveToDaemonStation, type Page } from './client.js';
import { CliError, EXIT } from './exit-codes.js';
import { channelOrOnlyActive, readMappingFlag } from './import-records.js';
import { printJson, printPageFooter, printRecord, printTable } from './output.js';
import { action, listPath } from './run.js';

const folderPath = (id: string) => `/v1/watched-folders/${encodeURIComponent(id)}`;

function describeMapping(mapping: WatchedFolder['mapping']): string {
  if (mapping === null) return 'default';
  if (typeof mapping === 'string') return mapping;
  const columns = Object.keys((mapping.columns as Record<string, string> | undefined) ?? {}).length;
  const defaults = Object.keys((mapping.defaults as Record<string, unknown> | undefined) ?? {}).length;
  const added = `${columns} column${columns === 1 ? '' : 's'} mapped, ${defaults} default${defaults === 1 ? '' : 's'}`;
  return typeof mapping.preset === 'string' ? `${mapping.preset}, with ${added}` : added;
}

function printFolder(folder: WatchedFolder, recent: ImportRecord[] = []): void {
  printRecord({
    id: folder.id, station: folder.station ?? 'any', path: folder.path, status: folder.status, channel: folder.shipping_channel_id, 'label format': folder.label_format,
    printer: folder.printer_id ?? 'none (labels are not printed)', mapping: describeMapping(folder.mapping), target: folder.target,
    'drop files into': folder.folders.in, 'results in': folder.folders.out, created: folder.created_at, updated: folder.updated_at,
  });
  if (recent.length === 0) return;
  process.stdout.write('\nrecent imports:\n');
  printTable(
    ['id', 'file', 'status', 'rows', 'created', 'refused', 'invalid', 'queued', 'already', 'started'],
    recent.map((i) => [i.id, i.file_name, i.status, i.rows, i.created, i.refused_by_carrier, i.invalid, i.queued, i.orders_already_imported, i.created_at]),
  );
}

interface AddOptions {
  channel?: string;
  format: string;
  printer?: string;
  mapping?: string;
  target?: string;
  paused?: boolean;
  json?: boolean;
}

async function setStatus(id: string, status: 'active' | 'paused', json?: boolean): Promise<void> {
  const { body } = await ApiClient.fromConfig().patch<{ data: WatchedFolder }>(folderPath(id), { status });
  if (json) printJson(body.data);
  else process.stdout.write(status === 'paused' ? `paused ${id}: files wait in ${body.data.folders.in}\n` : `resumed ${id}: watching ${body.data.folders.in}\n`);
}

/** `packdesk watch …`: folders the daemon watches for ERP order files (SPEC §7). */
export function registerWatchCommands(program: Command): void {
  const watch = program.command('watch').description('watched folders: ERP systems drop order CSV files into <folder>/in, results appear in <folder>/out');

  watch.command('add')
    .description('watch a folder (creates in/, processing/, done/, failed/ and out/ in it)')
    .argument('<path>', 'the folder, on the daemon machine (a relative path is taken from the current directory)')
    .option('--channel <id>', 'shipping channel of its shipments (default: the only active channel)')
    .option('--format <format>', 'label format: pdf, zpl or epl', 'pdf')
    .option('--printer <id>', 'print each label on this printer once it exists')
    .option('--mapping <file>', 'a JSON column mapping ({"columns": {...}, "defaults": {...}}) or a preset name')
    .addOption(new Option('--target <target>', 'what its orders become: shipments at once, or orders in the queue that `packdesk orders ship` ships').choices([...IMPORT_TARGETS]))
    .option('--paused', 'add it paused (takes no files until resumed)')
    .option('--json', 'print JSON')
    .action(action(async (path: string, o: AddOptions) => {
      const client = ApiClient.fromConfig();
      if (!['pdf', 'zpl', 'epl'].includes(o.format)) throw new CliError('--format must be pdf, zpl or epl', EXIT.usage);
      const { body } = await client.post<{ data: WatchedFolder }>('/v1/watched-folders', {
        path: resolve(path), shipping_channel_id: await channelOrOnlyActive(client, o.channel), label_format: o.format,
        ...(o.printer ? { printer_id: o.printer } : {}), ...(o.mapping !== undefined ? { mapping: readMappingFlag(o.mapping) } : {}),
        ...(o.target !== undefined ? { target: o.target } : {}), ...(o.paused ? { status: 'paused' } : {}),
      });
      if (o.json) printJson(body.data);
      else printFolder(body.data);
    }));

  watch.command('list')
    .description('list watched folders')
    .option('--status <status>', 'only active or paused ones')
    .option('--page <n>', 'page number')
    .option('--per-page <n>', 'folders per page (1-100)')
    .option('--json', 'print the whole API answer ({data, meta, links})')
    .action(action(async (o: { status?: string; page?: string; perPage?: string; json?: boolean }) => {
      const { body } = await ApiClient.fromConfig().get<Page<WatchedFolder>>(listPath('/v1/watched-folders', { status: o.status }, o));
      if (o.json) {
        printJson(body);
        return;
      }
      printTable(
        ['id', 'station', 'path', 'status', 'channel', 'format', 'printer'],
        body.data.map((f) => [f.id, f.station ?? 'any', f.path, f.status, f.shipping_channel_id, f.label_format, f.printer_id ?? '-']),
      );
      printPageFooter(body.meta);
    }));

  watch.command('show')
    .description('show a watched folder and its latest imports')
    .argument('<id>', 'watched folder id (wf_…)')
    .option('--json', 'print JSON (the folder, with "imports": its latest imports)')
    .action(action(async (id: string, o: { json?: boolean }) => {
      const client = ApiClient.fromConfig();
      const { body } = await client.get<{ data: WatchedFolder }>(folderPath(id));
      const recent = (await client.get<Page<ImportRecord>>(`/v1/imports?watched_folder_id=${encodeURIComponent(id)}&per_page=10`)).body.data;
      if (o.json) printJson({ ...body.data, imports: recent });
      else printFolder(body.data, recent);
    }));

  watch.command('pause')
    .description('stop taking files from the folder (files dropped meanwhile wait in in/)')
    .argument('<id>', 'watched folder id (wf_…)')
    .option('--json', 'print JSON')
    .action(action(async (id: string, o: { json?: boolean }) => setStatus(id, 'paused', o.json)));

  watch.command('resume')
    .description('take files from the folder again, those that waited first')
    .argument('<id>', 'watched folder id (wf_…)')
    .option('--json', 'print JSON')
    .action(action(async (id: string, o: { json?: boolean }) => setStatus(id, 'active', o.json)));

  watch.command('move')
    .description("make a watched folder this station's: the daemon this command talks to watches it from now on (its path checked here)")
    .argument('<id>', 'watched folder id (wf_…)')
    .option('--json', 'print JSON')
    .action(action(async (id: string, o: { json?: boolean }) => {
      const { station, data } = await moveToDaemonStation<WatchedFolder>(folderPath(id));
      if (o.json) printJson(data);
      else process.stdout.write(`station ${station} watches ${data.folders.in} now\n`);
    }));

  watch.command('remove')
    .description('stop watching a folder (the folder and its files stay)')
    .argument('<id>', 'watched folder id (wf_…)')
    .option('--json', 'print JSON')
    .action(action(async (id: string, o: { json?: boolean }) => {
      await ApiClient.fromConfig().delete(folderPath(id));
      if (o.json) printJson({ id, removed: true });
      else process.stdout.write(`stopped watching ${id}; the folder and its files stay\n`);
    }));
}
