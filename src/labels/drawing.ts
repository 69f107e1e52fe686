import bwipjs from 'bwip-js';
import { rgb, type PDFPage } from 'pdf-lib';

/** Drawing pieces every packdesk-made label shares (printer test labels, the carrier emulators' labels). */

/** 4×6 in at 203 dpi, with the margin packdesk's labels keep. */
export const THERMAL_DOTS = { width: 812, height: 1218, margin: 40 } as const;

export const PT_PER_MM = 72 / 25.4;

/** Control characters become spaces: a label line is one line. */
export function printable(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim();
}

/** Code 128 subset B: start + one symbol per character + check + stop, 11 modules each but the 13-module stop. */
export function code128Modules(value: string): number {
  return 11 * (value.length + 2) + 13;
}

/** The widest whole-dot module (1–4 dots) at which a Code 128 of `value` fits the label between its margins. */
export function thermalModuleDots(value: string, maxDots = 4): number {
  return Math.max(1, Math.min(maxDots, Math.floor((THERMAL_DOTS.width - 2 * THERMAL_DOTS.margin) / code128Modules(value))));
}

/** `^FH\` field data: ZPL's command characters written as hex escapes. */
export function zplFieldData(value: string): string {
  return printable(value).replace(/[\\^~]/g, (c) => `\\${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** In `^BC` data `>` starts an invocation code; a literal `>` is written `><`. */
export function zplBarcodeData(value: string): string {
  return value.replace(/>/g, '><');
}

const NON_DECOMPOSING: Record<string, string> = { Ł: 'L', ł: 'l', Đ: 'D', đ: 'd', ß: 'ss', Ø: 'O', ø: 'o' };

/** EPL2 text is single-byte: letters folded to ASCII, quotes and backslashes escaped. */
export function eplString(value: string): string {
  const ascii = printable(value).normalize('NFD').replace(/[\u0300-\u036f]/g, '')
    .replace(/[ŁłĐđßØø]/g, (c) => NON_DECOMPOSING[c] ?? '?').replace(/[^\x20-\x7e]/g, '?');
  return ascii.replace(/\\/g, '\\\\').replace(/"/g, '\\"');
}

/** Code 128 bars as filled rectangles, centred on a page `pageWidth` wide (or from `left`), ≤ `maxWidth`, with ≥ 10-module quiet zones. */
export function drawCode128(page: PDFPage, value: string, box: { bottom: number; height: number; maxWidth: number; left?: number }): void {
  const [symbol] = bwipjs.raw('code128', value, {});
  if (!symbol || !('sbs' in symbol)) throw new Error(`cannot encode ${value} as Code 128`);
  const pattern = symbol.sbs;
  const modules = pattern.reduce((sum, w) => sum + w, 0);
  const pageWidth = page.getWidth();
  const module = Math.min(box.maxWidth / modules, pageWidth / (modules + 20));
  let x = box.left ?? (pageWidth - module * modules) / 2;
  const black = rgb(0, 0, 0);
  pattern.forEach((width, i) => {
    // the pattern alternates bar, space, bar, … starting with a bar
    if (i % 2 === 0) page.drawRectangle({ x, y: box.bottom, width: width * module, height: box.height, color: black });
    x += width * module;
  });
}
