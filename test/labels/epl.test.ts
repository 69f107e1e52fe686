import bwipjs from 'bwip-js';
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { renderLabel, type EmulatedLabel } from '../../src/carriers/emulator/labels.js';
import { eplCommands, eplLabels } from '../../src/labels/epl.js';
import { eplToZpl } from '../../src/labels/epl-zpl.js';
import { LabelFormatError, mergeLabels, splitLabels } from '../../src/labels/index.js';
import { decodeZplBarcodes, readBarcodesOffline, renderZplPng } from '../helpers/barcodes.js';


function emulatedParcel(trackingNumber: string, parcelIndex: number): EmulatedLabel {
  return {
    carrier: 'GLS', trackingNumber, parcelIndex, parcelCount: 2, reference: 'ORD-1001',
    sender: ['Packdesk s.r.o.', 'Vodičkova 12', '110 00 Praha'], recipient: ['Jana Nováková', 'Na Příkopě 3', '110 00 Praha 1'],
  };
}

const latin1 = (text: string) => Buffer.from(text, 'latin1');

/** `GWx,y,…` of a Code 128 drawn dot by dot: 3 dots a module, 150 dots tall, 10-module quiet zones, 1 bits white as EPL wants. */
function code128Graphic(value: string, x: number, y: number, separator: ',' | '\r\n' | '\n'): Buffer {
  const [symbol] = bwipjs.raw('code128', value, {});
  if (!symbol || !('sbs' in symbol)) throw new Error(`cannot encode ${value}`);
  const dotsPerModule = 3;
  const quietDots = 10 * dotsPerModule;
  const widthDots = symbol.sbs.reduce((sum, modules) => sum + modules, 0) * dotsPerModule + 2 * quietDots;
  const row = Buffer.alloc(Math.ceil(widthDots / 8), 0xff);
  let dot = quietDots;
  symbol.sbs.forEach((modules, i) => {
    const end = dot + modules * dotsPerModule;
    // sbs alternates bar, space, bar …; a bar is black, a 0 bit
    if (i % 2 === 0) for (let d = dot; d < end; d++) row[d >> 3]! &= ~(0x80 >> (d & 7));
    dot = end;
  });
  const rows = 150;
  return Buffer.concat([latin1(`GW${x},${y},${row.length},${rows}${separator}`), ...Array<Buffer>(rows).fill(row), latin1('\n')]);
}

interface Picture { width: number; height: number; rgba: Buffer }
type Box = { left: number; top: number; right: number; bottom: number };

async function renderZpl(zpl: string): Promise<Picture> {
  const png = PNG.sync.read(await renderZplPng(zpl));
  return { width: png.width, height: png.height, rgba: png.data };
}

function isDark(picture: Picture, x: number, y: number): boolean {
  const i = (y * picture.width + x) * 4;
  return picture.rgba[i + 3]! >= 128 && picture.rgba[i + 1]! < 128;
}

/** The box around every dark dot of the picture. */
function inkBox(picture: Picture): Box {
  const box = { left: Infinity, top: Infinity, right: -Infinity, bottom: -Infinity };
  for (let y = 0; y < picture.height; y++) {
    for (let x = 0; x < picture.width; x++) {
      if (!isDark(picture, x, y)) continue;
      box.left = Math.min(box.left, x);
      box.top = Math.min(box.top, y);
      box.right = Math.max(box.right, x + 1);
      box.bottom = Math.max(box.bottom, y + 1);
    }
  }
  return box;
}

type BarcodeFormats = NonNullable<NonNullable<Parameters<typeof readBarcodesOffline>[1]>['formats']>;
function darkShare(picture: Picture, box: Box): number {
  let dark = 0;
  for (let y = box.top; y < box.bottom; y++) for (let x = box.left; x < box.right; x++) if (isDark(picture, x, y)) dark++;
  return dark / ((box.right - box.left) * (box.bottom - box.top));
}

/** The sides of `actual` more than 8 dots away from `expected`, described. */
function sidesOff(actual: Box, expected: Box): string[] {
  return (Object.keys(expected) as (keyof Box)[])
    .filter((side) => Math.abs(actual[side] - expected[side]) > 8)
    .map((side) => `${side} at ${actual[side]}, not about ${expected[side]}`);
}

/** The barcodes a scanner reads on the rendered label; inverted codes are not tried, so polarity mistakes show. */
async function scanZpl(zpl: string, formats: BarcodeFormats): Promise<string[]> {
  const picture = await renderZpl(zpl);
  const image = { data: new Uint8ClampedArray(picture.rgba.buffer, picture.rgba.byteOffset, picture.rgba.byteLength), width: picture.width, height: picture.height };
  const results = await readBarcodesOffline(image, { formats, tryInvert: false });
  return results.filter((r) => r.isValid).map((r) => r.text);
}

function onOneLabel(commands: string): Buffer {
  return latin1(`N\nq812\nQ1218,24\n${commands}\nP1\n`);
}

describe('reading the EPL2 labels a carrier sends', () => {
  it('cuts two emulated carrier labels apart byte for byte, and each preview scans to its own tracking number', async () => {
    const first = await renderLabel('epl', emulatedParcel('80050527937', 1));
    const second = await renderLabel('epl', emulatedParcel('80050527938', 2));

    const labels = eplLabels(Buffer.concat([first, second]));

    expect(labels).toEqual([first, second]);
    expect(await decodeZplBarcodes(labels.map(eplToZpl).join('\n'))).toEqual([['80050527937'], ['80050527938']]);
  });

  it('keeps a label whole when its GW graphic bytes hold "\\nP1\\nN\\n", and merging and splitting count it once', async () => {
    const decoy = Buffer.concat([latin1('GW10,10,6,1,'), latin1('\nP1\nN\n'), latin1('\n')]);
    const label = Buffer.concat([latin1('\nN\nq812\nQ1218,24\n'), decoy, code128Graphic('PKD-4711', 100, 300, ','), latin1('P1\n')]);
    const next = await renderLabel('epl', emulatedParcel('80050527938', 2));

    expect(eplLabels(label)).toEqual([label]);
    expect(eplCommands(label).map((c) => c.name)).toEqual(['N', 'q', 'Q', 'GW', 'GW', 'P']);
    expect(eplCommands(label)[3]!.data).toEqual(latin1('\nP1\nN\n'));
    expect((await mergeLabels('epl', [label, next])).pages).toBe(2);
    expect(await splitLabels('epl', Buffer.concat([label, next]), 2)).toEqual([label.subarray(1), next.subarray(1)]);
  });

  it('previews a GW graphic of a Code 128 black on white, as the printer prints it (EPL 1 bits are white dots)', async () => {
    for (const separator of [',', '\r\n', '\n'] as const) {
      const label = onOneLabel(code128Graphic('PKD-4711-ZZ', 100, 300, separator).toString('latin1'));

      const zpl = eplToZpl(label);
      const picture = await renderZpl(zpl);

      expect(await scanZpl(zpl, ['Code128'])).toEqual(['PKD-4711-ZZ']);
      expect([isDark(picture, 100 + 15, 350), isDark(picture, 100 + 30, 350)]).toEqual([false, true]); // quiet zone, then the start bar
    }
  });

  it("reads Zebra's own GW example: CR LF line ends and the P line straight after the graphic bytes", () => {
    const box = [0x0000, ...Array<number>(14).fill(0x7ffe), 0x0000].flatMap((row) => [row >> 8, row & 0xff]);
    const stream = Buffer.concat([latin1('N\r\nGW100,100,2,16,'), Buffer.from(box), latin1('P\r\n\r\n')]);

    const labels = eplLabels(stream);

    expect(labels).toEqual([stream.subarray(0, stream.length - 2)]);
    expect(eplCommands(labels[0]!)).toEqual([
      { name: 'N', args: [] },
      { name: 'GW', args: ['100', '100', '2', '16'], data: Buffer.from(box) },
      { name: 'P', args: [] },
    ]);
    // a 16×16 outline: black edge rows, black first and last dot between
    expect(eplToZpl(labels[0]!)).toContain(`^FO100,100^GFA,32,32,2,FFFF${'8001'.repeat(14)}FFFF^FS`);
  });

  it('parses quoted arguments with commas, escaped quotes and backslashes, and keeps unknown commands', () => {
    const label = latin1('N\nA10,20,0,3,1,1,N,"Say \\"hi\\", then C:\\\\temp, ok"\nb30,40,Q,m2,s4,eH,"a,b"\noR\nZT\nLO1,2,3,4\nZZ7,8\nP2,1\n');

    expect(eplCommands(label)).toEqual([
      { name: 'N', args: [] },
      { name: 'A', args: ['10', '20', '0', '3', '1', '1', 'N', 'Say "hi", then C:\\temp, ok'] },
      { name: 'b', args: ['30', '40', 'Q', 'm2', 's4', 'eH', 'a,b'] },
      { name: 'oR', args: [] },
      { name: 'ZT', args: [] },
      { name: 'LO', args: ['1', '2', '3', '4'] },
      { name: 'ZZ', args: ['7', '8'] },
      { name: 'P', args: ['2', '1'] },
    ]);
  });

  it('refuses a stream whose GW graphic is cut short', async () => {
    const cut = latin1('N\nGW10,10,4,100,\x00\x01\x02\nP1\n');

    expect(() => eplLabels(cut)).toThrow(LabelFormatError);
    expect(() => eplLabels(cut)).toThrow('is not EPL (a GW graphic is cut short)');
    await expect(mergeLabels('epl', [cut])).rejects.toMatchObject({ name: 'LabelFormatError', message: expect.stringMatching(/cut short/) });
  });
});

describe('previewing EPL2 labels through ZPL', () => {
  it('prints Code 39, EAN-13, Interleaved 2 of 5 and UPC-A B commands as barcodes that scan', async () => {
    const zpl = eplToZpl(onOneLabel([
      'B60,60,0,3,2,5,100,B,"PACK-39"',
      'B60,260,0,E30,3,3,120,B,"400638133393"',
      'B60,480,0,2C,3,7,100,B,"1234567"',
      'B60,700,0,UA0,3,3,120,B,"03600029145"',
    ].join('\n')));

    expect(await scanZpl(zpl, ['Code39'])).toEqual(['PACK-39']);
    expect(await scanZpl(zpl, ['EAN13'])).toEqual(['4006381333931', '0036000291452']);
    expect(await scanZpl(zpl, ['ITF'])).toEqual(['12345670']);
  });

  it('prints Code 128 subsets B and C, and skips barcode types it cannot draw without failing', async () => {
    const zpl = eplToZpl(onOneLabel(['B60,60,0,1B,2,4,100,N,"Ab-12"', 'B60,300,0,1C,3,6,100,N,"12345678"', 'B60,600,0,K,2,6,100,N,"A1234B"'].join('\n')));

    expect(await scanZpl(zpl, ['Code128', 'Codabar'])).toEqual(['Ab-12', '12345678']);
  });

  it('prints QR Code and Data Matrix b commands that scan', async () => {
    const zpl = eplToZpl(onOneLabel(['b60,60,Q,m2,s6,eM,"https://packdesk.example/t/80050527937"', 'b60,500,D,h8,"PKD,80050527937"'].join('\n')));

    expect(await scanZpl(zpl, ['QRCode', 'DataMatrix'])).toEqual(['https://packdesk.example/t/80050527937', 'PKD,80050527937']);
  });

  it('turns text about its EPL origin: 90° reads downwards left of it, 180° runs left of and above it', async () => {
    // font 4 is 24 dots tall and 16 dots a character: "PRAHA 1" runs 112 dots
    const [upright, quarter, half] = await Promise.all(
      [0, 1, 2].map(async (rotation) => inkBox(await renderZpl(eplToZpl(onOneLabel(`A300,300,${rotation},4,1,1,N,"PRAHA 1"`))))),
    );

    expect(sidesOff(upright!, { left: 300, top: 300, right: 412, bottom: 324 })).toEqual([]);
    expect(sidesOff(quarter!, { left: 276, top: 300, right: 300, bottom: 412 })).toEqual([]);
    expect(sidesOff(half!, { left: 188, top: 276, right: 300, bottom: 300 })).toEqual([]);
  });

  it('draws lines, erases with white lines, inverts with XOR lines, and outlines X boxes where EPL puts them', async () => {
    const picture = await renderZpl(eplToZpl(onOneLabel(['LO100,100,200,40', 'LW150,110,20,20', 'LE250,90,100,20', 'X400,400,4,600,500'].join('\n'))));
    const dark = (x: number, y: number) => isDark(picture, x, y);

    expect([dark(120, 120), dark(160, 120), dark(260, 105), dark(320, 95), dark(260, 95)]).toEqual([true, false, false, true, true]);
    expect([dark(401, 450), dark(598, 450), dark(500, 401), dark(500, 498), dark(500, 450)]).toEqual([true, true, true, true, false]);
  });

  it('prints reverse text white in a black cell, and writes ZPL command characters in text as hex', async () => {
    const zpl = eplToZpl(onOneLabel('A100,100,0,5,1,1,R,"^~\\\\"'));
    const picture = await renderZpl(zpl);

    expect(zpl).toContain('^FH\\^FD\\5E\\7E\\5C^FS');
    // font 5 cells are 36 × 48 dots: black where no glyph is, white glyphs inside
    const cell = darkShare(picture, { left: 100, top: 100, right: 100 + 3 * 36, bottom: 148 });
    expect(cell).toBeGreaterThan(0.5);
    expect(cell).toBeLessThan(0.95);
  });

  it('sizes a label without q and Q as 4×6 in, and follows q, Q and the R reference point when given', async () => {
    expect(eplToZpl(latin1('N\nA10,10,0,1,1,1,N,"x"\nP1\n'))).toMatch(/^\^XA\n\^CI28\n\^PW812\n\^LL1218\n/);
    expect(eplToZpl(latin1('N\nq448\nQ203,24\nA10,10,0,1,1,1,N,"x"\nP1\n'))).toMatch(/^\^XA\n\^CI28\n\^PW448\n\^LL203\n/);
    const picture = await renderZpl(eplToZpl(latin1('N\nR20,8\nLO0,0,10,10\nP1\n')));

    expect([isDark(picture, 5, 5), isDark(picture, 25, 12)]).toEqual([false, true]);
  });
});
