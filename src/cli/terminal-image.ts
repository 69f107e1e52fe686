import { PNG } from 'pngjs';

/** The inline-image protocols packdesk can draw label previews with. */
export type ImageProtocol = 'kitty' | 'iterm' | 'sixel';

const ESC = '\x1b';
const ST = `${ESC}\\`;
const BEL = '\x07';

const PROTOCOLS: readonly ImageProtocol[] = ['kitty', 'iterm', 'sixel'];
const SIXEL_TERMS = new Set(['foot', 'foot-extra', 'mlterm', 'yaft-256color', 'contour']);
const SIXEL_TERM_PROGRAMS = new Set(['contour', 'mlterm']);

/**
 * Which inline-image protocol the terminal on stdout understands, or null when it is not known to show images.
 *
 * Detection is deliberately conservative, since a wrong guess prints escape-sequence garbage:
 * - kitty graphics: `TERM=xterm-kitty`, `KITTY_WINDOW_ID` set, or `TERM_PROGRAM=ghostty`;
 * - iTerm2 inline images: `TERM_PROGRAM=iTerm.app` or `WezTerm`, or `LC_TERMINAL=iTerm2`;
 * - sixel: `TERM` one of foot, foot-extra, mlterm, yaft-256color, contour, or `TERM_PROGRAM` contour or mlterm.
 * Inside tmux or screen nothing is detected, because passthrough to the outer terminal is unreliable.
 *
 * `PACKDESK_IMAGE_PROTOCOL=kitty|iterm|sixel` forces that protocol (also inside tmux/screen) and
 * `PACKDESK_IMAGE_PROTOCOL=none` turns inline images off; any other value is ignored. Without a TTY the answer is always null.
 */
export function detectImageProtocol(env: NodeJS.ProcessEnv, isTTY: boolean): ImageProtocol | null {
  if (!isTTY) return null;
  const override = env.PACKDESK_IMAGE_PROTOCOL?.trim().toLowerCase();
  if (override === 'none') return null;
  if (override && (PROTOCOLS as readonly string[]).includes(override)) return override as ImageProtocol;

  const term = env.TERM ?? '';
  const termProgram = env.TERM_PROGRAM ?? '';
  if (env.TMUX || term.startsWith('screen') || term.startsWith('tmux')) return null;

  if (term === 'xterm-kitty' || env.KITTY_WINDOW_ID || termProgram === 'ghostty') return 'kitty';
  if (termProgram === 'iTerm.app' || termProgram === 'WezTerm' || env.LC_TERMINAL === 'iTerm2') return 'iterm';
  if (SIXEL_TERMS.has(term) || SIXEL_TERM_PROGRAMS.has(termProgram)) return 'sixel';
  return null;
}

/**
 * The escape sequence that draws `png` inline with `protocol`, followed by a newline.
 * `maxWidthPx` (default 800) bounds the sixel rendering, which is sent as raw pixels; kitty and iTerm2 receive the PNG itself.
 */
export function encodeTerminalImage(png: Buffer, protocol: ImageProtocol, options: { maxWidthPx?: number } = {}): string {
  switch (protocol) {
    case 'kitty': return encodeKitty(png);
    case 'iterm': return encodeIterm(png);
    case 'sixel': return encodeSixel(png, options.maxWidthPx ?? 800);
  }
}

const KITTY_CHUNK = 4096;

function encodeKitty(png: Buffer): string {
  const base64 = png.toString('base64');
  const chunks: string[] = [];
  for (let start = 0; start < base64.length || chunks.length === 0; start += KITTY_CHUNK) {
    const payload = base64.slice(start, start + KITTY_CHUNK);
    const more = start + KITTY_CHUNK < base64.length ? 1 : 0;
    // q=2 on every chunk: the terminal's replies would otherwise land on stdin as typed text (older kitty reads q per chunk).
    const keys = chunks.length === 0 ? `a=T,f=100,q=2,m=${more}` : `m=${more},q=2`;
    chunks.push(`${ESC}_G${keys};${payload}${ST}`);
  }
  return `${chunks.join('')}\n`;
}

function encodeIterm(png: Buffer): string {
  return `${ESC}]1337;File=inline=1;size=${png.length};preserveAspectRatio=1:${png.toString('base64')}${BEL}\n`;
}

/** A black-and-white bitmap, row-major, one byte per pixel (1 = black). */
interface Bitmap { width: number; height: number; black: Uint8Array }

function encodeSixel(png: Buffer, maxWidthPx: number): string {
  const bitmap = toBitmap(PNG.sync.read(png), Math.max(1, Math.floor(maxWidthPx)));
  const { width, height } = bitmap;
  let out = `${ESC}Pq"1;1;${width};${height}#0;2;100;100;100#1;2;0;0;0`;
  const bands: string[] = [];
  for (let top = 0; top < height; top += 6) {
    const layers: string[] = [];
    for (const colour of [0, 1]) {
      const row = sixelRow(bitmap, top, colour);
      if (row) layers.push(`#${colour}${row}`);
    }
    bands.push(layers.join('$'));
  }
  out += bands.join('-');
  return `${out}${ST}\n`;
}

/** One colour's six-pixel band starting at row `top`, run-length compressed; empty when the colour has no pixel in it. */
function sixelRow({ width, height, black }: Bitmap, top: number, colour: number): string {
  const codes = new Uint8Array(width);
  let any = false;
  for (let x = 0; x < width; x++) {
    let bits = 0;
    for (let bit = 0; bit < 6 && top + bit < height; bit++) {
      if (black[(top + bit) * width + x] === colour) bits |= 1 << bit;
    }
    codes[x] = bits;
    if (bits) any = true;
  }
  if (!any) return '';
  let end = width;
  while (end > 0 && codes[end - 1] === 0) end--; // trailing empty sixels draw nothing
  let row = '';
  for (let x = 0; x < end;) {
    let run = 1;
    while (x + run < end && codes[x + run] === codes[x]) run++;
    const char = String.fromCharCode(63 + codes[x]);
    row += run > 3 ? `!${run}${char}` : char.repeat(run);
    x += run;
  }
  return row;
}

/**
 * Thresholds the image to black and white (luma < 128 is black, transparency counts as white paper), first
 * area-averaging it down by the smallest integer factor that brings its width within `maxWidth`.
 */
function toBitmap(image: PNG, maxWidth: number): Bitmap {
  const factor = Math.max(1, Math.ceil(image.width / maxWidth));
  const width = Math.ceil(image.width / factor);
  const height = Math.ceil(image.height / factor);
  const black = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      let sum = 0;
      let count = 0;
      for (let sy = y * factor; sy < Math.min((y + 1) * factor, image.height); sy++) {
        for (let sx = x * factor; sx < Math.min((x + 1) * factor, image.width); sx++) {
          sum += lumaOnWhite(image.data, (sy * image.width + sx) * 4);
          count++;
        }
      }
      black[y * width + x] = sum / count < 128 ? 1 : 0;
    }
  }
  return { width, height, black };
}

/** Rec. 601 luma of an RGBA pixel composited over white. */
function lumaOnWhite(rgba: Buffer, offset: number): number {
  const luma = 0.299 * rgba[offset] + 0.587 * rgba[offset + 1] + 0.114 * rgba[offset + 2];
  const alpha = rgba[offset + 3] / 255;
  return luma * alpha + 255 * (1 - alpha);
}
