import { LabelFormatError } from './errors.js';

/**
 * A binary-safe reader of EPL2 (Eltron/Zebra page mode) streams. Graphics (`GW`, `GM`) carry raw bytes that may hold
 * newlines, `N` or `P1`; their length is announced in the command, so those bytes are skipped, never read as commands.
 */

/** One EPL2 command: its name, its comma-separated arguments (quotes removed) and, for a graphic, its raw bytes. */
export type EplCommand = { name: string; args: string[]; data?: Buffer };

/** EPL2 command names; a line's name is the longest of these it starts with (EPL is case-sensitive: `B` ≠ `b`). */
const COMMAND_NAMES = [
  'A', 'AUTOFR', 'B', 'b', 'C', 'D', 'dump', 'eR', 'EI', 'EK', 'ES', 'f', 'FE', 'FI', 'FK', 'FR', 'FS', 'GG', 'GI', 'GK',
  'GM', 'GP', 'GW', 'I', 'i', 'JB', 'JC', 'JF', 'LE', 'LO', 'LS', 'LW', 'M', 'N', 'oB', 'oE', 'oH', 'oM', 'oR', 'oW', 'O',
  'P', 'PA', 'q', 'Q', 'r', 'R', 'S', 'TD', 'TS', 'TT', 'U', 'UA', 'UB', 'UE', 'UF', 'UG', 'UI', 'UM', 'UN', 'UP', 'UQ',
  'US', 'V', 'W', 'xa', 'X', 'Y', 'ZB', 'ZT', '?', '^@', '^default', '^ee',
].sort((a, b) => b.length - a.length);

/** `P<copies>[,<copies of each>]`, or a bare `P` as in Zebra's own GW example. */
const PRINT_LINE = /^P *(?:\d+ *(?:, *\d+ *)?)?$/;
/** `GWx,y,bytesPerRow,rows` then a comma or a line ending ("[cr…]<lf>"), then bytesPerRow × rows raw bytes. */
const GW_HEAD = /^GW *(\d+) *, *(\d+) *, *(\d+) *, *(\d+) *(?:,|\r*\n|$)/;
/** `GM"NAME"size` then a line ending, then `size` bytes of a PCX file. */
const GM_HEAD = /^GM *"([^"]*)" *(\d+) *\r*\n/;
/** Longer than any graphic header a printer accepts. */
const HEAD_WINDOW = 64;

interface EplLine {
  /** Offset just past the line ending (or the graphic's bytes and their optional line ending). */
  end: number;
  /** The line without its line ending; for a graphic, its header. */
  text: string;
  graphic?: EplCommand;
}

/**
 * The labels of an EPL2 stream: each runs from the end of the previous label (so set-up lines before its `N` are
 * its own) through its `P` print line and that line's ending. Bytes after the last print line belong to no label.
 */
export function eplLabels(content: Uint8Array): Buffer[] {
  const bytes = asBuffer(content);
  const labels: Buffer[] = [];
  let labelStart = 0;
  let cleared = false;
  for (const line of eplLines(bytes)) {
    if (line.graphic) continue;
    const text = line.text.trimEnd();
    if (text === 'N') cleared = true;
    // a print before any N prints whatever the printer last held, not a label of this stream
    else if (cleared && PRINT_LINE.test(text)) {
      labels.push(Buffer.from(bytes.subarray(labelStart, line.end)));
      labelStart = line.end;
    }
  }
  return labels;
}

/** The commands of an EPL2 label (or stream), blank lines left out. */
export function eplCommands(label: Uint8Array): EplCommand[] {
  const commands: EplCommand[] = [];
  for (const line of eplLines(asBuffer(label))) {
    if (line.graphic) commands.push(line.graphic);
    else if (line.text.trim() !== '') commands.push(parseCommand(line.text.trimEnd()));
  }
  return commands;
}

function* eplLines(bytes: Buffer): Generator<EplLine> {
  let position = 0;
  while (position < bytes.length) {
    const line = graphicAt(bytes, position) ?? textLineAt(bytes, position);
    yield line;
    position = line.end;
  }
}

function textLineAt(bytes: Buffer, start: number): EplLine {
  const newline = bytes.indexOf(0x0a, start);
  const contentEnd = newline === -1 ? bytes.length : newline;
  const text = bytes.toString('latin1', start, contentEnd);
  return { end: newline === -1 ? bytes.length : newline + 1, text: text.endsWith('\r') ? text.slice(0, -1) : text };
}

/** A `GW` or `GM` command with its raw bytes, or undefined when the line at `start` is not one. */
function graphicAt(bytes: Buffer, start: number): EplLine | undefined {
  if (bytes[start] !== 0x47 /* G */ || (bytes[start + 1] !== 0x57 /* W */ && bytes[start + 1] !== 0x4d /* M */)) return undefined;
  const windowEnd = Math.min(bytes.length, start + HEAD_WINDOW);
  const head = bytes.toString('latin1', start, windowEnd);
  let args: string[];
  let size: number;
  let headLength: number;
  const gw = GW_HEAD.exec(head);
  const gm = gw ? null : GM_HEAD.exec(head);
  if (gw) {
    // "$" only stands for a header cut off by the end of the stream, not by the end of the window
    if (gw[0].length === head.length && windowEnd < bytes.length && !/[,\n]$/.test(gw[0])) return undefined;
    args = gw.slice(1, 5) as string[];
    size = Number(args[2]) * Number(args[3]);
    headLength = gw[0].length;
  } else if (gm) {
    args = [gm[1]!, gm[2]!];
    size = Number(gm[2]);
    headLength = gm[0].length;
  } else {
    return undefined;
  }
  const name = gw ? 'GW' : 'GM';
  const dataStart = start + headLength;
  const dataEnd = dataStart + size;
  if (dataEnd > bytes.length) throw new LabelFormatError(null, `is not EPL (a ${name} graphic is cut short)`);
  // a line ending after the data is optional ("it doesn't hurt either"), and belongs to the graphic
  let end = dataEnd;
  if (bytes[end] === 0x0d && bytes[end + 1] === 0x0a) end += 2;
  else if (bytes[end] === 0x0a) end += 1;
  return { end, text: head.slice(0, headLength).replace(/[,\r\n]+$/, ''), graphic: { name, args, data: bytes.subarray(dataStart, dataEnd) } };
}

function parseCommand(text: string): EplCommand {
  const known = COMMAND_NAMES.find((name) => text.startsWith(name));
  // an unknown command keeps its text: its leading letters as the name, the rest as arguments
  const name = known ?? (/^[A-Za-z]+/.exec(text)?.[0] || text[0]!);
  const rest = text.slice(name.length);
  return { name, args: rest === '' ? [] : splitArguments(rest) };
}

/** Splits on commas outside double quotes; a quoted part is unquoted, and a backslash makes the next character literal. */
function splitArguments(text: string): string[] {
  const args: string[] = [];
  let current = '';
  let quoted = false;
  let hadQuotes = false;
  const finish = () => {
    args.push(hadQuotes ? current : current.trim());
    current = '';
    hadQuotes = false;
  };
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    if (quoted) {
      if (char === '\\' && i + 1 < text.length) current += text[++i];
      else if (char === '"') quoted = false;
      else current += char;
    } else if (char === '"') {
      quoted = true;
      hadQuotes = true;
    } else if (char === ',') {
      finish();
    } else {
      current += char;
    }
  }
  finish();
  return args;
}

function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}
