import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { FieldErrorCollector } from '../../src/domain/errors.js';
import { detectDelimiter, readCsvTable, writeCsv, type CsvTable } from '../../src/imports/csv-table.js';
import { decodeOrderFile, encodeLikeInput } from '../../src/imports/decode.js';
import { checkMapping, fieldsOfHeader, resolveMapping } from '../../src/imports/mapping.js';
import { buildOrder, groupOrders, parseDecimal, sourceOfPath } from '../../src/imports/orders.js';

const CZECH = 'reference_number;recipient_contact_first_name;recipient_contact_last_name;destination_address_city_name\r\nA-1;Řehoř;Šťastný;Žďár nad Sázavou\r\nA-2;Anežka;Dvořáková;Ústí nad Labem\r\n';
const POLISH = 'reference_number;recipient_contact_first_name;recipient_contact_last_name;destination_address_city_name\r\nP-1;Zażółć;Gęślą;Łódź\r\nP-2;Świętosław;Źdźbło;Kraków\r\n';

function table(text: string): CsvTable {
  const t = readCsvTable(text);
  if ('message' in t) throw new Error(t.message);
  return t;
}

describe('order file encodings', () => {
  it('reads UTF-8 with and without a BOM, and UTF-16 with a BOM', () => {
    expect(decodeOrderFile(Buffer.from(`\uFEFF${CZECH}`))).toMatchObject({ text: CZECH, encoding: 'utf-8', bom: true });
    expect(decodeOrderFile(Buffer.from(CZECH))).toMatchObject({ text: CZECH, encoding: 'utf-8', bom: false });
    expect(decodeOrderFile(Buffer.concat([Buffer.from([0xff, 0xfe]), iconv.encode(POLISH, 'utf-16le')]))).toMatchObject({ text: POLISH, encoding: 'utf-16le', bom: true });
  });

  it('tells Windows-1250 from ISO-8859-2 for Czech and Polish text', () => {
    for (const text of [CZECH, POLISH]) {
      expect(decodeOrderFile(iconv.encode(text, 'windows-1250'))).toMatchObject({ text, encoding: 'windows-1250' });
      expect(decodeOrderFile(iconv.encode(text, 'iso-8859-2'))).toMatchObject({ text, encoding: 'iso-8859-2' });
    }
  });

  it('writes results back in the encoding and BOM of the input', () => {
    expect(encodeLikeInput('Řehoř', { encoding: 'windows-1250', bom: false })).toEqual(iconv.encode('Řehoř', 'windows-1250'));
    expect(encodeLikeInput('a', { encoding: 'utf-8', bom: true })).toEqual(Buffer.from([0xef, 0xbb, 0xbf, 0x61]));
  });
});

describe('order file tables', () => {
  it('detects , ; and tab from the header line, ignoring delimiters inside quotes', () => {
    expect(detectDelimiter('a,b,c\n1;2;3;4;5\n')).toBe(',');
    expect(detectDelimiter('"a,b";c;d\n')).toBe(';');
    expect(detectDelimiter('a\tb\tc\n')).toBe('\t');
    expect(detectDelimiter('reference_number\nA-1\n')).toBe(',');
  });

  it('numbers rows as a spreadsheet does and skips blank lines and lines of bare delimiters', () => {
    const t = table('a;b\r\n1;2\r\n\r\n;\r\n"x\r\ny";3\r\n');
    expect(t.header).toEqual(['a', 'b']);
    expect(t.records).toEqual([{ row: 2, fields: ['1', '2'] }, { row: 5, fields: ['x\r\ny', '3'] }]);
  });

  it('reports an unclosed quote and an empty file with a row', () => {
    expect(readCsvTable('a,b\n"x,1\n')).toMatchObject({ row: 2, message: expect.stringContaining('not a readable CSV file') });
    expect(readCsvTable('\r\n\r\n')).toMatchObject({ row: 1, message: expect.stringContaining('the file is empty') });
  });

  it('writes CSV with quotes where needed and CRLF line ends', () => {
    expect(writeCsv(['a', 'b'], [['x;y', 'say "hi"'], [' lead', 1]], ';')).toBe('a;b\r\n"x;y";"say ""hi"""\r\n" lead";1\r\n');
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

  it('groups rows by reference number, wherever they are, into one body per order with defaults and typed values', () => {
    const t = table(`${header}\r\nA;Nováková;1,5;1 299,50;cz;77\r\nB;Svoboda;2;;CZ;78\r\nA;;3,25;;;\r\n`);
    const mapping = resolveMapping({ columns: {}, defaults: { parcel_length_dimension: '30', sender_contact_company_name: 'Sklad' } });
    const { orders, plan, rows } = groupOrders(t, mapping, { shipping_channel_id: 'ch_1', label_format: 'pdf' });
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

  it('reports rows that disagree on order fields, carry values beyond the header, or lack a reference number', () => {
    const t = table(`${header}\r\nA;Nováková;1;;CZ;\r\nA;Novák;1;;CZ;;extra\r\n;Nobody;1;;CZ;\r\n`);
    const { orders, plan, problems } = groupOrders(t, resolveMapping(null), {});
    expect(problems).toEqual([{ row: 4, reference: '', field: 'reference_number', column: 'reference_number', message: 'is required: rows are grouped into shipments by it' }]);
    const a = buildOrder(plan, orders[0]!);
    expect(a.problems.map((p) => [p.row, p.field])).toEqual([[3, 'row'], [3, 'recipient_contact.last_name']]);
    expect(a.problems[1]!.message).toBe('differs from row 2 of the same order; the rows of an order must agree on its order fields');
  });
});
