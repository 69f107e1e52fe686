import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { PNG } from 'pngjs';
import { prepareZXingModule, readBarcodes, type ReadResult } from 'zxing-wasm/reader';

const run = promisify(execFile);
const requireFromHere = createRequire(import.meta.url);
/** zbarimg's exit status when an image holds no barcode. */
const ZBAR_NOTHING_FOUND = 4;

/** Renders every page with `pdftoppm` and scans it with `zbarimg`: one array of decoded texts per page. */
export async function decodePdfBarcodes(pdf: Uint8Array, dpi = 150): Promise<string[][]> {
  const dir = await mkdtemp(join(tmpdir(), 'packdesk-barcodes-'));
  try {
    await writeFile(join(dir, 'label.pdf'), pdf);
    await run('pdftoppm', ['-r', String(dpi), '-png', join(dir, 'label.pdf'), join(dir, 'page')]);
    // pdftoppm pads page numbers to the page count's width (page-1.png or page-01.png)
    const pageImages = (await readdir(dir))
      .map((name) => ({ name, page: Number(/^page-(\d+)\.png$/.exec(name)?.[1]) }))
      .filter(({ page }) => Number.isInteger(page))
      .sort((a, b) => a.page - b.page);
    return await Promise.all(pageImages.map(({ name }) => scanImageWithZbar(join(dir, name))));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function scanImageWithZbar(imagePath: string): Promise<string[]> {
  try {
    const { stdout } = await run('zbarimg', ['--raw', '-q', imagePath]);
    return stdout.split('\n').filter((line) => line !== '');
  } catch (error) {
    if ((error as { code?: unknown }).code === ZBAR_NOTHING_FOUND) return [];
    throw error;
  }
}

const ZPL_LABEL_MM = { width: 101.6, height: 152.4 }; // 4×6 in
const ZPL_DOTS_PER_MM = 8; // 203 dpi

/** Renders each `^XA…^XZ` label offline and reads its barcodes top to bottom: one array per label. */
export async function decodeZplBarcodes(zpl: string): Promise<string[][]> {
  // required lazily and as CommonJS: the renderer instantiates a 7 MB Go wasm at load time, and vite would otherwise transform its 9 MB ESM build
  const { ready } = requireFromHere('zpl-renderer-js') as typeof import('zpl-renderer-js');
  const { api } = await ready;
  const labels = zpl.match(/\^XA[\s\S]*?\^XZ/gi) ?? [];
  const decoded: string[][] = [];
  for (const label of labels) {
    const png = PNG.sync.read(Buffer.from(await api.zplToBase64Async(label, ZPL_LABEL_MM.width, ZPL_LABEL_MM.height, ZPL_DOTS_PER_MM), 'base64'));
    const results = await readBarcodesOffline({ data: new Uint8ClampedArray(png.data.buffer, png.data.byteOffset, png.data.byteLength), width: png.width, height: png.height });
    decoded.push(results.filter((r) => r.isValid).sort(byReadingOrder).map((r) => r.text));
  }
  return decoded;
}

function byReadingOrder(a: ReadResult, b: ReadResult): number {
  return a.position.topLeft.y - b.position.topLeft.y || a.position.topLeft.x - b.position.topLeft.x;
}

let zxingReady: Promise<unknown> | undefined;

/** zxing-wasm fetches its wasm from a CDN by default; tests must never touch the network. */
async function readBarcodesOffline(image: { data: Uint8ClampedArray; width: number; height: number }): Promise<ReadResult[]> {
  zxingReady ??= prepareLocalZxing();
  await zxingReady;
  return readBarcodes(image as Parameters<typeof readBarcodes>[0], { formats: ['Code128', 'QRCode', 'DataMatrix'] });
}

async function prepareLocalZxing(): Promise<unknown> {
  const wasmPath = requireFromHere.resolve('zxing-wasm/reader/zxing_reader.wasm');
  const wasmModule = await WebAssembly.compile(await readFile(wasmPath));
  return prepareZXingModule({
    fireImmediately: true,
    overrides: {
      // instantiating ourselves bypasses Emscripten's loader, whose Node path would fetch() the CDN URL
      instantiateWasm(imports, onInstantiated) {
        void WebAssembly.instantiate(wasmModule, imports).then(onInstantiated);
        return {};
      },
      locateFile(path) {
        throw new Error(`zxing-wasm tried to locate ${path} for download; the barcode helper must stay offline`);
      },
    },
  });
}

/**
 * The Code 128 data of each EPL2 label (`N` … `P1`), one array per label, from its `B` commands. No EPL renderer exists
 * offline, so the barcode commands are read as a printer reads them: `Bx,y,rotation,1,narrow,wide,height,B|N,"data"`.
 */
export function decodeEplBarcodes(epl: string): string[][] {
  const labels = epl.split(/^N\r?$/m).slice(1);
  return labels.map((label) => [...label.matchAll(/^B\d+,\d+,[0-3],1[A-E]?,\d+,\d+,\d+,[BN],"((?:[^"\\]|\\.)*)"\r?$/gm)].map((m) => m[1]!.replace(/\\(.)/g, '$1')));
}
