import { PNG } from 'pngjs';
import type { LabelDpi } from '../domain/labels.js';
import { thresholdGray, type Bitmap } from './bitmap.js';
import { eplLabels } from './epl.js';
import { eplToZpl } from './epl-zpl.js';
import { LabelFormatError } from './errors.js';
import { dotsPerMm } from './resolution.js';
import { zplLabels } from './zpl.js';

/** ZPL and EPL labels as pixels, rendered offline by zebrash compiled to WebAssembly (zpl-renderer-js, MIT). */

const LABEL_MM = { width: 101.6, height: 152.4 }; // 4×6 in

type ZplApi = Awaited<typeof import('zpl-renderer-js')['ready']>['api'];
let api: Promise<ZplApi> | undefined;

function zebrash(): Promise<ZplApi> {
  // loaded only on first use: loading instantiates a 7 MB Go WebAssembly module
  api ??= import('zpl-renderer-js').then((loaded) => ('default' in loaded ? loaded.default as typeof loaded : loaded).ready).then((r) => r.api);
  return api;
}

/**
 * The `^XA…^XZ` labels of a ZPL stream, or of an EPL stream translated label by label, as the text zebrash reads:
 * the Go renderer takes UTF-8 strings, and ZPL's ^CI28 labels are UTF-8, older ones plain ASCII.
 */
function zplBlocks(format: 'zpl' | 'epl', content: Uint8Array): string[] {
  const blocks = format === 'zpl' ? zplLabels(content).map((label) => label.toString('utf8')) : eplLabels(content).map(eplToZpl);
  if (blocks.length === 0) throw new LabelFormatError(null, format === 'zpl' ? 'is not ZPL (no ^XA…^XZ label)' : 'is not EPL (no N…P label)');
  return blocks;
}

/** One PNG per thermal label, as the printer would print it at `dpi`. */
export async function renderThermalPngs(format: 'zpl' | 'epl', content: Uint8Array, dpi: LabelDpi): Promise<Buffer[]> {
  const render = await zebrash();
  const pngs: Buffer[] = [];
  for (const block of zplBlocks(format, content)) {
    pngs.push(Buffer.from(await render.zplToBase64Async(block, LABEL_MM.width, LABEL_MM.height, dotsPerMm(dpi)), 'base64'));
  }
  return pngs;
}

/** One bitmap per thermal label, black where the rendered dot is dark. */
export async function thermalToLabelBitmaps(format: 'zpl' | 'epl', content: Uint8Array, dpi: LabelDpi): Promise<Bitmap[]> {
  return (await renderThermalPngs(format, content, dpi)).map((png) => {
    const image = PNG.sync.read(png);
    const gray = new Uint8Array(image.width * image.height);
    for (let i = 0; i < gray.length; i++) {
      const alpha = image.data[i * 4 + 3]!;
      // transparent is paper; otherwise the green channel is close enough to luma for black on white
      gray[i] = alpha < 128 ? 255 : image.data[i * 4 + 1]!;
    }
    return thresholdGray(gray, image.width, image.height);
  });
}
