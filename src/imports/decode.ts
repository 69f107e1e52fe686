import { isAscii } from 'node:buffer';
import { createHash } from 'node:crypto';
import type { FileHandle } from 'node:fs/promises';
import chardet from 'chardet';
import iconv from 'iconv-lite';

/** Text encodings order files come in: UTF-8 (with or without BOM), UTF-16 with BOM (Excel "Unicode text"), Windows-1250, ISO-8859-2. */
export type FileEncoding = 'utf-8' | 'utf-16le' | 'utf-16be' | 'windows-1250' | 'iso-8859-2';

export interface TextEncodingOf {
  encoding: FileEncoding;
  /** The file began with a byte order mark (written back on the result files). */
  bom: boolean;
}

/** What one read of an order file tells: its content hash, its size and how its text is encoded. */
export interface ScannedFile extends TextEncodingOf {
  sha256: string;
  size: number;
}

/** Files are read in chunks of this size: every step between two chunks gives the event loop its turn. */
export const CHUNK_BYTES = 64 * 1024;
/** An 8-bit encoding is guessed from at most this much of the file's non-ASCII chunks. */
const SAMPLE_BYTES = 256 * 1024;

const CENTRAL_EUROPEAN_LETTERS = new Set('áäčďéěëíĺľňóôöőŕřšťúůüűýžąćęłńśźżÁÄČĎÉĚËÍĹĽŇÓÔÖŐŔŘŠŤÚŮÜŰÝŽĄĆĘŁŃŚŹŻ');

/** Letters of Czech, Slovak and Polish minus stray symbols (©, », ±, ¶ …) that a wrong 8-bit guess produces. */
function plausibility(text: string): number {
  let score = 0;
  for (const ch of text) {
    if (CENTRAL_EUROPEAN_LETTERS.has(ch)) score++;
    else if (ch >= '\u00a0' && ch <= '\u02ff' && !/\p{L}/u.test(ch)) score--;
  }
  return score;
}

/** Windows-1250 or ISO-8859-2: they differ in a few letters (Š Ť Ž Ś Ź Ą and their small forms). */
function centralEuropeanEncoding(bytes: Buffer): 'windows-1250' | 'iso-8859-2' {
  // 0x80–0x9F are printable in Windows-1250 and control codes in ISO-8859-2, which no text file holds
  if (bytes.some((b) => b >= 0x80 && b <= 0x9f)) return 'windows-1250';
  const windows = plausibility(iconv.decode(bytes, 'windows-1250'));
  const iso = plausibility(iconv.decode(bytes, 'iso-8859-2'));
  if (windows !== iso) return windows > iso ? 'windows-1250' : 'iso-8859-2';
  const guesses = chardet.analyse(bytes).map((m) => m.name.toLowerCase());
  const isoRank = guesses.indexOf('iso-8859-2');
  const windowsRank = guesses.indexOf('windows-1250');
  return isoRank !== -1 && (windowsRank === -1 || isoRank < windowsRank) ? 'iso-8859-2' : 'windows-1250';
}

const BOMS: readonly { bytes: readonly number[]; encoding: FileEncoding }[] = [
  { bytes: [0xef, 0xbb, 0xbf], encoding: 'utf-8' },
  { bytes: [0xff, 0xfe], encoding: 'utf-16le' },
  { bytes: [0xfe, 0xff], encoding: 'utf-16be' },
];

function bomOf(head: Buffer) {
  return BOMS.find(({ bytes }) => bytes.every((b, i) => head[i] === b));
}

/**
 * Reads the file once, chunk by chunk: its SHA-256, its size, and its encoding (BOM → its encoding; valid UTF-8 →
 * UTF-8; otherwise Windows-1250 or ISO-8859-2, guessed from a sample of its non-ASCII chunks).
 */
export async function scanOrderFile(file: FileHandle): Promise<ScannedFile> {
  const hash = createHash('sha256');
  const utf8 = new TextDecoder('utf-8', { fatal: true });
  let validUtf8 = true;
  let size = 0;
  let head = Buffer.alloc(0);
  const sample: Buffer[] = [];
  let sampled = 0;
  for await (const chunk of file.createReadStream({ start: 0, autoClose: false, highWaterMark: CHUNK_BYTES }) as AsyncIterable<Buffer>) {
    hash.update(chunk);
    if (head.length < 3) head = Buffer.concat([head, chunk.subarray(0, 3 - head.length)]);
    size += chunk.length;
    if (isAscii(chunk)) continue;
    if (validUtf8) {
      try {
        utf8.decode(chunk, { stream: true });
      } catch {
        validUtf8 = false;
      }
    }
    if (sampled < SAMPLE_BYTES) {
      sample.push(chunk);
      sampled += chunk.length;
    }
  }
  if (validUtf8) {
    try {
      utf8.decode();
    } catch {
      validUtf8 = false; // the file ends inside a character
    }
  }
  const sha256 = hash.digest('hex');
  const bom = bomOf(head);
  if (bom) return { sha256, size, encoding: bom.encoding, bom: true };
  // a file that starts with a UTF-8 BOM is UTF-8 even if a byte further on is broken (read as U+FFFD)
  if (validUtf8) return { sha256, size, encoding: 'utf-8', bom: false };
  return { sha256, size, encoding: centralEuropeanEncoding(Buffer.concat(sample)), bom: false };
}

/** A decoder for the file's text after its BOM, chunk by chunk (a character split between chunks is kept for the next). */
export function textDecoderFor(like: TextEncodingOf): { write(chunk: Buffer): string; end(): string } {
  if (like.encoding === 'utf-8') {
    const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
    return { write: (chunk) => decoder.decode(chunk, { stream: true }), end: () => decoder.decode() };
  }
  const decoder = iconv.getDecoder(like.encoding, { stripBOM: false });
  return { write: (chunk) => decoder.write(chunk), end: () => decoder.end() ?? '' };
}

/** Text in the encoding of the file it answers (its BOM comes first: `bomBytes`). */
export function encodeLike(text: string, like: TextEncodingOf): Buffer {
  return iconv.encode(text, like.encoding);
}

/** The byte order mark written at the start of a file that answers one with a BOM. */
export function bomBytes(like: TextEncodingOf): Buffer {
  return like.bom ? Buffer.from(BOMS.find((b) => b.encoding === like.encoding)!.bytes) : Buffer.alloc(0);
}
