import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { LabelPictures } from './api-types.js';
import type { ApiClient } from './client.js';
import { CliError, EXIT } from './exit-codes.js';
import { detectImageProtocol, encodeTerminalImage } from './terminal-image.js';

export interface PreviewResult {
  shown: 'terminal' | 'files';
  images: Array<{ parcel: number; path?: string }>;
}

/**
 * Pictures of a shipment's parcel labels: drawn in the terminal where it shows images (kitty, iTerm2, sixel), else
 * written as `<reference or id>-<parcel>.png` into `dir` (default: the current directory).
 */
export async function previewShipmentLabel(
  client: ApiClient, id: string, options: { parcel?: number; dir?: string; files?: boolean },
  out: { write(text: string): unknown; isTTY?: boolean } = process.stdout,
): Promise<PreviewResult> {
  const query = new URLSearchParams({ format: 'png', ...(options.parcel ? { parcel: String(options.parcel) } : {}) });
  const { body: { data } } = await client.get<{ data: LabelPictures }>(`/v1/shipments/${encodeURIComponent(id)}/label?${query}`);
  const protocol = options.files ? null : detectImageProtocol(process.env, out.isTTY === true);
  const source = data.source === 'carrier' ? 'the carrier\'s own' : 'converted by packdesk';
  if (protocol) {
    for (const image of data.images) {
      out.write(`parcel ${image.parcel} of ${data.shipment_id} (${data.label_format.toUpperCase()}, ${source})\n`);
      // a 203-dpi label (812 dots) keeps every dot in sixel; a 300-dpi one is halved
      out.write(encodeTerminalImage(Buffer.from(image.content, 'base64'), protocol, { maxWidthPx: 1000 }));
    }
    return { shown: 'terminal', images: data.images.map(({ parcel }) => ({ parcel })) };
  }
  const dir = resolve(options.dir ?? '.');
  try {
    mkdirSync(dir, { recursive: true });
    const images = data.images.map(({ parcel, file_name: fileName, content }) => {
      const path = join(dir, fileName);
      writeFileSync(path, Buffer.from(content, 'base64'));
      return { parcel, path };
    });
    return { shown: 'files', images };
  } catch (err) {
    throw new CliError(`cannot write the label pictures to ${dir}: ${(err as Error).message}`, EXIT.failure);
  }
}
