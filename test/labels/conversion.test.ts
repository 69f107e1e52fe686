import bwipjs from 'bwip-js';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { afterAll, describe, expect, it } from 'vitest';
import { renderLabel, type EmulatedLabel } from '../../src/carriers/emulator/labels.js';
import { narrowestBar } from '../../src/labels/bitmap.js';
import { convertLabel, previewLabel } from '../../src/labels/convert.js';
import { pdfToLabelBitmaps } from '../../src/labels/pdf-raster.js';
import { zplGraphicLabel } from '../../src/labels/thermal-graphic.js';
import { convertLabelOffThread, LabelFormatError, stopLabelConversions } from '../../src/labels/index.js';
import { decodeEplBarcodes, decodePdfBarcodes, decodePngBarcodes, decodeZplBarcodes } from '../helpers/barcodes.js';

const MM = 72 / 25.4;

const emulated = (trackingNumber: string): EmulatedLabel => ({
  carrier: 'PPL', trackingNumber, parcelIndex: 1, parcelCount: 1, reference: 'ORD-1183',
  sender: ['Sklad Brno s.r.o.', 'Hybešova 42', '602 00 Brno'], recipient: ['Jana Nováková', 'Vodičkova 12', '110 00 Praha 1'],
  cod: { amount: '1249.50', currency: 'CZK' },
});

/** A page of `size` points with a Code 128 drawn as a scaled PNG image, the way many carriers embed barcodes. */
async function imageBarcodePage(tracking: string, size: [number, number], at: { x: number; y: number; width: number }, extraText?: { x: number; y: number }): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const page = doc.addPage(size);
  const font = await doc.embedFont(StandardFonts.Helvetica);
  page.drawText('GLS Europe  Business Parcel', { x: at.x, y: at.y + 140, size: 14, font });
  if (extraText) page.drawText('Keep this part: customer receipt', { ...extraText, size: 10, font });
  const png = await doc.embedPng(await bwipjs.toBuffer({ bcid: 'code128', text: tracking, scale: 3, height: 18 }));
  page.drawImage(png, { x: at.x, y: at.y, width: at.width, height: (at.width * png.height) / png.width });
  return doc.save();
}

afterAll(() => stopLabelConversions());

describe('converting a carrier PDF label offline', () => {
  it('turns a 10×15 cm vector label into one ZPL ^GF Z64 label and one EPL GW label that scan, at 203 and 300 dpi', async () => {
    const pdf = await renderLabel('pdf', emulated('40990012345'));
    const zpl = (await convertLabel('pdf', 'zpl', pdf, 203)).toString('latin1');
    expect(zpl).toMatch(/^\^XA\n\^PW812\n\^LL1218\n\^LH0,0\n\^FO\d+,\d+\^GFA,(\d+),\1,\d+,:Z64:[A-Za-z0-9+/=]+:[0-9A-F]{4}\^FS\n\^XZ\n$/);
    expect(await decodeZplBarcodes(zpl)).toEqual([['40990012345']]);
    const epl = await convertLabel('pdf', 'epl', pdf, 203);
    expect(epl.toString('latin1')).toMatch(/^\nN\nq812\nQ1218,24\nGW\d+,\d+,\d+,\d+,/);
    expect(epl.toString('latin1').endsWith('\nP1\n')).toBe(true);
    expect(await decodeEplBarcodes(epl)).toEqual([['40990012345']]);
    const epl300 = await convertLabel('pdf', 'epl', pdf, 300);
    expect(epl300.toString('latin1')).toMatch(/^q1200\nQ1800,24$/m);
    expect(await decodeEplBarcodes(epl300)).toEqual([['40990012345']]);
  });

  it('keeps a barcode drawn as a scaled image scannable: black and white by threshold, no dithering', async () => {
    const pdf = await imageBarcodePage('51234567890', [100 * MM, 150 * MM], { x: 14 * MM, y: 20 * MM, width: 72 * MM });
    expect(await decodeZplBarcodes((await convertLabel('pdf', 'zpl', pdf, 203)).toString('latin1'))).toEqual([['51234567890']]);
    const [png] = await previewLabel('zpl', await convertLabel('pdf', 'zpl', pdf, 203), 203);
    expect(await decodePngBarcodes(png!)).toEqual(['51234567890']);
  });

  it('turns a landscape 15×10 cm page a quarter onto the 4×6 in label instead of shrinking it', async () => {
    const pdf = await imageBarcodePage('61234567890', [150 * MM, 100 * MM], { x: 20 * MM, y: 10 * MM, width: 100 * MM });
    const zpl = (await convertLabel('pdf', 'zpl', pdf, 203)).toString('latin1');
    expect(zpl).toContain('^PW812\n^LL1218');
    // turned, the bars run across the label: zxing reads them either way
    expect(await decodeZplBarcodes(zpl)).toEqual([['61234567890']]);
  });

  it('trims an A4 page to its ink and shrinks only what does not fit, keeping bars at least two dots wide', async () => {
    // a 10×15 cm label in the top-left quarter of an A4 sheet and a receipt line at the sheet's foot
    const pdf = await imageBarcodePage('71234567890', [210 * MM, 297 * MM], { x: 10 * MM, y: 170 * MM, width: 80 * MM }, { x: 10 * MM, y: 12 * MM });
    const zpl = (await convertLabel('pdf', 'zpl', pdf, 203)).toString('latin1');
    expect(await decodeZplBarcodes(zpl)).toEqual([['71234567890']]);
  });

  it('shrinks a page whose ink is taller than the label no further than keeps its 3-dot bars two dots wide', async () => {
    const doc = await PDFDocument.create();
    const page = doc.addPage([210 * MM, 297 * MM]);
    const font = await doc.embedFont(StandardFonts.Helvetica);
    page.drawText('Sender copy: top of the sheet', { x: 20 * MM, y: 285 * MM, size: 12, font });
    page.drawText('Receipt: foot of the sheet', { x: 20 * MM, y: 8 * MM, size: 12, font });
    const png = await doc.embedPng(await bwipjs.toBuffer({ bcid: 'code128', text: '81234567890', scale: 1, height: 15 }));
    const dot = 72 / 203;
    page.drawImage(png, { x: 30 * MM, y: 140 * MM, width: png.width * 3 * dot, height: 120 });
    const [bitmap] = await pdfToLabelBitmaps(await doc.save(), 203);
    // fitting the whole 29 cm of ink would take 0.53 and leave 1.6-dot bars
    expect(narrowestBar(bitmap!, 40)).toBeGreaterThanOrEqual(2);
    expect(await decodeZplBarcodes(zplGraphicLabel(bitmap!))).toEqual([['81234567890']]);
  });

  it('writes a thermal label back as a 10×15 cm PDF page per label, at its printed size', async () => {
    const zpl = await renderLabel('zpl', emulated('40990099999'));
    const pdf = await convertLabel('zpl', 'pdf', zpl, 203);
    const pages = (await PDFDocument.load(pdf)).getPages();
    expect(pages.map((p) => [Math.round(p.getWidth() / MM), Math.round(p.getHeight() / MM)])).toEqual([[100, 150]]);
    expect(await decodePdfBarcodes(pdf, 300)).toEqual([['40990099999']]);
  });

  it('gives a blank page a label with nothing to print, and refuses bytes that are not a PDF with a LabelFormatError', async () => {
    const blank = await PDFDocument.create();
    blank.addPage([100 * MM, 150 * MM]);
    expect((await convertLabel('pdf', 'zpl', await blank.save(), 203)).toString('latin1')).toBe('^XA\n^PW812\n^LL1218\n^LH0,0\n^XZ\n');
    await expect(convertLabel('pdf', 'zpl', Buffer.from('%PDF-1.7\nnot really'), 203)).rejects.toBeInstanceOf(LabelFormatError);
  });

  it('renders a hostile page size within its pixel budget instead of exhausting memory', async () => {
    const doc = await PDFDocument.create();
    const page = doc.addPage([14_400, 14_400]); // the largest page PDF allows: 5 m square, 1.6 GB as a 203-dpi grey bitmap
    page.drawRectangle({ x: 100, y: 100, width: 14_000, height: 14_000, borderWidth: 40 });
    const zpl = (await convertLabel('pdf', 'zpl', await doc.save(), 203)).toString('latin1');
    expect(zpl).toMatch(/\^GFA,/);
  });
});

describe('the conversion thread', () => {
  it('answers what the same conversion gives in-thread, byte for byte, and a LabelFormatError for garbage', async () => {
    const pdf = await renderLabel('pdf', emulated('40990054321'));
    const inThread = await convertLabel('pdf', 'epl', pdf, 203);
    expect((await convertLabelOffThread('pdf', 'epl', pdf, 203)).equals(inThread)).toBe(true);
    await expect(convertLabelOffThread('pdf', 'zpl', Buffer.from('GIF89a'), 203)).rejects.toMatchObject({ name: 'LabelFormatError', message: expect.stringMatching(/not a readable PDF/) });
  });
});
