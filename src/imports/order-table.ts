import type { FileHandle } from 'node:fs/promises';
import { readCsvStream, UnreadableFile, type CsvLimits, type CsvStream } from './csv-table.js';
import { bomBytes, textDecoderFor, type TextEncodingOf } from './decode.js';
import { MAPPING_PRESETS, type ResolvedMapping } from './mapping.js';
import { looksLikeXml, readXmlTable } from './xml-table.js';

/** Enough of a file's start to tell XML from CSV. */
const HEAD_BYTES = 1024;

const xmlPresets = () => Object.entries(MAPPING_PRESETS).filter(([, preset]) => preset.xml).map(([name]) => name).join(' and ');

/**
 * An order file as a table, whatever its format: XML (told by its content) is read by the mapping's XML format, anything
 * else as CSV. Either gives the same rows to the same pipeline, so exactly-once keys and result files work alike.
 */
export async function readOrderTable(file: FileHandle, like: TextEncodingOf, limits: CsvLimits, mapping: ResolvedMapping): Promise<CsvStream | UnreadableFile> {
  const head = Buffer.alloc(HEAD_BYTES);
  const { bytesRead } = await file.read(head, 0, head.length, bomBytes(like).length);
  const xml = looksLikeXml(textDecoderFor(like).write(head.subarray(0, bytesRead)));
  const name = mapping.name ? `the mapping ${mapping.name}` : 'this import\'s mapping';
  if (xml && !mapping.xml) return new UnreadableFile(1, `is an XML file, and ${name} reads CSV files: XML order files are read with the presets ${xmlPresets()}`);
  if (!xml && mapping.xml) return new UnreadableFile(1, `is not an XML file: ${name} reads ${mapping.xml.title}`);
  return xml ? readXmlTable(file, like, limits, mapping.xml!) : readCsvStream(file, like, limits);
}
