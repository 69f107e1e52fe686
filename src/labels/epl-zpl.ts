import bwipjs from 'bwip-js';
import { eplCommands } from './epl.js';

/**
 * One EPL2 label as the ZPL II label that prints like it at 203 dpi. No EPL renderer exists offline, so packdesk
 * previews an EPL label by rendering this ZPL. Set-up commands (speed, density, code page, media) draw nothing.
 */

/** 4×6 in at 203 dpi, when the label sets no q width or Q length. */
const DEFAULT_SIZE = { width: 812, length: 1218 };
const ORIENTATIONS = ['N', 'R', 'I', 'B'] as const;
type Orientation = (typeof ORIENTATIONS)[number];

/** EPL's resident fonts at 203 dpi: cell height and character pitch (8–32 dot cell plus the inter-character gap). */
const FONTS: Readonly<Record<string, { height: number; pitch: number }>> = {
  1: { height: 12, pitch: 10 },
  2: { height: 16, pitch: 12 },
  3: { height: 20, pitch: 14 },
  4: { height: 24, pitch: 16 },
  5: { height: 48, pitch: 36 },
};
/** ZPL font 0 advances 0.45–0.53 × its width per character (lower case – capitals): widths are scaled so a text runs about as long as EPL's monospaced one. */
const FONT0_ADVANCE = 0.5;

export function eplToZpl(label: Uint8Array): string {
  let width = DEFAULT_SIZE.width;
  let length = DEFAULT_SIZE.length;
  let fields: string[] = [];
  // ZT/ZB only choose which end of the image buffer leaves the printer first: the preview shows the buffer as designed, origin top left
  for (const { name, args, data } of eplCommands(label)) {
    if (name === 'N') fields = [];
    else if (name === 'q') width = int(args[0]) ?? width;
    else if (name === 'Q') length = int(args[0]) ?? length;
    else if (name === 'R') fields.push(`^LH${int(args[0]) ?? 0},${int(args[1]) ?? 0}`);
    else if (name === 'A') fields.push(...textField(args));
    else if (name === 'B') fields.push(...linearBarcode(args));
    else if (name === 'b') fields.push(...twoDimensionalBarcode(args));
    else if (name === 'LO' || name === 'LW' || name === 'LE') fields.push(...line(name, args));
    else if (name === 'X') fields.push(...boxOutline(args));
    else if (name === 'GW' && data) fields.push(...graphic(args, data));
  }
  return ['^XA', '^CI28', `^PW${width}`, `^LL${length}`, '^LH0,0', ...fields, '^XZ'].join('\n');
}

/** `A x,y,rotation,font,h-mult,v-mult,N|R,"DATA"` */
function textField(args: string[]): string[] {
  const [x, y, rotation] = args.slice(0, 3).map(int);
  if (x === undefined || y === undefined || args.length < 8) return [];
  const font = FONTS[args[3]!] ?? FONTS[3]!;
  const text = args.slice(7).join(',');
  const along = text.length * font.pitch * (int(args[4]) ?? 1);
  const across = font.height * (int(args[5]) ?? 1);
  const turn = (rotation ?? 0) % 4; // 4–7 are the same turns for Asian fonts
  const origin = fieldOrigin(x, y, turn, along, across);
  const at = `^FO${origin.x},${origin.y}`;
  const zplFont = `^A0${ORIENTATIONS[turn]},${across},${Math.round((font.pitch * (int(args[4]) ?? 1)) / FONT0_ADVANCE)}`;
  if (args[6] !== 'R') return [`${at}${zplFont}^FH\\^FD${fieldData(text)}^FS`];
  // EPL prints reverse text white in a black cell; ^FR alone would only invert what is already under it
  const [boxWidth, boxHeight] = turn % 2 === 0 ? [along, across] : [across, along];
  return [`${at}^GB${boxWidth},${boxHeight},${Math.min(boxWidth, boxHeight)}^FS`, `${at}${zplFont}^FR^FH\\^FD${fieldData(text)}^FS`];
}

/** `B x,y,rotation,type,narrow,wide,height,B|N,"DATA"` */
function linearBarcode(args: string[]): string[] {
  const [x, y, rotation, , narrowArg, wideArg, height] = args.slice(0, 7).map(int);
  if (x === undefined || y === undefined || height === undefined || args.length < 9) return [];
  const turn = (rotation ?? 0) % 4;
  const symbol = zplLinearSymbol(args[3]!, args.slice(8).join(','), ORIENTATIONS[turn]!, height, args[7] === 'B' ? 'Y' : 'N');
  if (!symbol) return [];
  const narrow = Math.max(1, narrowArg ?? 2);
  const ratio = Math.min(3, Math.max(2, (wideArg ?? narrow * 3) / narrow));
  // only the bars turn about EPL's origin: the human-readable line lies outside them, as in ZPL
  const along = turn >= 2 ? barsLength(symbol.bwipId, symbol.data, narrow, narrow * ratio) : 0;
  const origin = fieldOrigin(x, y, turn, along, height);
  return [`^BY${narrow},${ratio.toFixed(1)},${height}`, `^FO${origin.x},${origin.y}${symbol.command}^FH\\^FD${fieldData(symbol.fieldData)}^FS`];
}

interface LinearSymbol {
  command: string;
  fieldData: string;
  /** The symbology and data as bwip-js encodes them, to measure the bars. */
  bwipId: string;
  data: string;
}

function zplLinearSymbol(type: string, data: string, o: Orientation, height: number, hri: 'Y' | 'N'): LinearSymbol | undefined {
  const digits = data.replace(/\D/g, '');
  switch (type) {
    case '1':
    case '1A':
    case '1B':
    case '1C': {
      const code128 = { bwipId: 'code128', data };
      if (type === '1C' && /^(?:\d\d)+$/.test(data)) return { ...code128, command: `^BC${o},${height},${hri},N,N`, fieldData: `>;${data}` };
      // a literal > would need the >< escape, which zebrash misreads: such data goes to automatic mode instead
      if (type === '1B' && !data.includes('>')) return { ...code128, command: `^BC${o},${height},${hri},N,N`, fieldData: `>:${data}` };
      // automatic mode packs the data as EPL's type 1 does; ZPL's subset A takes digit pairs, so 1A goes here too
      return { ...code128, command: `^BC${o},${height},${hri},N,N,A`, fieldData: data };
    }
    case '3':
    case '3C':
      return { command: `^B3${o},${type === '3C' ? 'Y' : 'N'},${height},${hri},N`, fieldData: data, bwipId: 'code39', data };
    case '2':
    case '2C':
      return { command: `^B2${o},${height},${hri},N,${type === '2C' ? 'Y' : 'N'}`, fieldData: digits, bwipId: 'interleaved2of5', data: digits };
    case 'E30':
      return { command: `^BE${o},${height},${hri},N`, fieldData: digits.slice(0, 12), bwipId: 'ean13', data: digits.slice(0, 12) };
    case 'UA0':
      // UPC-A is EAN-13 with a leading 0, bar for bar; zebrash draws ^BE but not ^BU
      return { command: `^BE${o},${height},${hri},N`, fieldData: `0${digits.slice(0, 11)}`, bwipId: 'ean13', data: `0${digits.slice(0, 11)}` };
    case 'E80':
      return { command: `^B8${o},${height},${hri},N`, fieldData: digits.slice(0, 7), bwipId: 'ean8', data: digits.slice(0, 7) };
    default:
      return undefined;
  }
}

/** Length of the bars in dots; Code 39 and Interleaved 2 of 5 know only narrow and wide elements. */
function barsLength(bwipId: string, data: string, narrow: number, wide: number): number {
  const twoWidths = bwipId === 'code39' || bwipId === 'interleaved2of5';
  try {
    const [symbol] = bwipjs.raw(bwipId, data, {});
    if (!symbol || !('sbs' in symbol)) return 0;
    return Math.round(symbol.sbs.reduce((sum, modules) => sum + (twoWidths ? (modules > 1 ? wide : narrow) : modules * narrow), 0));
  } catch {
    return 0; // data the symbology cannot encode: the renderer will draw nothing either
  }
}

/** `b x,y,Q|D|P,options…,"DATA"`: options carry a one-letter prefix (s5, eH, h6 …). */
function twoDimensionalBarcode(args: string[]): string[] {
  const [x, y] = args.slice(0, 2).map(int);
  if (x === undefined || y === undefined || args.length < 4) return [];
  const data = fieldData(args[args.length - 1]!);
  const options = args.slice(3, -1).join(',');
  const option = (prefix: string, value = '\\d+') => new RegExp(`${prefix}(${value})`).exec(options)?.[1];
  switch (args[2]) {
    case 'Q': {
      const errorCorrection = option('e', '[LMQH]') ?? 'M';
      // a QR code prints ^BY-height dots below its ^FO: reset that height to ZPL's default 10 and lift the field by as much
      return ['^BY2,3,10', `^FO${x},${Math.max(0, y - 10)}^BQN,2,${option('s') ?? 3}^FH\\^FD${errorCorrection}A,${data}^FS`];
    }
    case 'D': {
      const module = Number(option('h') ?? 5);
      const size = option('c') || option('r') ? `,${option('c') ?? 0},${option('r') ?? 0}` : '';
      // EPL draws a one-module quiet zone around the symbol
      return [`^FO${x + module},${y + module}^BXN,${module},200${size}^FH\\^FD${data}^FS`];
    }
    case 'P': {
      const [maxWidth, maxHeight] = args.slice(3, 5).map(int);
      const module = Number(option('x') ?? 3);
      // f1, the default, centres the symbol on x,y; its final size is only known to the printer, so centre its maximum box
      const centred = option('f') !== '0' && maxWidth !== undefined && maxHeight !== undefined;
      const origin = centred ? { x: Math.max(0, x - Math.round(maxWidth / 2)), y: Math.max(0, y - Math.round(maxHeight / 2)) } : { x, y };
      const shape = `${option('y') ?? module * 4},${option('s') ?? 0},${option('l') ?? ''},${option('r') ?? ''},${option('t') === '1' ? 'Y' : 'N'}`;
      return [`^BY${module}`, `^FO${origin.x},${origin.y}^B7N,${shape}^FH\\^FD${data}^FS`];
    }
    default:
      return [];
  }
}

/** `LO|LW|LE x,y,width,height`: a black, white or XOR bar. */
function line(name: 'LO' | 'LW' | 'LE', args: string[]): string[] {
  const [x, y, width, height] = args.slice(0, 4).map(int);
  if (x === undefined || y === undefined || !width || !height) return [];
  const bar = `^GB${width},${height},${Math.min(width, height)}${name === 'LW' ? ',W' : ''}^FS`;
  // ^FR prints a field reversed over what is already there: exactly EPL's exclusive-or line
  return [`^FO${x},${y}${name === 'LE' ? '^FR' : ''}${bar}`];
}

/** `X x1,y1,thickness,x2,y2`: a box outline. */
function boxOutline(args: string[]): string[] {
  const [x1, y1, thickness, x2, y2] = args.slice(0, 5).map(int);
  if (x1 === undefined || y1 === undefined || x2 === undefined || y2 === undefined) return [];
  return [`^FO${Math.min(x1, x2)},${Math.min(y1, y2)}^GB${Math.abs(x2 - x1)},${Math.abs(y2 - y1)},${Math.max(1, thickness ?? 1)}^FS`];
}

/** `GW x,y,bytesPerRow,rows,DATA`: in EPL a 1 bit is a white dot, in ZPL ^GF a black one. */
function graphic(args: string[], data: Buffer): string[] {
  const [x, y, bytesPerRow] = args.slice(0, 3).map(int);
  if (x === undefined || y === undefined || !bytesPerRow || data.length === 0) return [];
  const inverted = Buffer.from(data.map((byte) => ~byte & 0xff));
  return [`^FO${x},${y}^GFA,${data.length},${data.length},${bytesPerRow},${inverted.toString('hex').toUpperCase()}^FS`];
}

/** EPL turns a field about its origin (its top-left unturned); ZPL's ^FO is the top-left of the turned field. */
function fieldOrigin(x: number, y: number, turn: number, along: number, across: number): { x: number; y: number } {
  const [left, top] = turn === 1 ? [x - across, y] : turn === 2 ? [x - along, y - across] : turn === 3 ? [x, y - along] : [x, y];
  return { x: Math.max(0, left), y: Math.max(0, top) };
}

/** `^FH\` field data: ZPL's command characters, the escape itself and control bytes written as hex. */
function fieldData(text: string): string {
  return text.replace(/[\\^~\x00-\x1f\x7f]/g, (c) => `\\${c.charCodeAt(0).toString(16).padStart(2, '0').toUpperCase()}`);
}

function int(text: string | undefined): number | undefined {
  return text !== undefined && /^\s*-?\d+\s*$/.test(text) ? Number(text) : undefined;
}
