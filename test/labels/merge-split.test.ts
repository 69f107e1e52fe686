import bwipjs from 'bwip-js';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { LabelFormatError, layoutA4, mergeLabels, splitLabels } from '../../src/labels/index.js';
import { decodeEplBarcodes, decodePdfBarcodes, decodeZplBarcodes } from '../helpers/barcodes.js';

const MM = 72 / 25.4;
const LABEL_10X15: [number, number] = [100 * MM, 150 * MM];
const LABEL_4X6_IN: [number, number] = [4 * 72, 6 * 72];
const TRACKING = ['80050527937', '80050527938', '80050527939', '80050527940', '80050527941', '80050527942'];

/** A carrier-like PDF label: one page, a sender block, a Code128 of the tracking number. */
async function carrierPdfLabel(tracking: string, size: [number, number] = LABEL_10X15): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const page = doc.addPage(size);
  const font = await doc.embedFont(StandardFonts.Helvetica);
  page.drawText('PPL CZ  Parcel Connect', { x: 20, y: size[1] - 40, size: 16, font });
  page.drawText('To: Jana Novakova, Vodickova 12, 110 00 Praha', { x: 20, y: size[1] - 70, size: 9, font });
  const barcode = await doc.embedPng(await bwipjs.toBuffer({ bcid: 'code128', text: tracking, scale: 3, height: 18, includetext: true }));
  const width = 70 * MM;
  page.drawImage(barcode, { x: (size[0] - width) / 2, y: 60, width, height: (width * barcode.height) / barcode.width });
  return doc.save();
}

function carrierZplLabel(tracking: string, ending: string): Uint8Array {
  const zpl = `^XA^CI28^PW812^LL1218\n^FO40,40^A0N,40,40^FDDPD Classic^FS\n^FO60,200^BY3^BCN,220,Y,N,N^FD${tracking}^FS\n^XZ${ending}`;
  return Buffer.from(zpl, 'latin1');
}

function carrierEplLabel(tracking: string): Uint8Array {
  return Buffer.from(`\nN\nq812\nQ1218,24\nA40,40,0,4,1,1,N,"GLS"\nB60,200,0,1,3,6,220,B,"${tracking}"\nP1\n`, 'latin1');
}

async function pageSizes(pdf: Uint8Array): Promise<[number, number][]> {
  return (await PDFDocument.load(pdf)).getPages().map((page) => [page.getWidth(), page.getHeight()]);
}

/** Cuts every A4 sheet along the 2×2 grid into four quadrant pages, so each quadrant is scanned on its own. */
async function cutSheetsIntoQuadrants(a4: Uint8Array): Promise<Uint8Array> {
  const sheets = await PDFDocument.load(a4);
  const quadrants = await PDFDocument.create();
  for (const sheet of sheets.getPages()) {
    const width = sheet.getWidth() / 2;
    const height = sheet.getHeight() / 2;
    for (const [left, bottom] of [[0, height], [width, height], [0, 0], [width, 0]] as const) {
      const quadrant = await quadrants.embedPage(sheet, { left, bottom, right: left + width, top: bottom + height });
      quadrants.addPage([width, height]).drawPage(quadrant);
    }
  }
  return quadrants.save();
}

describe('merging the labels of a shipment', () => {
  it('merges three one-page carrier PDFs into one 3-page PDF whose barcodes scan in parcel order', async () => {
    const parts = [
      await carrierPdfLabel(TRACKING[0]!),
      await carrierPdfLabel(TRACKING[1]!, LABEL_4X6_IN),
      await carrierPdfLabel(TRACKING[2]!),
    ];

    const merged = await mergeLabels('pdf', parts);

    expect(merged).toMatchObject({ pages: 3, mimeType: 'application/pdf', extension: 'pdf' });
    expect(merged.content.subarray(0, 5).toString()).toBe('%PDF-');
    expect(await decodePdfBarcodes(merged.content)).toEqual([[TRACKING[0]], [TRACKING[1]], [TRACKING[2]]]);
    const partSizes = (await Promise.all(parts.map(pageSizes))).flat();
    expect(await pageSizes(merged.content)).toEqual(partSizes);
  });

  it('keeps every page of a multi-page carrier PDF, in place', async () => {
    const twoParcels = await mergeLabels('pdf', [await carrierPdfLabel(TRACKING[0]!), await carrierPdfLabel(TRACKING[1]!)]);

    const merged = await mergeLabels('pdf', [twoParcels.content, await carrierPdfLabel(TRACKING[2]!)]);

    expect(merged.pages).toBe(3);
    expect(await decodePdfBarcodes(merged.content)).toEqual([[TRACKING[0]], [TRACKING[1]], [TRACKING[2]]]);
  });

  it('hands back a single-parcel PDF byte for byte', async () => {
    const label = await carrierPdfLabel(TRACKING[0]!);

    const merged = await mergeLabels('pdf', [label]);

    expect(merged.pages).toBe(1);
    expect(merged.content.equals(Buffer.from(label))).toBe(true);
  });

  it('concatenates three ZPL labels untouched, one ^XA…^XZ block per parcel, and every one scans', async () => {
    const parts = [carrierZplLabel(TRACKING[0]!, ''), carrierZplLabel(TRACKING[1]!, '\r\n'), carrierZplLabel(TRACKING[2]!, '\n')];

    const merged = await mergeLabels('zpl', parts);

    expect(merged).toMatchObject({ pages: 3, mimeType: 'application/zpl', extension: 'zpl' });
    expect(merged.content.equals(Buffer.concat([parts[0]!, Buffer.from('\n'), parts[1]!, parts[2]!]))).toBe(true);
    expect(await decodeZplBarcodes(merged.content.toString('latin1'))).toEqual([[TRACKING[0]], [TRACKING[1]], [TRACKING[2]]]);
  });

  it('concatenates EPL labels untouched and counts their P1 print commands', async () => {
    const parts = TRACKING.slice(0, 3).map(carrierEplLabel);

    const merged = await mergeLabels('epl', parts);

    expect(merged).toMatchObject({ pages: 3, mimeType: 'application/epl', extension: 'epl' });
    expect(merged.content.equals(Buffer.concat(parts))).toBe(true);
  });
});

describe('cutting a carrier document of all parcels into one label per parcel', () => {
  it('cuts a 3-page PDF into three one-page PDFs that scan in order', async () => {
    const merged = await mergeLabels('pdf', await Promise.all(TRACKING.slice(0, 3).map((t) => carrierPdfLabel(t))));
    const parts = await splitLabels('pdf', merged.content, 3);
    expect(await Promise.all(parts.map(pageSizes))).toEqual(Array(3).fill([LABEL_10X15.map((n) => expect.closeTo(n, 3))]));
    expect(await Promise.all(parts.map(async (p) => (await decodePdfBarcodes(p)).flat()))).toEqual([[TRACKING[0]], [TRACKING[1]], [TRACKING[2]]]);
  });

  it('cuts ZPL into its ^XA…^XZ blocks and EPL into its N…P1 labels, bytes unchanged', async () => {
    const zpl = [carrierZplLabel(TRACKING[0]!, ''), carrierZplLabel(TRACKING[1]!, '')];
    expect(await splitLabels('zpl', Buffer.concat([...zpl, Buffer.from('\r\n')]), 2)).toEqual(zpl.map((p) => Buffer.from(p)));
    const epl = await splitLabels('epl', Buffer.concat(TRACKING.slice(0, 2).map(carrierEplLabel)), 2);
    expect(await Promise.all(epl.map((p) => decodeEplBarcodes(p)))).toEqual([[[TRACKING[0]]], [[TRACKING[1]]]]);
    expect(epl[0]!.toString('latin1')).toMatch(/^N\n[\s\S]*\nP1\n$/);
  });

  it('refuses a document whose label count is not the parcel count', async () => {
    await expect(splitLabels('zpl', carrierZplLabel(TRACKING[0]!, ''), 2)).rejects.toThrow(/holds 1 labels for 2 parcels/);
  });
});

describe('refusing what is not a label', () => {
  it('refuses an empty list of parts', async () => {
    await expect(mergeLabels('pdf', [])).rejects.toBeInstanceOf(LabelFormatError);
  });

  it('names the part that is not a PDF', async () => {
    const parts = [await carrierPdfLabel(TRACKING[0]!), carrierZplLabel(TRACKING[1]!, '\n')];

    const refusal = await mergeLabels('pdf', parts).catch((error: unknown) => error);

    expect(refusal).toBeInstanceOf(LabelFormatError);
    expect(refusal).toMatchObject({ partIndex: 1, message: expect.stringMatching(/part 1.*not a PDF/) });
  });

  it('refuses a PDF header followed by garbage', async () => {
    const parts = [await carrierPdfLabel(TRACKING[0]!), Buffer.from('%PDF-1.7\nthis is not a label\n%%EOF\n')];

    await expect(mergeLabels('pdf', parts)).rejects.toMatchObject({ name: 'LabelFormatError', partIndex: 1 });
  });

  it('refuses a ZPL part without a complete ^XA…^XZ label', async () => {
    const parts = [carrierZplLabel(TRACKING[0]!, '\n'), Buffer.from('^XA^FO50,50^FDcut off')];

    await expect(mergeLabels('zpl', parts)).rejects.toMatchObject({ name: 'LabelFormatError', partIndex: 1, message: expect.stringMatching(/part 1.*ZPL/) });
  });

  it('refuses an EPL part that never prints', async () => {
    const parts = [carrierEplLabel(TRACKING[0]!), carrierEplLabel(TRACKING[1]!), Buffer.from('\nN\nA40,40,0,4,1,1,N,"GLS"\n')];

    await expect(mergeLabels('epl', parts)).rejects.toMatchObject({ name: 'LabelFormatError', partIndex: 2, message: expect.stringMatching(/part 2.*EPL/) });
  });
});

describe('printing on A4 office paper', () => {
  it('lays six labels out four to a sheet, left to right and top to bottom, and each still scans', async () => {
    const merged = await mergeLabels('pdf', await Promise.all(TRACKING.map((tracking) => carrierPdfLabel(tracking))));

    const a4 = await layoutA4(merged.content);

    expect(await pageSizes(a4)).toEqual([[595.28, 841.89], [595.28, 841.89]]);
    expect((await decodePdfBarcodes(a4)).map((sheet) => [...sheet].sort())).toEqual([TRACKING.slice(0, 4), TRACKING.slice(4)]);
    expect(await decodePdfBarcodes(await cutSheetsIntoQuadrants(a4))).toEqual([...TRACKING.map((t) => [t]), [], []]);
  });
});
