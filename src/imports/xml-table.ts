import type { FileHandle } from 'node:fs/promises';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { UnreadableFile, type CsvLimits, type CsvRecord, type CsvStream } from './csv-table.js';
import { bomBytes, CHUNK_BYTES, textDecoderFor, type TextEncodingOf } from './decode.js';
import type { XmlNode, XmlOrderFormat } from './presets/types.js';

/** An order element longer than this is refused: each is parsed whole, in one turn of the event loop. */
export const MAX_ORDER_ELEMENT_CHARS = 256 * 1024;
/** Elements nested deeper than this make no order file. */
const MAX_DEPTH = 64;
/** Characters scanned before the event loop gets its turn again. */
const CHARS_PER_SLICE = 64 * 1024;

/** The result and errors files of an XML input are CSV: with `;`, which Excel in the shops' countries opens as columns. */
const RESULT_DELIMITER = ';';

/** Whether the text the file starts with is XML (its first character after white space is `<`). */
export function looksLikeXml(head: string): boolean {
  return /^\s*</.test(head);
}

// typed `Symbol` (the wrapper object) by the package; it is a symbol
const META = XMLParser.getMetaDataSymbol() as unknown as symbol;
/** Entities are those of XML itself and character references (`&#269;`); a document type, which could declare more, is refused before. */
const parser = new XMLParser({
  ignoreAttributes: true, removeNSPrefix: true, parseTagValue: false, trimValues: true, processEntities: true, htmlEntities: true,
  captureMetaData: true, maxNestedTags: MAX_DEPTH,
});

const localName = (name: string) => name.slice(name.indexOf(':') + 1);

function countLines(text: string, from: number, to: number): number {
  let lines = 0;
  for (let at = text.indexOf('\n', from); at !== -1 && at < to; at = text.indexOf('\n', at + 1)) lines++;
  return lines;
}

/** The index of the `>` that ends the tag starting at `start`, past quoted attribute values; -1 when the file ends first. */
function tagEnd(text: string, start: number): number {
  let quote = '';
  for (let at = start + 1; at < text.length; at++) {
    const ch = text[at]!;
    if (quote) {
      if (ch === quote) quote = '';
    } else if (ch === '"' || ch === "'") {
      quote = ch;
    } else if (ch === '>') {
      return at;
    }
  }
  return -1;
}

async function readText(file: FileHandle, like: TextEncodingOf): Promise<string> {
  const decoder = textDecoderFor(like);
  const parts: string[] = [];
  for await (const chunk of file.createReadStream({ start: bomBytes(like).length, autoClose: false, highWaterMark: CHUNK_BYTES }) as AsyncIterable<Buffer>) {
    parts.push(decoder.write(chunk));
  }
  parts.push(decoder.end());
  return parts.join('');
}

interface OpenElement {
  name: string;
  start: number;
}

/**
 * The rows of an XML order file, as a CSV file's records: each order element (found by `format.orderPaths`) is checked
 * and parsed on its own with fast-xml-parser, and gives a row per order line with the order's values; a row's number is
 * the line of the file where its element begins. A document type (`<!DOCTYPE`, which may declare entities that expand
 * to far more than the file) refuses the whole file, as does any element that is not well-formed.
 */
async function* xmlRecords(file: FileHandle, like: TextEncodingOf, limits: CsvLimits, format: XmlOrderFormat): AsyncGenerator<CsvRecord> {
  const text = await readText(file, like);
  const unreadable = (at: number, message: string) => new UnreadableFile(1 + countLines(text, 0, at), message);
  const orderPaths = new Set(format.orderPaths);
  const roots = new Set(format.orderPaths.map((path) => path.split('/')[0]));
  const open: OpenElement[] = [];
  let order: { start: number; depth: number; line: number } | undefined;
  let line = 1;
  let counted = 0;
  let rows = 0;
  let rootSeen = false;
  let sliceStart = 0;
  for (let at = 0; ;) {
    const lt = text.indexOf('<', at);
    const between = lt === -1 ? text.slice(at) : text.slice(at, lt);
    if (open.length === 0 && between.trim() !== '') throw unreadable(at, `is not well-formed XML: there is text outside its root element (line ${1 + countLines(text, 0, at)})`);
    if (lt === -1) break;
    const closed = (marker: string, what: string) => {
      const end = text.indexOf(marker, lt);
      if (end === -1) throw unreadable(lt, `is not well-formed XML: ${what} at line ${1 + countLines(text, 0, lt)} is never closed`);
      return end + marker.length;
    };
    if (text.startsWith('<!--', lt)) at = closed('-->', 'a comment');
    else if (text.startsWith('<![CDATA[', lt)) at = closed(']]>', 'a CDATA section');
    else if (text.startsWith('<?', lt)) at = closed('?>', 'a processing instruction');
    else if (text.startsWith('<!', lt)) {
      throw unreadable(lt, `declares a document type or entities (line ${1 + countLines(text, 0, lt)}): XML order files with them are refused, `
        + 'as their entities can expand to far more than the file holds');
    } else {
      const end = tagEnd(text, lt);
      if (end === -1) throw unreadable(lt, `is not well-formed XML: the tag at line ${1 + countLines(text, 0, lt)} is never closed`);
      const name = /^<\/?([^\s/>]+)/.exec(text.slice(lt, Math.min(end + 1, lt + 256)))?.[1] ?? '';
      if (text[lt + 1] === '/') {
        const element = open.pop();
        if (element?.name !== name) {
          throw unreadable(lt, `is not well-formed XML: </${name}> at line ${1 + countLines(text, 0, lt)} `
            + (element ? `does not close <${element.name}> of line ${1 + countLines(text, 0, element.start)}` : 'closes no element'));
        }
        if (order && open.length === order.depth) {
          yield* orderRows(text.slice(order.start, end + 1), order.line);
          order = undefined;
        }
      } else {
        if (open.length === 0) {
          if (rootSeen) throw unreadable(lt, `is not well-formed XML: a second root element <${name}> begins at line ${1 + countLines(text, 0, lt)}`);
          rootSeen = true;
          if (!roots.has(localName(name))) throw unreadable(lt, `is not ${format.title}: its root element is <${name}>`);
        }
        const path = [...open.map((e) => localName(e.name)), localName(name)].join('/');
        if (!order && orderPaths.has(path)) {
          line += countLines(text, counted, lt);
          counted = lt;
          order = { start: lt, depth: open.length, line };
        }
        if (text[end - 1] === '/') {
          if (order?.start === lt) {
            yield* orderRows(text.slice(lt, end + 1), order.line);
            order = undefined;
          }
        } else {
          open.push({ name, start: lt });
          if (open.length > MAX_DEPTH) throw unreadable(lt, `is not an order file: its elements are nested more than ${MAX_DEPTH} deep (line ${1 + countLines(text, 0, lt)})`);
        }
      }
      at = end + 1;
    }
    if (order && at - order.start > MAX_ORDER_ELEMENT_CHARS) {
      throw unreadable(order.start, `holds an order (line ${order.line}) longer than ${MAX_ORDER_ELEMENT_CHARS.toLocaleString('en')} characters`);
    }
    // requests and the workers get their turn while a long file is scanned
    if (at - sliceStart > CHARS_PER_SLICE) {
      sliceStart = at;
      await yieldToEventLoop();
    }
  }
  if (open.length > 0) {
    const element = open.at(-1)!;
    throw unreadable(element.start, `is not well-formed XML: <${element.name}> of line ${1 + countLines(text, 0, element.start)} is never closed`);
  }
  if (!rootSeen) throw new UnreadableFile(1, 'is empty: an XML order file has a root element');

  function* orderRows(element: string, elementLine: number): Generator<CsvRecord> {
    const valid = XMLValidator.validate(element);
    if (valid !== true) {
      const errorLine = elementLine + valid.err.line - 1;
      throw new UnreadableFile(errorLine, `is not well-formed XML at line ${errorLine}: ${valid.err.msg}`);
    }
    const parsed = parser.parse(element) as Record<string, XmlNode>;
    const node = Object.values(parsed)[0] ?? '';
    const startOf = (of: XmlNode) => (typeof of === 'object' ? (of as { [META]?: { startIndex?: number } })[META]?.startIndex : undefined);
    for (const row of format.rowsOf(node, startOf)) {
      const rowLine = elementLine + countLines(element, 0, row.at);
      if (++rows > limits.maxRows) throw new UnreadableFile(rowLine, `has more than ${limits.maxRows.toLocaleString('en')} order rows`);
      yield { row: rowLine, fields: format.columns.map((column) => row.values[column] ?? '') };
    }
  }
}

/** An XML order file read as a table of the format's columns, a row at a time. */
export function readXmlTable(file: FileHandle, like: TextEncodingOf, limits: CsvLimits, format: XmlOrderFormat): CsvStream {
  return { delimiter: RESULT_DELIMITER, header: [...format.columns], records: xmlRecords(file, like, limits, format) };
}
