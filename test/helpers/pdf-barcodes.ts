import { execFile } from 'node:child_process';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** Renders every page at 150 dpi with `pdftoppm` and reads its barcodes with `zbarimg`: one array of values per page. */
export async function decodePdfBarcodes(pdf: Buffer): Promise<string[][]> {
  const dir = await mkdtemp(join(tmpdir(), 'packdesk-barcodes-'));
  try {
    const pdfPath = join(dir, 'document.pdf');
    await writeFile(pdfPath, pdf);
    await run('pdftoppm', ['-r', '150', '-png', pdfPath, join(dir, 'page')]);
    const pages = (await readdir(dir))
      .filter((name) => /^page-\d+\.png$/.test(name))
      .sort((a, b) => pageNumber(a) - pageNumber(b));
    return await Promise.all(pages.map((page) => decodeImageBarcodes(join(dir, page))));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The barcodes `zbarimg` reads in one PNG image (e.g. a rendered ZPL label). */
export async function decodePngBarcodes(png: Buffer): Promise<string[]> {
  const dir = await mkdtemp(join(tmpdir(), 'packdesk-barcodes-'));
  try {
    const imagePath = join(dir, 'image.png');
    await writeFile(imagePath, png);
    return await decodeImageBarcodes(imagePath);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

function pageNumber(fileName: string): number {
  return Number(/(\d+)\.png$/.exec(fileName)![1]);
}

/** zbarimg exits 4 when the image holds no barcode. */
async function decodeImageBarcodes(imagePath: string): Promise<string[]> {
  try {
    const { stdout } = await run('zbarimg', ['--raw', '-q', imagePath]);
    return stdout.split('\n').filter((line) => line.length > 0);
  } catch (err) {
    if ((err as { code?: number }).code === 4) return [];
    throw err;
  }
}
