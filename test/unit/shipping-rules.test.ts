import { describe, expect, it } from 'vitest';
import { FieldErrorCollector } from '../../src/domain/errors.js';
import { checkRuleConditions, matchesPattern, ruleFacts, unmetCondition } from '../../src/domain/shipping-rules.js';

const parcel = (kg: number, unit = 'KG') => ({ weight_amount: kg, weight_unit: unit, length_dimension: 60, width_dimension: 40, height_dimension: 30, dimension_unit: 'CM' });

describe('shipping rule conditions', () => {
  it('matches reference and tag patterns with * and ?, case ignored, whole value only', () => {
    expect(matchesPattern('EXP-*', 'exp-2041')).toBe(true);
    expect(matchesPattern('EXP-*', 'SHOP-EXP-1')).toBe(false);
    expect(matchesPattern('*-B2B', 'ORD-1-b2b')).toBe(true);
    expect(matchesPattern('R-??', 'R-07')).toBe(true);
    expect(matchesPattern('R-??', 'R-107')).toBe(false);
    expect(matchesPattern('*', '')).toBe(true);
    // a pattern that makes a regular expression backtrack for ever answers at once here
    expect(matchesPattern(`${'*a'.repeat(50)}*b`, 'a'.repeat(10_000))).toBe(false);
  });

  it('reads the facts of a body as given: kilograms from any unit, unknown where a parcel lacks a weight', () => {
    const facts = ruleFacts({ parcels: [parcel(500, 'G'), parcel(2.2, 'LB')], customs: { items: [{ quantity: 2, unit_value: 12.5 }] } });
    // 2.2 lb is 0.998 kg (kilograms are kept to the gram)
    expect(facts.weightKg).toBeCloseTo(1.498, 6);
    expect(facts.longestSideCm).toBe(60);
    expect(facts.orderValue).toBe(25);
    expect(ruleFacts({ parcels: [parcel(1), { length_dimension: 10 }] }).weightKg).toBeNull();
    expect(unmetCondition({ weight_kg: { max: 30 } }, ruleFacts({ parcels: [{}] }))).toBe('its weight is not known yet');
  });

  it('holds when every condition given holds, and says which one fails first', () => {
    const facts = ruleFacts({
      destination_address: { country_code: 'SK', postal_code: '811 06' }, parcels: [parcel(12), parcel(9)],
      cash_on_delivery_amount: 45, cash_on_delivery_currency: 'EUR', reference_number: 'EXP-1', metadata: { shop: 'wholesale-sk' },
    }, 'wf_1');
    expect(unmetCondition({}, facts)).toBeNull();
    expect(unmetCondition({
      destination_countries: ['SK', 'HU'], destination_postal_code_prefixes: ['81-'], weight_kg: { min: 21, max: 21 }, parcel_count: { min: 2 },
      cash_on_delivery: true, cash_on_delivery_amount: { max: 45 }, pickup_point: false, reference_pattern: 'exp-*', metadata: { shop: 'wholesale*' },
      import_folder_ids: ['wf_1'],
    }, facts)).toBeNull();
    expect(unmetCondition({ destination_countries: ['CZ'] }, facts)).toBe('it goes to SK, not CZ');
    expect(unmetCondition({ weight_kg: { max: 20 } }, facts)).toBe('its weight 21 kg is above 20 kg');
    expect(unmetCondition({ cash_on_delivery_amount: { min: 50 } }, facts)).toBe('its amount to collect 45 EUR is below 50 EUR');
    expect(unmetCondition({ cash_on_delivery: false }, facts)).toBe('it has cash on delivery');
    expect(unmetCondition({ pickup_point: true }, facts)).toBe('it goes to a door, not a pickup point');
    expect(unmetCondition({ order_value: { min: 100 } }, facts)).toBe('its order value (its customs items) is not known yet');
    expect(unmetCondition({ import_folder_ids: ['wf_2'] }, facts)).toBe('it came from another watched folder');
    expect(unmetCondition({ metadata: { channel: '*' } }, facts)).toBeNull();
    expect(unmetCondition({ metadata: { shop: 'retail*' } }, facts)).toBe('its metadata shop does not match retail*');
  });

  it('refuses conditions that can never hold or name unknown countries', () => {
    const errors = new FieldErrorCollector();
    checkRuleConditions({ destination_countries: ['SK', 'UK'], parcel_count: { min: 3, max: 2 }, cash_on_delivery: false, cash_on_delivery_amount: { min: 1 } }, errors);
    expect(errors.errors).toEqual({
      'conditions.destination_countries.1': ['must be an ISO 3166-1 alpha-2 country code'],
      'conditions.parcel_count.max': ['must not be below min (3)'],
      'conditions.cash_on_delivery_amount': ['can never hold with cash_on_delivery false'],
    });
  });
});
