import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import iconv from 'iconv-lite';
import { afterAll, describe, expect, it } from 'vitest';
import { FieldErrorCollector } from '../../src/domain/errors.js';
import { csvLine, csvValue, detectDelimiter, readCsvStream, UnreadableFile, type CsvLimits, type CsvRecord, type Delimiter } from '../../src/imports/csv-table.js';
import { bomBytes, scanOrderFile, textDecoderFor } from '../../src/imports/decode.js';
import { DEFAULT_IMPORT_LIMITS } from '../../src/imports/limits.js';
import { checkMapping, fieldsOfHeader, resolveMapping, type ColumnMapping } from '../../src/imports/mapping.js';
import { buildOrder, OrderGroups, parseDecimal, sourceOfPath, type OrderDefaults } from '../../src/imports/orders.js';
import { csvFileBytes } from '../../src/services/imports/result-files.js';

const CZECH = 'reference_number;recipient_contact_first_name;recipient_contact_last_name;destination_address_city_name\r\nA-1;Řehoř;Šťastný;Žďár nad Sázavou\r\nA-2;Anežka;Dvořáková;Ústí nad Labem\r\n';
const POLISH = 'reference_number;recipient_contact_first_name;recipient_contact_last_name;destination_address_city_name\r\nP-1;Zażółć;Gęślą;Łódź\r\nP-2;Świętosław;Źdźbło;Kraków\r\n';

const dir = mkdtempSync(join(tmpdir(), 'packdesk-order-files-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;

interface ReadFile {
  scanned: Awaited<ReturnType<typeof scanOrderFile>>;
  unreadable?: UnreadableFile;
  delimiter: Delimiter;
  header: string[];
  records: CsvRecord[];
}

/** Writes the bytes to a file and reads it as an import does: scanned, then streamed. */
async function readFile(content: string | Buffer, limits: CsvLimits = DEFAULT_IMPORT_LIMITS): Promise<ReadFile> {
  const path = join(dir, `f${files++}.csv`);
  writeFileSync(path, content);
  const handle = await open(path);
  try {
    const scanned = await scanOrderFile(handle);
    const table = await readCsvStream(handle, scanned, limits);
    if (table instanceof UnreadableFile) return { scanned, unreadable: table, delimiter: ',', header: [], records: [] };
    const records: CsvRecord[] = [];
    try {
      for await (const r of table.records) records.push(r);
    } catch (err) {
      if (err instanceof UnreadableFile) return { scanned, unreadable: err, delimiter: table.delimiter, header: table.header, records };
      throw err;
    }
    return { scanned, delimiter: table.delimiter, header: table.header, records };
  } finally {
    await handle.close();
  }
}

async function table(content: string | Buffer): Promise<ReadFile> {
  const read = await readFile(content);
  if (read.unreadable) throw read.unreadable;
  return read;
}

function groups(t: ReadFile, mapping: ColumnMapping, defaults: OrderDefaults): OrderGroups {
  const grouped = new OrderGroups(t.header, t.delimiter, mapping, defaults);
  for (const record of t.records) grouped.add(record);
  return grouped;
}

async function bytesOf(pieces: AsyncIterable<Buffer>): Promise<Buffer> {
  const all: Buffer[] = [];
  for await (const piece of pieces) all.push(piece);
  return Buffer.concat(all);
}

describe('order file encodings', () => {
  const text = async (content: Buffer) => {
    const { scanned } = await table(content);
    const decoder = textDecoderFor(scanned);
    return { ...scanned, text: decoder.write(content.subarray(bomBytes(scanned).length)) + decoder.end() };
  };

  it('reads UTF-8 with and without a BOM, and UTF-16 with a BOM', async () => {
    expect(await text(Buffer.from(`\uFEFF${CZECH}`))).toMatchObject({ text: CZECH, encoding: 'utf-8', bom: true });
    expect(await text(Buffer.from(CZECH))).toMatchObject({ text: CZECH, encoding: 'utf-8', bom: false });
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), iconv.encode(POLISH, 'utf-16le')]);
    expect(await text(utf16)).toMatchObject({ text: POLISH, encoding: 'utf-16le', bom: true });
    expect((await table(utf16)).records[1]!.fields).toEqual(['P-2', 'Świętosław', 'Źdźbło', 'Kraków']);
  });

  it('tells Windows-1250 from ISO-8859-2 for Czech and Polish text', async () => {
    for (const t of [CZECH, POLISH]) {
      expect(await text(iconv.encode(t, 'windows-1250'))).toMatchObject({ text: t, encoding: 'windows-1250' });
      expect(await text(iconv.encode(t, 'iso-8859-2'))).toMatchObject({ text: t, encoding: 'iso-8859-2' });
    }
  });

  it('finds an 8-bit encoding whose letters come only after many chunks of ASCII', async () => {
    const ascii = `reference_number;recipient_contact_last_name\r\n${'A-1;Novak\r\n'.repeat(20_000)}`;
    const read = await table(Buffer.concat([Buffer.from(ascii), iconv.encode('A-2;Šťastný\r\n', 'windows-1250')]));
    expect(read.scanned.encoding).toBe('windows-1250');
    expect(read.records.at(-1)!.fields).toEqual(['A-2', 'Šťastný']);
  });

  it('writes results back in the encoding and BOM of the input', async () => {
    expect(await bytesOf(csvFileBytes(['a'], [['Řehoř']], ';', { encoding: 'windows-1250', bom: false }))).toEqual(iconv.encode('a\r\nŘehoř\r\n', 'windows-1250'));
    expect(await bytesOf(csvFileBytes(['a'], [], ';', { encoding: 'utf-8', bom: true }))).toEqual(Buffer.from([0xef, 0xbb, 0xbf, 0x61, 0x0d, 0x0a]));
  });
});

describe('order file tables', () => {
  it('detects , ; and tab from the header line, ignoring delimiters inside quotes', () => {
    expect(detectDelimiter('a,b,c\n1;2;3;4;5\n')).toBe(',');
    expect(detectDelimiter('"a,b";c;d\n')).toBe(';');
    expect(detectDelimiter('a\tb\tc\n')).toBe('\t');
    expect(detectDelimiter('reference_number\nA-1\n')).toBe(',');
  });

  it('numbers rows as a spreadsheet does and skips blank lines and lines of bare delimiters', async () => {
    const t = await table('a;b\r\n1;2\r\n\r\n;\r\n"x\r\ny";3\r\n');
    expect(t.header).toEqual(['a', 'b']);
    expect(t.records).toEqual([{ row: 2, fields: ['1', '2'] }, { row: 5, fields: ['x\r\ny', '3'] }]);
  });

  it('reports an unclosed quote and an empty file with a row', async () => {
    expect((await readFile('a,b\n"x,1\n')).unreadable).toMatchObject({ row: 2, message: expect.stringContaining('not a readable CSV file') });
    expect((await readFile('\r\n\r\n')).unreadable).toMatchObject({ row: 1, message: expect.stringContaining('the file is empty') });
  });

  it('stops reading at a line, a value, a row or a row count over the limits', async () => {
    const limits = { maxLineChars: 100, maxColumns: 5, maxRows: 3 };
    expect((await readFile(`a,b\n1,${'x'.repeat(200)}\n`, limits)).unreadable).toMatchObject({ row: 2, message: 'line 2 is longer than 100 characters' });
    expect((await readFile(`a,b\n1,"${'x\n'.repeat(60)}"\n`, limits)).unreadable?.message).toBe('row 2 holds a value longer than 100 characters');
    expect((await readFile('a,b\n1,2,3,4,5,6\n', limits)).unreadable).toMatchObject({ row: 2, message: 'row 2 has 6 values; at most 5 are read' });
    expect((await readFile('a,b\n1,2\n\n2,3\n3,4\n4,5\n', limits)).unreadable).toMatchObject({ row: 6, message: 'has more than 3 order rows' });
    expect((await readFile('a,b\n1,2\n\n2,3\n3,4\n', limits)).records).toHaveLength(3);
  });

  it('writes CSV with quotes where needed and CRLF line ends', () => {
    expect(csvLine(['a', 'b'], ';') + csvLine(['x;y', 'say "hi"'], ';') + csvLine([' lead', 1], ';')).toBe('a;b\r\n"x;y";"say ""hi"""\r\n" lead";1\r\n');
  });

  it('neutralises what a spreadsheet would run as a formula, and reads it back as it was', () => {
    expect(csvLine(['=1+1', '+420', '-2', '@SUM(A1)', '\t=1', "'quoted", 'plain', -3], ',')).toBe(`'=1+1,'+420,'-2,'@SUM(A1),'\t=1,''quoted,plain,-3\r\n`);
    for (const value of ['=1+1', '@x', "'", "'=x", 'plain', '-', '\t=1']) {
      const [written] = csvLine([value], ',').slice(0, -2).split(',');
      expect(csvValue(written!.replace(/^"(.*)"$/s, '$1')), value).toBe(value);
    }
  });

  it('takes decimal commas where the comma is not the delimiter, and leaves what is no number as text', () => {
    expect(parseDecimal('1,5', true)).toBe(1.5);
    expect(parseDecimal('1 299,50', true)).toBe(1299.5);
    expect(parseDecimal('2.25', true)).toBe(2.25);
    expect(parseDecimal('1,5', false)).toBe('1,5');
    expect(parseDecimal('heavy', true)).toBe('heavy');
  });
});

describe('column mappings', () => {
  it('maps the default column names case-insensitively and custom names before them', () => {
    const mapping = resolveMapping({ columns: { 'Číslo objednávky': 'reference_number' }, defaults: {} });
    expect(fieldsOfHeader(['číslo objednávky', 'Recipient Contact First Name', 'parcel_weight_amount', 'metadata_ErpId', 'Poznámka'], mapping))
      .toEqual(['reference_number', 'recipient_contact_first_name', 'parcel_weight_amount', 'metadata_ErpId', undefined]);
  });

  it('knows only its own presets, and keeps a column named like an object property', () => {
    for (const name of ['constructor', 'toString', '__proto__', 'hasOwnProperty']) {
      const errors = new FieldErrorCollector();
      checkMapping(name, errors);
      expect(Object.keys(errors.errors), name).toEqual(['mapping']);
      expect(resolveMapping(name), name).toEqual({ columns: {}, defaults: {} });
    }
    const checked = checkMapping(JSON.parse('{"columns": {"__proto__": "reference_number"}}'), new FieldErrorCollector()) as ColumnMapping;
    expect(fieldsOfHeader(['__proto__'], checked)).toEqual(['reference_number']);
  });

  it('refuses unknown import fields, keys and value types with field paths', () => {
    const errors = new FieldErrorCollector();
    checkMapping({ columns: { A: 'nope', B: 7 }, defaults: { parcel_weight_amount: [1] }, other: 1 }, errors);
    expect(Object.keys(errors.errors).sort()).toEqual(['mapping.columns.A', 'mapping.columns.B', 'mapping.defaults.parcel_weight_amount', 'mapping.other']);
    const preset = new FieldErrorCollector();
    expect(checkMapping('default', preset)).toBe('default');
    expect(preset.empty).toBe(true);
  });
});

describe('orders of a file', () => {
  const header = 'reference_number;recipient_contact_last_name;parcel_weight_amount;cash_on_delivery_amount;destination_address_country_code;metadata_erp_id';

  it('groups rows by reference number, wherever they are, into one body per order with defaults and typed values', async () => {
    const t = await table(`${header}\r\nA;Nováková;1,5;1 299,50;cz;77\r\nB;Svoboda;2;;CZ;78\r\nA;;3,25;;;\r\n`);
    const mapping = resolveMapping({ columns: {}, defaults: { parcel_length_dimension: '30', sender_contact_company_name: 'Sklad' } });
    const { orders, plan, rows } = groups(t, mapping, { shipping_channel_id: 'ch_1', label_format: 'pdf' });
    expect(rows).toBe(3);
    expect(orders.map((o) => [o.reference, o.rows])).toEqual([['A', [2, 4]], ['B', [3]]]);
    const a = buildOrder(plan, orders[0]!);
    expect(a.body).toEqual({
      shipping_channel_id: 'ch_1', label_format: 'pdf', sender_contact: { company_name: 'Sklad' }, reference_number: 'A',
      recipient_contact: { last_name: 'Nováková' }, cash_on_delivery_amount: 1299.5, destination_address: { country_code: 'CZ' },
      metadata: { erp_id: '77' },
      parcels: [{ length_dimension: 30, weight_amount: 1.5 }, { length_dimension: 30, weight_amount: 3.25 }],
    });
    expect(a.problems).toEqual([]);
    expect(sourceOfPath(a, 'parcels.1.weight_amount')).toEqual({ row: 4, column: 'parcel_weight_amount' });
    expect(sourceOfPath(a, 'parcels.1.height_dimension')).toEqual({ row: 4, column: null });
    expect(sourceOfPath(a, 'recipient_contact.email_address')).toEqual({ row: 2, column: null });
    expect(sourceOfPath(a, 'sender_contact.company_name')).toEqual({ row: 2, column: null });
  });

  it('reads a customs declaration: order-wide columns once, an item of each row with item cells, the mapping\'s item defaults in each', async () => {
    const customsHeader = 'reference_number;customs_incoterm;customs_importer_tax_id;customs_item_sku;customs_item_description;customs_item_hs_code;customs_item_quantity;customs_item_unit_value;customs_item_unit_weight';
    const t = await table(`${customsHeader}\r\nUS-1;ddp;EIN 12-3456789;MUG-1;Hrnek;7323 94 00;2;12,50;0,3\r\nUS-1;ddp;;TEA-9;Čaj;0902 10 00;1;4;0,1\r\nCZ-1;;;;;;;;\r\n`);
    const { orders, plan } = groups(t, resolveMapping({ columns: {}, defaults: { customs_item_origin_country: 'cz' } }), {});
    const us = buildOrder(plan, orders[0]!);
    expect(us.problems).toEqual([]);
    expect(us.body.customs).toEqual({
      contents_type: 'sale', incoterm: 'DDP', importer_tax_id: 'EIN 12-3456789',
      items: [
        { origin_country: 'CZ', sku: 'MUG-1', description: 'Hrnek', hs_code: '7323 94 00', quantity: 2, unit_value: 12.5, unit_weight: 0.3 },
        { origin_country: 'CZ', sku: 'TEA-9', description: 'Čaj', hs_code: '0902 10 00', quantity: 1, unit_value: 4, unit_weight: 0.1 },
      ],
    });
    expect(sourceOfPath(us, 'customs.items.1.hs_code')).toEqual({ row: 3, column: 'customs_item_hs_code' });
    expect(sourceOfPath(us, 'customs.items.1.origin_country')).toEqual({ row: 3, column: null });
    // a row without item cells declares nothing
    expect(buildOrder(plan, orders[1]!).body.customs).toBeUndefined();
  });

  it('reports rows that disagree on order fields, carry values beyond the header, or lack a reference number', async () => {
    const t = await table(`${header}\r\nA;Nováková;1;;CZ;\r\nA;Novák;1;;CZ;;extra\r\n;Nobody;1;;CZ;\r\n`);
    const { orders, plan, problems } = groups(t, resolveMapping(null), {});
    expect(problems).toEqual([{ row: 4, reference: '', field: 'reference_number', column: 'reference_number', message: 'is required: rows are grouped into shipments by it' }]);
    const a = buildOrder(plan, orders[0]!);
    expect(a.problems.map((p) => [p.row, p.field])).toEqual([[3, 'row'], [3, 'recipient_contact.last_name']]);
    expect(a.problems[1]!.message).toBe('differs from row 2 of the same order; the rows of an order must agree on its order fields');
  });
});
