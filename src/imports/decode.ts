import chardet from 'chardet';
import iconv from 'iconv-lite';

/** Text encodings order files come in: UTF-8 (with or without BOM), UTF-16 with BOM (Excel "Unicode text"), Windows-1250, ISO-8859-2. */
export type FileEncoding = 'utf-8' | 'utf-16le' | 'utf-16be' | 'windows-1250' | 'iso-8859-2';

export interface DecodedFile {
  text: string;
  encoding: FileEncoding;
  /** The file began with a byte order mark (written back on the result files). */
  bom: boolean;
}

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

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** BOM → its encoding; valid UTF-8 → UTF-8; otherwise Windows-1250 or ISO-8859-2. */
export function decodeOrderFile(bytes: Buffer): DecodedFile {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return { text: strictUtf8Or(bytes.subarray(3)), encoding: 'utf-8', bom: true };
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return { text: iconv.decode(bytes.subarray(2), 'utf-16le'), encoding: 'utf-16le', bom: true };
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return { text: iconv.decode(bytes.subarray(2), 'utf-16be'), encoding: 'utf-16be', bom: true };
  try {
    return { text: strictUtf8.decode(bytes), encoding: 'utf-8', bom: false };
  } catch {
    const encoding = centralEuropeanEncoding(bytes);
    return { text: iconv.decode(bytes, encoding), encoding, bom: false };
  }
}

/** A file that starts with a UTF-8 BOM is UTF-8 even if a byte further on is broken (shown as U+FFFD). */
function strictUtf8Or(bytes: Buffer): string {
  try {
    return strictUtf8.decode(bytes);
  } catch {
    return bytes.toString('utf8');
  }
}

/** Text in the encoding (and BOM) of the file it answers, so the system that wrote the file can read it back. */
export function encodeLikeInput(text: string, like: Pick<DecodedFile, 'encoding' | 'bom'>): Buffer {
  const body = iconv.encode(text, like.encoding);
  if (!like.bom) return body;
  const bom = like.encoding === 'utf-8' ? [0xef, 0xbb, 0xbf] : like.encoding === 'utf-16le' ? [0xff, 0xfe] : like.encoding === 'utf-16be' ? [0xfe, 0xff] : [];
  return Buffer.concat([Buffer.from(bom), body]);
}
