import { existsSync, readFileSync, statSync } from 'node:fs';
import type { ImportRecord } from './api-types.js';
import { ApiClient, type Page } from './client.js';
import { CliError, EXIT } from './exit-codes.js';
import { printRecord } from './output.js';

export const importPath = (id: string) => `/v1/imports/${encodeURIComponent(id)}`;

/**
 * `--mapping`: a JSON file of `{"preset": …, "columns": {…}, "defaults": {…}}`, or a preset name (`default`, `shoptet` …);
 * the daemon checks it.
 */
export function readMappingFlag(value: string | undefined): unknown {
  if (value === undefined) return undefined;
  if (!existsSync(value) || !statSync(value).isFile()) return value;
  try {
    return JSON.parse(readFileSync(value, 'utf8'));
  } catch (err) {
    throw new CliError(`--mapping ${value}: not a JSON file (${(err as Error).message})`, EXIT.usage);
  }
}

/**
 * The mapping of `--preset NAME` and `--mapping`: the preset alone, the mapping alone, or the mapping file's columns and
 * defaults (the sender, say) added to the preset.
 */
export function presetAndMapping(preset: string | undefined, mapping: string | undefined): unknown {
  const given = readMappingFlag(mapping);
  if (preset === undefined) return given;
  if (given === undefined) return preset;
  if (typeof given !== 'object' || given === null || Array.isArray(given)) {
    throw new CliError(`--preset ${preset} takes --mapping as a JSON file of columns and defaults to add to it, not "${mapping}"`, EXIT.usage);
  }
  const named = (given as { preset?: unknown }).preset;
  if (named !== undefined && named !== preset) throw new CliError(`--preset ${preset}, but --mapping ${mapping} names the preset ${String(named)}`, EXIT.usage);
  return { ...given, preset };
}

/** `--channel`, or the account's only active channel. */
export async function channelOrOnlyActive(client: ApiClient, flag: string | undefined): Promise<string> {
  if (flag) return flag;
  const { body } = await client.get<Page<{ id: string }>>('/v1/shipping-channels?status=active&per_page=2');
  if (body.meta.total === 1) return body.data[0]!.id;
  throw new CliError(`--channel is required (the account has ${body.meta.total === 0 ? 'no' : body.meta.total} active shipping channels)`, EXIT.usage);
}

export function printImport(record: ImportRecord): void {
  printRecord({
    id: record.id, file: record.file_name, 'watched folder': record.watched_folder_id ?? '-', status: record.status,
    rows: record.status === 'processing' ? `${record.rows_processed} of ${record.rows} processed` : record.rows,
    'shipments created': record.created, 'refused by the carrier': record.refused_by_carrier, 'waiting for the carrier': record.awaiting_carrier,
    'invalid orders': record.invalid, queued: record.queued, 'already imported': record.orders_already_imported, 'failed rows': record.failed_rows,
    sha256: record.sha256, result: record.result_path, errors: record.errors_path, created: record.created_at, finished: record.finished_at,
  });
}
