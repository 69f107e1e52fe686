import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { PNG } from 'pngjs';
import { prepareZXingModule, readBarcodes, type ReadResult } from 'zxing-wasm/reader';
import { eplLabels } from '../../src/labels/epl.js';

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
  const labels = zpl.match(/\^XA[\s\S]*?\^XZ/gi) ?? [];
  const decoded: string[][] = [];
  for (const label of labels) decoded.push(await decodePngBarcodes(await renderZplPng(label)));
  return decoded;
}

/** One ZPL label as a 4×6 in, 203-dpi PNG, rendered offline by zebrash. */
export async function renderZplPng(label: string): Promise<Buffer> {
  // required lazily and as CommonJS: the renderer instantiates a 7 MB Go wasm at load time, and vite would otherwise transform its 9 MB ESM build
  const { ready } = requireFromHere('zpl-renderer-js') as typeof import('zpl-renderer-js');
  const { api } = await ready;
  return Buffer.from(await api.zplToBase64Async(label, ZPL_LABEL_MM.width, ZPL_LABEL_MM.height, ZPL_DOTS_PER_MM), 'base64');
}

/** The barcodes of a PNG picture, top to bottom. */
export async function decodePngBarcodes(pngBytes: Buffer): Promise<string[]> {
  const png = PNG.sync.read(pngBytes);
  return decodePixels({ data: new Uint8ClampedArray(png.data.buffer, png.data.byteOffset, png.data.byteLength), width: png.width, height: png.height });
}

async function decodePixels(image: { data: Uint8ClampedArray; width: number; height: number }): Promise<string[]> {
  const results = await readBarcodesOffline(image);
  return results.filter((r) => r.isValid).sort(byReadingOrder).map((r) => r.text);
}

function byReadingOrder(a: ReadResult, b: ReadResult): number {
  return a.position.topLeft.y - b.position.topLeft.y || a.position.topLeft.x - b.position.topLeft.x;
}

let zxingReady: Promise<unknown> | undefined;

type ReaderOptions = NonNullable<Parameters<typeof readBarcodes>[1]>;

/**
 * zxing-wasm fetches its wasm from a CDN by default; tests must never touch the network. Labels are read at their own
 * resolution: on a downscaled copy, zxing misreads some 3-dot Code 128 modules as a second, wrong symbol with a valid
 * check digit (80052211005 also came out as "80&52(11&0z").
 */
export async function readBarcodesOffline(
  image: { data: Uint8ClampedArray; width: number; height: number },
  options: ReaderOptions = { formats: ['Code128', 'QRCode', 'DataMatrix'], tryDownscale: false },
): Promise<ReadResult[]> {
  zxingReady ??= prepareLocalZxing();
  await zxingReady;
  return readBarcodes(image as Parameters<typeof readBarcodes>[0], options);
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
 * The barcodes of each EPL2 label (`N` … `P1`), one array per label. No EPL renderer exists offline, so a label is read
 * as a printer reads it: the data of its Code 128 `B` commands (`Bx,y,rotation,1,narrow,wide,height,B|N,"data"`), and
 * the pixels of its `GW` graphics (a 1 bit is a white dot), painted on a 4×6 in page and scanned.
 */
export async function decodeEplBarcodes(epl: Buffer): Promise<string[][]> {
  const decoded: string[][] = [];
  for (const label of eplLabels(epl)) {
    const text = label.toString('latin1');
    const fromCommands = [...text.matchAll(/^B\d+,\d+,[0-3],1[A-E]?,\d+,\d+,\d+,[BN],"((?:[^"\\]|\\.)*)"\r?$/gm)].map((m) => m[1]!.replace(/\\(.)/g, '$1'));
    const graphics = eplGraphics(label);
    const size = { width: Number(/^q(\d+)/m.exec(text)?.[1] ?? 812), height: Number(/^Q(\d+)/m.exec(text)?.[1] ?? 1218) };
    decoded.push(graphics.length ? [...fromCommands, ...(await decodePixels(paintGraphics(graphics, size)))] : fromCommands);
  }
  return decoded;
}

interface EplGraphic { x: number; y: number; bytesPerRow: number; rows: number; data: Buffer }

/** `GWx,y,bytesPerRow,rows,DATA` graphics: the data is `bytesPerRow × rows` raw bytes, newlines included. */
function eplGraphics(label: Buffer): EplGraphic[] {
  const found: EplGraphic[] = [];
  const text = label.toString('latin1');
  const head = /(?:^|\n)GW(\d+),(\d+),(\d+),(\d+)(?:,|\r?\n)/g;
  let m: RegExpExecArray | null;
  while ((m = head.exec(text))) {
    const [x, y, bytesPerRow, rows] = m.slice(1, 5).map(Number) as [number, number, number, number];
    const start = m.index + m[0].length;
    found.push({ x, y, bytesPerRow, rows, data: label.subarray(start, start + bytesPerRow * rows) });
    head.lastIndex = start + bytesPerRow * rows;
  }
  return found;
}

function paintGraphics(graphics: EplGraphic[], { width, height }: { width: number; height: number }): { data: Uint8ClampedArray; width: number; height: number } {
  const rgba = new Uint8ClampedArray(width * height * 4).fill(255);
  for (const g of graphics) {
    for (let row = 0; row < g.rows; row++) {
      for (let col = 0; col < g.bytesPerRow * 8; col++) {
        const white = (g.data[row * g.bytesPerRow + (col >> 3)]! >> (7 - (col & 7))) & 1;
        const px = g.x + col;
        const py = g.y + row;
        if (white || px >= width || py >= height) continue;
        rgba.fill(0, (py * width + px) * 4, (py * width + px) * 4 + 3);
      }
    }
  }
  return { data: rgba, width, height };
}
