import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FieldErrorCollector } from '../../src/domain/errors.js';
import { UnreadableFile } from '../../src/imports/csv-table.js';
import { scanOrderFile } from '../../src/imports/decode.js';
import { DEFAULT_IMPORT_LIMITS } from '../../src/imports/limits.js';
import { checkMapping, MAPPING_PRESETS, resolveMapping, type MappingSetting } from '../../src/imports/mapping.js';
import { readOrderTable } from '../../src/imports/order-table.js';
import { buildOrder, OrderGroups, type FileOrder } from '../../src/imports/orders.js';
import { countryCodeOf, namesCashOnDelivery } from '../../src/imports/presets/common.js';
import { MAX_ORDER_ELEMENT_CHARS } from '../../src/imports/xml-table.js';

const FIXTURES = new URL('../fixtures/presets/', import.meta.url);
const dir = mkdtempSync(join(tmpdir(), 'packdesk-presets-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;

interface ReadOrders {
  orders: FileOrder[];
  problems: { row: number; field: string; column: string | null; message: string }[];
  delimiter: string;
  rows: number;
}

/** Reads a file as an import does (scanned, read as a table by its format, grouped) and builds every order's body. */
async function ordersOf(content: Buffer | string, mapping: MappingSetting, limits = DEFAULT_IMPORT_LIMITS): Promise<ReadOrders | UnreadableFile> {
  const path = join(dir, `f${files++}`);
  writeFileSync(path, content);
  const handle = await open(path);
  try {
    const scanned = await scanOrderFile(handle);
    const resolved = resolveMapping(mapping);
    const table = await readOrderTable(handle, scanned, limits, resolved);
    if (table instanceof UnreadableFile) return table;
    const groups = new OrderGroups(table.header, table.delimiter, resolved, {});
    try {
      for await (const record of table.records) groups.add(record);
    } catch (err) {
      if (err instanceof UnreadableFile) return err;
      throw err;
    }
    const orders = groups.orders.map((group) => buildOrder(groups.plan, group));
    return { orders, problems: [...groups.problems, ...orders.flatMap((o) => o.problems)], delimiter: table.delimiter, rows: groups.rows };
  } finally {
    await handle.close();
  }
}

const fixture = (name: string) => readFileSync(new URL(name, FIXTURES));

async function readFixture(name: string, mapping: MappingSetting = name.replace(/\.\w+$/, '')): Promise<ReadOrders> {
  const read = await ordersOf(fixture(name), mapping);
  if (read instanceof UnreadableFile) throw read;
  return read;
}

const bodyOf = (read: ReadOrders, reference: string) => {
  const order = read.orders.find((o) => o.reference === reference);
  expect(order, `order ${reference}`).toBeDefined();
  return order!.body;
};

describe('presets of shops and ERPs: each fixture reads as the orders its export holds', () => {
  it('shoptet: Windows-1250 with ;, order lines of products, shipping and payment; the delivery address before the billing one; COD when the payment line says Dobírka', async () => {
    const read = await readFixture('shoptet.csv');
    expect(read.problems).toEqual([]);
    expect(read.orders.map((o) => [o.reference, o.rows.length, o.parcels])).toEqual([
      ['2026000101', 3, 1], ['2026000102', 4, 1], ['2026000103', 3, 1], ['2026000104', 3, 1],
    ]);
    expect(bodyOf(read, '2026000101')).toMatchObject({
      recipient_contact: { name: 'Jana Nováková', phone_number: '777 888 999', email_address: 'jana.novakova@example.cz' },
      destination_address: { street_name: 'Údolní', house_number: '5', city_name: 'Brno', postal_code: '602 00', country_code: 'CZ' },
      parcels: [{ weight_amount: 1.25 }],
    });
    expect(bodyOf(read, '2026000101')).not.toHaveProperty('cash_on_delivery_amount');
    // delivered elsewhere than billed: the delivery block whole, never mixed with the billing one
    expect(bodyOf(read, '2026000102')).toMatchObject({
      recipient_contact: { name: 'Petra Svobodová' },
      destination_address: { street_name: 'Vinohradská 1234/56', city_name: 'Praha 2', postal_code: '120 00', country_code: 'CZ' },
      cash_on_delivery_amount: 1299.5, cash_on_delivery_currency: 'CZK', parcels: [{ weight_amount: 2.4 }],
    });
    expect((bodyOf(read, '2026000102').recipient_contact as Record<string, unknown>).company_name).toBeUndefined();
    expect(bodyOf(read, '2026000103')).toMatchObject({ destination_address: { country_code: 'SK' }, cash_on_delivery_amount: 45.9, cash_on_delivery_currency: 'EUR' });
    expect(bodyOf(read, '2026000104')).toMatchObject({ destination_address: { street_name: 'ul. Marszałkowska 10/5', country_code: 'PL' }, parcels: [{ weight_amount: 3 }] });
    expect(bodyOf(read, '2026000104')).not.toHaveProperty('cash_on_delivery_amount');
  });

  it('woocommerce: UTF-8 with , and a row per product; first and last name columns; the payment title or gateway id tells COD, in the destination\'s currency', async () => {
    const read = await readFixture('woocommerce.csv');
    expect(read.problems).toEqual([]);
    expect(read.orders.map((o) => [o.reference, o.rows.length, o.parcels])).toEqual([['5101', 2, 1], ['5102', 1, 1], ['5103', 1, 1]]);
    expect(bodyOf(read, '5101')).toMatchObject({
      recipient_contact: { first_name: 'Krzysztof', last_name: 'Nowak', phone_number: '512 345 678' },
      destination_address: { street_name: 'ul. Długa 5', city_name: 'Kraków', postal_code: '31-147', country_code: 'PL' },
      cash_on_delivery_amount: 219.99, cash_on_delivery_currency: 'PLN',
    });
    expect(bodyOf(read, '5102')).toMatchObject({
      recipient_contact: { first_name: 'Tomáš', last_name: 'Dvořák', phone_number: '608 111 222', email_address: 'eva.dvorakova@example.cz' },
      destination_address: { street_name: 'Dlouhá 742/12', city_name: 'Praha 1', postal_code: '110 00', country_code: 'CZ' },
      cash_on_delivery_amount: 890, cash_on_delivery_currency: 'CZK',
    });
    expect(bodyOf(read, '5103')).toMatchObject({ cash_on_delivery_amount: 29.9, cash_on_delivery_currency: 'EUR' });
  });

  it('prestashop: the SQL Manager export of PrestaShop\'s own fields; ps_cashondelivery is COD; a mobile before a landline', async () => {
    const read = await readFixture('prestashop.csv');
    expect(read.problems).toEqual([]);
    expect(bodyOf(read, 'KHWLILZLL')).toMatchObject({
      recipient_contact: { first_name: 'Vladimír', last_name: 'Černý', phone_number: '731 123 456' },
      destination_address: { street_name: 'Na Příkopě 15', postal_code: '110 00', country_code: 'CZ' },
      cash_on_delivery_amount: 1520, cash_on_delivery_currency: 'CZK', parcels: [{ weight_amount: 2.5 }],
    });
    expect(bodyOf(read, 'QNYZXGTVE')).toMatchObject({ recipient_contact: { phone_number: '0948 765 432' }, cash_on_delivery_amount: 39.9, cash_on_delivery_currency: 'EUR' });
    expect(bodyOf(read, 'VQMPRJBHT')).toMatchObject({ recipient_contact: { company_name: 'Kwiaciarnia Róża', first_name: 'Tomasz' } });
    expect(bodyOf(read, 'VQMPRJBHT')).not.toHaveProperty('cash_on_delivery_amount');
  });

  it('baselinker: a row per product; COD adds up the products and the delivery price once; the weight adds up the products', async () => {
    const read = await readFixture('baselinker.csv');
    expect(read.problems).toEqual([]);
    expect(bodyOf(read, '8801001')).toMatchObject({
      recipient_contact: { name: 'Anna Kowalska' }, destination_address: { street_name: 'ul. Piotrkowska 104/12', country_code: 'PL' },
      cash_on_delivery_amount: 234.97, cash_on_delivery_currency: 'PLN', parcels: [{ weight_amount: 2 }],
    });
    expect(bodyOf(read, '8801002')).not.toHaveProperty('cash_on_delivery_amount');
    expect(bodyOf(read, '8801003')).toMatchObject({ cash_on_delivery_amount: 28.5, cash_on_delivery_currency: 'EUR', parcels: [{ weight_amount: 0.3 }] });
  });

  it('pohoda: a data pack of orders, a row per order line at the line where it begins; shipToAddress before address; paymentType delivery is COD', async () => {
    const read = await readFixture('pohoda.xml');
    expect(read.problems).toEqual([]);
    expect(read.delimiter).toBe(';');
    expect(read.orders.map((o) => [o.reference, o.rows, o.parcels])).toEqual([
      ['OBJ-2026-0042', [34, 42], 1], ['OBJ-2026-0043', [94], 1], ['OBJ-2026-0044', [130], 1],
    ]);
    expect(bodyOf(read, 'OBJ-2026-0042')).toMatchObject({
      recipient_contact: { company_name: 'Pekárna U Mlýna s.r.o.', name: 'Karel Veselý', phone_number: '777 123 456' },
      destination_address: { street_name: 'Mlýnská 7', city_name: 'Olomouc', postal_code: '779 00', country_code: 'CZ' },
      cash_on_delivery_amount: 2420, cash_on_delivery_currency: 'CZK',
    });
    expect(bodyOf(read, 'OBJ-2026-0043')).toMatchObject({
      recipient_contact: { name: 'Lucie Marková', phone_number: '604 555 666', email_address: 'jiri.marek@example.cz' },
      destination_address: { street_name: 'Kounicova 966/10' },
    });
    expect(bodyOf(read, 'OBJ-2026-0043')).not.toHaveProperty('cash_on_delivery_amount');
    expect(bodyOf(read, 'OBJ-2026-0044')).toMatchObject({ cash_on_delivery_amount: 59.9, cash_on_delivery_currency: 'EUR', destination_address: { country_code: 'SK' } });
  });

  it('money-s3: Windows-1250 MoneyData; the final recipient before the customer; a phone prefix joined to its number; line weights add up', async () => {
    const read = await readFixture('money-s3.xml');
    expect(read.problems).toEqual([]);
    expect(bodyOf(read, '2026-1001')).toMatchObject({
      recipient_contact: { name: 'Alena Horáková', phone_number: '+420 603 444 555', email_address: 'alena.horakova@example.cz' },
      destination_address: { street_name: 'Jiráskova 1520/3', city_name: 'Hradec Králové', postal_code: '500 03', country_code: 'CZ' },
      cash_on_delivery_amount: 1850, cash_on_delivery_currency: 'CZK', parcels: [{ weight_amount: 2.25 }],
    });
    expect(bodyOf(read, '2026-1002')).toMatchObject({
      recipient_contact: { company_name: 'Sklad Kubát', phone_number: '+420 596 111 222', email_address: 'objednavky@kubat.example.cz' },
      destination_address: { street_name: 'Průmyslová 1427/8', city_name: 'Ostrava-Hrabová', postal_code: '720 00' },
      parcels: [{ weight_amount: 12.5 }],
    });
    expect(bodyOf(read, '2026-1002')).not.toHaveProperty('cash_on_delivery_amount');
    expect(bodyOf(read, '2026-1003')).toMatchObject({
      recipient_contact: { name: 'Juraj Baláž', phone_number: '0907 111 222' }, destination_address: { country_code: 'SK' },
      cash_on_delivery_amount: 64.5, cash_on_delivery_currency: 'EUR', parcels: [{ weight_amount: 0.4 }],
    });
  });
});

describe('XML order files are read bounded, and refused whole where they are not what they say', () => {
  const pohoda = () => fixture('pohoda.xml').toString('utf8');
  const reason = async (content: string | Buffer, mapping: MappingSetting = 'pohoda', limits = DEFAULT_IMPORT_LIMITS) => {
    const read = await ordersOf(content, mapping, limits);
    expect(read).toBeInstanceOf(UnreadableFile);
    return { row: (read as UnreadableFile).row, message: (read as UnreadableFile).message };
  };

  it('refuses a document type, whose entities could expand to far more than the file, before any order is read', async () => {
    const bomb = '<?xml version="1.0"?>\n<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">]>\n<dat:dataPack><dat:dataPackItem><ord:order>&lol2;</ord:order></dat:dataPackItem></dat:dataPack>';
    expect(await reason(bomb)).toEqual({ row: 2, message: expect.stringMatching(/^declares a document type or entities \(line 2\): XML order files with them are refused/) });
    // an entity declared further in is refused as well, and an external one never fetched
    expect((await reason(pohoda().replace('<dat:dataPackItem version="2.0" id="OBJ-2026-0043">', '<!ENTITY x SYSTEM "file:///etc/passwd"><dat:dataPackItem>'))).message)
      .toMatch(/^declares a document type or entities/);
  });

  it('refuses XML that is not well-formed, saying where', async () => {
    expect(await reason(pohoda().replace('</ord:numberOrder>\n        <ord:date>2026-03-02</ord:date>\n        <ord:partnerIdentity>\n          <typ:address>\n            <typ:name>Jiří', '</ord:numberOrder>\n        <ord:date>2026-03-02</ord:dat>\n        <ord:partnerIdentity>\n          <typ:address>\n            <typ:name>Jiří')))
      .toEqual({ row: 69, message: 'is not well-formed XML: </ord:dat> at line 69 does not close <ord:date> of line 69' });
    expect((await reason(pohoda().replace('</dat:dataPack>', ''))).message).toMatch(/<dat:dataPack> of line 3 is never closed$/);
    expect((await reason(pohoda().replace('<typ:zip>602 00</typ:zip>', '<typ:zip a=1>602 00</typ:zip>'))).message).toMatch(/^is not well-formed XML at line \d+: /);
    expect((await reason(`${pohoda()}<extra/>`)).message).toMatch(/a second root element <extra>/);
  });

  it('refuses an XML file of another format, or any XML under a CSV mapping, and CSV under an XML preset', async () => {
    expect((await reason(fixture('money-s3.xml'), 'pohoda')).message).toBe('is not a POHODA data pack (dat:dataPack) or POHODA export (rsp:responsePack) of orders: its root element is <MoneyData>');
    expect((await reason(fixture('pohoda.xml'), 'shoptet')).message).toBe('is an XML file, and the mapping shoptet reads CSV files: XML order files are read with the presets pohoda and money-s3');
    expect((await reason(fixture('pohoda.xml'), null as unknown as MappingSetting)).message).toBe('is an XML file, and this import\'s mapping reads CSV files: XML order files are read with the presets pohoda and money-s3');
    expect((await reason(fixture('shoptet.csv'), 'money-s3')).message).toBe('is not an XML file: the mapping money-s3 reads a Money S3 XML file of received orders (MoneyData with SeznamObjPrij)');
  });

  it('holds each order to a size and the file to the row limit, and nests no deeper than an order file does', async () => {
    const long = pohoda().replace('<ord:text>Objednávka z e-shopu</ord:text>', `<ord:text>${'x'.repeat(MAX_ORDER_ELEMENT_CHARS)}</ord:text>`);
    expect((await reason(long)).message).toMatch(/^holds an order \(line 8\) longer than 262,144 characters$/);
    expect((await reason(pohoda(), 'pohoda', { ...DEFAULT_IMPORT_LIMITS, maxRows: 3 })).message).toBe('has more than 3 order rows');
    const deep = `<dat:dataPack>${'<a>'.repeat(70)}${'</a>'.repeat(70)}</dat:dataPack>`;
    expect((await reason(deep)).message).toMatch(/nested more than 64 deep/);
  });

  it('reads POHODA\'s own export (rsp:responsePack with lst:listOrder) and character references', async () => {
    const exported = pohoda()
      .replace(/<dat:dataPack [^>]*>/s, '<rsp:responsePack version="2.0" xmlns:rsp="r" xmlns:lst="l" xmlns:ord="o" xmlns:typ="t"><rsp:responsePackItem version="2.0"><lst:listOrder version="2.0">')
      .replace('</dat:dataPack>', '</lst:listOrder></rsp:responsePackItem></rsp:responsePack>')
      .replaceAll(/<\/?dat:dataPackItem[^>]*>/g, '').replaceAll('<ord:order version="2.0">', '<lst:order version="2.0">').replaceAll('</ord:order>', '</lst:order>');
    const read = await ordersOf(exported, 'pohoda');
    if (read instanceof UnreadableFile) throw read;
    expect(read.orders.map((o) => o.reference)).toEqual(['OBJ-2026-0042', 'OBJ-2026-0043', 'OBJ-2026-0044']);
    expect(read.problems).toEqual([]);
  });
});

describe('preset mappings', () => {
  it('lists every preset beside default, and a mapping object names one and adds its columns and defaults', () => {
    expect(Object.keys(MAPPING_PRESETS)).toEqual(['default', 'shoptet', 'woocommerce', 'prestashop', 'baselinker', 'pohoda', 'money-s3']);
    const errors = new FieldErrorCollector();
    const checked = checkMapping({ preset: 'shoptet', defaults: { sender_contact_company_name: 'Sklad' }, columns: { Telefon: 'recipient_contact_phone_number' } }, errors);
    expect(errors.empty).toBe(true);
    const resolved = resolveMapping(checked);
    expect(resolved).toMatchObject({ name: 'shoptet', rowsAre: 'items', defaults: { sender_contact_company_name: 'Sklad' }, columns: { code: 'reference_number', Telefon: 'recipient_contact_phone_number' } });
  });

  it('refuses a preset that is none, on its field path', () => {
    const errors = new FieldErrorCollector();
    checkMapping({ preset: 'magento', columns: {} }, errors);
    checkMapping({ preset: 7 }, errors, 'other');
    expect(errors.errors).toEqual({
      'mapping.preset': ['must be a preset name (default, shoptet, woocommerce, prestashop, baselinker, pohoda, money-s3)'],
      'other.preset': ['must be a preset name (default, shoptet, woocommerce, prestashop, baselinker, pohoda, money-s3)'],
    });
  });

  it('lets a mapped column of the row win over what a preset derives for the same field', async () => {
    const csv = 'code;phone;Telefon;billStreet;billCity;billZip\r\nA-1;777 888 999;602 333 444;Údolní 5;Brno;602 00\r\nA-2;777 888 999;;Údolní 5;Brno;602 00\r\n';
    const read = await ordersOf(csv, { preset: 'shoptet', columns: { Telefon: 'recipient_contact_phone_number' }, defaults: {} });
    if (read instanceof UnreadableFile) throw read;
    expect(read.orders.map((o) => (o.body.recipient_contact as Record<string, string>).phone_number)).toEqual(['602 333 444', '777 888 999']);
    expect(read.problems).toEqual([]);
  });

  it('knows cash on delivery by the names shops give it, and countries by their names', () => {
    for (const name of ['Dobírka', 'Platba dobírkou', 'Dobierka', 'Za pobraniem', 'Płatność przy odbiorze', 'Nachnahme', 'Cash on delivery', 'COD']) expect(namesCashOnDelivery(name), name).toBe(true);
    for (const name of ['Převodem', 'Platba kartou', 'PayPal', 'Przelewy24', 'Cod liver oil']) expect(namesCashOnDelivery(name), name).toBe(false);
    expect(['Česká republika', 'Česko', 'Slovensko', 'Slovakia', 'Polska', 'Polsko', 'Deutschland', 'cz', 'Magyarország'].map(countryCodeOf))
      .toEqual(['CZ', 'CZ', 'SK', 'SK', 'PL', 'PL', 'DE', 'CZ', 'HU']);
    expect(countryCodeOf('Narnia')).toBe('Narnia');
  });

  it('reads a Shoptet export that writes its order lines as itemCode/itemName: the BILLING line names the payment', async () => {
    const csv = 'code;billFullName;billStreet;billCity;billZip;billCountryName;totalPriceToPay;currencyCode;itemCode;itemName\r\n'
      + '77;Jana Nováková;Údolní 5;Brno;602 00;Česká republika;1 249,90;CZK;KOS-1;Košík\r\n'
      + '77;Jana Nováková;Údolní 5;Brno;602 00;Česká republika;1 249,90;CZK;BILLING4;Dobírkou\r\n';
    const read = await ordersOf(Buffer.from(csv), 'shoptet');
    if (read instanceof UnreadableFile) throw read;
    expect(read.orders[0]!.body).toMatchObject({ cash_on_delivery_amount: 1249.9, cash_on_delivery_currency: 'CZK', destination_address: { street_name: 'Údolní 5' } });
  });

  it('reads the Packeta pickup point a Shoptet buyer chose into the order\'s pickup point; an order without one goes to its door', async () => {
    const csv = 'code;deliveryFullName;deliveryStreet;deliveryCity;deliveryZip;deliveryCountryName;phone;zasilkovnaDistributionPointBranchId\r\n'
      + '78;Jana Nováková;Údolní 5;Brno;602 00;Česká republika;777 888 999;4051\r\n'
      + '79;Petr Novák;Dlouhá 3;Praha;110 00;Česká republika;777 888 998;\r\n';
    const read = await ordersOf(Buffer.from(csv), 'shoptet');
    if (read instanceof UnreadableFile) throw read;
    expect(read.problems).toEqual([]);
    expect(bodyOf(read, '78')).toMatchObject({ pickup_point: { provider_point_id: '4051' } });
    expect(bodyOf(read, '79')).not.toHaveProperty('pickup_point');
  });

  it('reports a line whose summed value is no number, at its row and column', async () => {
    const csv = 'order_id;delivery_fullname;name;quantity;weight\r\n9;Anna Kowalska;A;1;0.5\r\n9;Anna Kowalska;B;1;ciężki\r\n';
    const read = await ordersOf(Buffer.from(csv), 'baselinker');
    if (read instanceof UnreadableFile) throw read;
    expect(read.problems).toEqual([{ row: 3, reference: '9', field: 'parcels.0.weight_amount', column: 'weight', message: 'must be a number: the order\'s lines add up to it (this line has "ciężki")' }]);
  });
});
