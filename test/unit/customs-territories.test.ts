import { describe, expect, it } from 'vitest';
import { checkCustoms, crossesCustomsBorder, customsTerritory, hsCodeDigits, type CustomsInput } from '../../src/domain/customs.js';
import { FieldErrorCollector } from '../../src/domain/errors.js';

const at = (place: string) => {
  const [countryCode, ...postal] = place.split(' ');
  return { countryCode: countryCode!, postalCode: postal.join(' ') };
};

describe('which routes need a customs declaration, as the carriers treat the places', () => {
  it.each([
    // inside the EU customs union and VAT area: no declaration
    ['CZ 11000', 'DE 10115', false], ['PL 00-590', 'CZ 60200', false], ['CZ 11000', 'SK 81101', false], ['CZ 11000', 'AT 1010', false],
    ['CZ 11000', 'ES 28001', false], ['CZ 11000', 'ES 07001', false], ['CZ 11000', 'PT 9000-018', false], ['CZ 11000', 'IT 00186', false],
    ['CZ 11000', 'FR 75008', false], ['CZ 11000', 'GR 105 57', false], ['CZ 11000', 'FI 00100', false], ['CZ 11000', 'CY 1010', false],
    ['DE 10115', 'DE 78224', false], ['CZ 11000', 'MC 98000', false], ['CZ 11000', 'FR 98000', false], ['CZ 11000', 'GB BT1 1AA', false],
    ['IE D02 X285', 'GB bt7 1nn', false], ['CH 8001', 'CH 3011', false], ['US 90210', 'US 10001', false], ['ES 35001', 'ES 38001', false],
    ['GB SW1A 1AA', 'IM IM1 1AA', false], ['CH 8001', 'LI 9490', false], ['CH 8001', 'DE 78266', false], ['GB SW1A 1AA', 'GB M1 1AE', false],
    // a third country: a declaration
    ['CZ 11000', 'US 10001', true], ['CZ 11000', 'GB SW1A 1AA', true], ['PL 00-590', 'NO 0150', true], ['CZ 11000', 'CH 8001', true],
    ['CZ 11000', 'LI 9490', true], ['CZ 11000', 'AD AD500', true], ['CZ 11000', 'GI GX11 1AA', true], ['CZ 11000', 'JE JE2 3AB', true],
    ['CZ 11000', 'GG GY1 1AA', true], ['CZ 11000', 'IM IM1 1AA', true], ['CZ 11000', 'IS 101', true], ['CZ 11000', 'TR 34000', true],
    ['CZ 11000', 'VA 00120', true], ['CZ 11000', 'IT 00120', true], ['CZ 11000', 'SM 47890', true], ['CZ 11000', 'IT 47890', true],
    ['US 90210', 'CA K1A 0B1', true], ['CH 8001', 'DE 10115', true], ['GB SW1A 1AA', 'IE D02 X285', true], ['CZ 11000', 'UA 01001', true],
    ['GB SW1A 1AA', 'GB JE2 3AB', true], ['GB SW1A 1AA', 'GB BT1 1AA', true], ['CZ 11000', 'GL 3900', true], ['CZ 11000', 'FO 100', true],
    // the EU's special territories: outside its customs territory or VAT area
    ['CZ 11000', 'ES 35001', true], ['CZ 11000', 'ES 38001', true], ['CZ 11000', 'ES 51001', true], ['CZ 11000', 'ES 52001', true],
    ['ES 28001', 'ES 35001', true], ['ES 51001', 'ES 52001', true], ['DE 10115', 'DE 78266', true], ['DE 10115', 'DE D-78266', true],
    ['DE 10115', 'DE 27498', true], ['FI 00100', 'FI 22100', true], ['FI 00100', 'AX 22100', true], ['CZ 11000', 'IT 23041', true],
    ['CZ 11000', 'IT 22061', true], ['CZ 11000', 'GR 630 86', true], ['CZ 11000', 'GR 63087', true], ['CZ 11000', 'FR 97100', true],
    ['CZ 11000', 'FR 97200', true], ['CZ 11000', 'FR 97300', true], ['CZ 11000', 'FR 97400', true], ['CZ 11000', 'FR 97600', true],
    ['CZ 11000', 'FR 97133', true], ['CZ 11000', 'FR 97150', true], ['CZ 11000', 'FR 98800', true], ['CZ 11000', 'GP 97100', true], ['CZ 11000', 'RE 97400', true],
    ['ES 35001', 'CZ 11000', true], ['AX 22100', 'FI 00100', true],
  ])('%s → %s: declaration %s', (from, to, needed) => {
    expect(crossesCustomsBorder(at(from), at(to))).toBe(needed);
  });

  it('names the territory an address lies in', () => {
    expect([
      'CZ 11000', 'ES 35001', 'ES 51001', 'ES 52001', 'FI 22100', 'AX 22100', 'DE 78266', 'DE 27498', 'IT 23041', 'IT 22061', 'GR 63086',
      'FR 97100', 'FR 97133', 'FR 97150', 'FR 98000', 'FR 98800', 'GB BT1 1AA', 'GB SW1A 1AA', 'IM IM1 1AA', 'MC 98000', 'LI 9490', 'SM 47890', 'VA 00120', 'us 10001',
    ].map((place) => customsTerritory(at(place)))).toEqual([
      'EU', 'ES-CN', 'ES-CE', 'ES-ML', 'AX', 'AX', 'CH', 'DE-HELGOLAND', 'IT-LIVIGNO', 'IT-CAMPIONE', 'GR-ATHOS',
      'GP', 'BL', 'MF', 'EU', 'NC', 'EU', 'GB', 'GB', 'EU', 'CH', 'SM', 'VA', 'US',
    ]);
  });
});

const declaration = (over: Partial<CustomsInput> = {}): CustomsInput => ({
  contents_type: 'sale',
  incoterm: 'DAP',
  invoice_number: 'FV-2026-0042',
  invoice_date: '2026-11-26',
  currency: 'EUR',
  items: [
    { description: 'Cotton T-shirt', hs_code: '6109.10 00', quantity: 2, unit_value: 12.5, unit_weight: 0.2, origin_country: 'CZ' },
    { description: 'Ceramic mug', hs_code: '691200', quantity: 1, unit_value: 9.9, unit_weight: 0.4, origin_country: 'PL', sku: 'MUG-1' },
  ],
  ...over,
});

function errorsOf(customs: CustomsInput, parcelsWeightKg = 1, path?: string) {
  const errors = new FieldErrorCollector();
  checkCustoms(customs, parcelsWeightKg, errors, path);
  return errors.errors;
}

describe('the customs declaration checked before any carrier sees it', () => {
  it('takes a declaration that adds up, HS codes written with spaces and dots', () => {
    expect(errorsOf(declaration())).toEqual({});
    expect(hsCodeDigits('8471.30 00')).toBe('84713000');
  });

  it('refuses items heavier together than the parcels, on the items', () => {
    const errors = errorsOf(declaration(), 0.7);
    expect(Object.keys(errors)).toEqual(['customs.items']);
    expect(errors['customs.items']![0]).toMatch(/the items weigh 0\.8 kg .* more than the parcels' 0\.7 kg/);
    expect(errorsOf(declaration(), 0.8)).toEqual({});
  });

  it.each([['12345'], ['12345678901'], ['8471-30'], ['HS 847130'], ['84.71']])('refuses the HS code %j on the item', (hs) => {
    const items = declaration().items;
    items[1] = { ...items[1]!, hs_code: hs };
    expect(Object.keys(errorsOf(declaration({ items })))).toEqual(['customs.items.1.hs_code']);
  });

  it('asks for the HS code of goods, but not of documents', () => {
    const items = declaration().items.map(({ hs_code: _, ...item }) => item);
    expect(Object.keys(errorsOf(declaration({ items })))).toEqual(['customs.items.0.hs_code', 'customs.items.1.hs_code']);
    expect(errorsOf(declaration({ items: [{ ...items[0]!, hs_code: '  ' }] }))['customs.items.0.hs_code']![0]).toMatch(/is required for goods/);
    expect(errorsOf(declaration({ contents_type: 'documents', items }))).toEqual({});
  });

  it('refuses an origin that is no country, an unknown incoterm, currency or invoice date', () => {
    const items = declaration().items;
    items[0] = { ...items[0]!, origin_country: 'EU' };
    expect(Object.keys(errorsOf(declaration({ items, incoterm: 'DDU', currency: 'EURO', invoice_date: '2026-02-30' })))).toEqual([
      'customs.incoterm', 'customs.currency', 'customs.invoice_date', 'customs.items.0.origin_country',
    ]);
    expect(errorsOf(declaration({ invoice_date: '26.11.2026' }))).toHaveProperty(['customs.invoice_date']);
  });

  it('refuses values with more than 2 decimals and quantities that are no whole positive number', () => {
    const items = declaration().items;
    items[0] = { ...items[0]!, unit_value: 12.505 };
    items[1] = { ...items[1]!, quantity: 1.5 };
    expect(errorsOf(declaration({ items }), 5)).toEqual({
      'customs.items.0.unit_value': ['must have at most 2 decimals'],
      'customs.items.1.quantity': ['must be a whole number of pieces, 1 or more'],
    });
    items[1] = { ...items[1]!, quantity: 0 };
    expect(Object.keys(errorsOf(declaration({ items }), 5))).toContain('customs.items.1.quantity');
  });

  it('reports under the path it is given (an order, an import row)', () => {
    const items = declaration().items;
    items[0] = { ...items[0]!, hs_code: '12' };
    expect(Object.keys(errorsOf(declaration({ items }), 1, 'orders.3.customs'))).toEqual(['orders.3.customs.items.0.hs_code']);
  });
});
