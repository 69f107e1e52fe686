import { writeFileSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import type { LabelFormat } from './api-types.js';
import type { ApiClient } from './client.js';
import { CliError, EXIT } from './exit-codes.js';
import { shipmentPath } from './shipment-records.js';

/** What `saveLabel` wrote. */
export interface SavedLabel {
  path: string;
  format: LabelFormat;
  pages: number;
  size: number;
}

const FORMAT_OF_MIME: Record<string, LabelFormat> = { 'application/pdf': 'pdf', 'application/zpl': 'zpl', 'application/epl': 'epl' };

/** The file name of a `Content-Disposition: attachment; filename="…"` header, without any directory part. */
function dispositionFileName(header: string | null): string | undefined {
  const match = /filename\*=UTF-8''([^";]+)/i.exec(header ?? '') ?? /filename="?([^";]+)"?/i.exec(header ?? '');
  if (!match) return undefined;
  const name = basename(decodeURIComponent(match[1]!.trim()));
  return name && name !== '.' && name !== '..' ? name : undefined;
}

/** Pages in a label file, counted the way the daemon counts them when it merges labels. */
async function countPages(format: LabelFormat, content: Buffer): Promise<number> {
  const { mergeLabels } = await import('../labels/index.js');
  try {
    return (await mergeLabels(format, [content])).pages;
  } catch {
    return 0;
  }
}

/**
 * Downloads the raw merged label of a shipment into `out` (default: the daemon's file name, `<reference or id>.<ext>`,
 * in the current directory).
 */
export async function saveLabel(client: ApiClient, id: string, options: { out?: string; a4?: boolean } = {}): Promise<SavedLabel> {
  const query = new URLSearchParams({ download: '1', ...(options.a4 ? { layout: 'a4' } : {}) });
  const res = await client.requestRaw('GET', `${shipmentPath(id)}/label?${query}`);
  const fileName = dispositionFileName(res.headers.get('content-disposition'));
  const mime = (res.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  const format = FORMAT_OF_MIME[mime] ?? (fileName?.split('.').pop()?.toLowerCase() as LabelFormat | undefined);
  if (format !== 'pdf' && format !== 'zpl' && format !== 'epl') {
    throw new CliError(`the daemon answered a label of an unknown type (${mime || 'no content type'})`, EXIT.failure);
  }
  const path = resolve(options.out ?? fileName ?? `${id}.${format}`);
  try {
    writeFileSync(path, res.body);
  } catch (err) {
    throw new CliError(`cannot write the label to ${path}: ${(err as Error).message}`, EXIT.failure);
  }
  return { path, format, pages: await countPages(format, res.body), size: res.body.length };
}

export function describeSize(bytes: number): string {
  return bytes < 1024 ? `${bytes} B` : `${(bytes / 1024).toFixed(1)} KiB`;
}
