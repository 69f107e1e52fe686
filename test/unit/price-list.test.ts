import { describe, expect, it } from 'vitest';
import { FieldErrorCollector } from '../../src/domain/errors.js';
import { checkPriceList, listPrice, listTransitDays, type PriceList } from '../../src/domain/price-list.js';

/** A Czech warehouse's contract: home, neighbours, the rest of the EU; three bands; COD 25 CZK + 1 %; fuel 10 %; 20 CZK a further parcel. */
const CONTRACT: PriceList = {
  currency: 'CZK', valid_from: '2026-01-01',
  zones: [{ name: 'CZ', countries: ['CZ'] }, { name: 'near', countries: ['SK', 'PL', 'DE', 'AT'] }, { name: 'EU', countries: ['HU', 'SI', 'FR'] }],
  bands: [
    { max_weight_kg: 2, prices: { CZ: 89, near: 180, EU: 320 } },
    { max_weight_kg: 10, prices: { CZ: 119, near: 240, EU: 410 } },
    { max_weight_kg: 31.5, prices: { CZ: 189, near: 390, EU: 650 } },
  ],
  cod: { fixed: 25, percent: 1 }, fuel_percent: 10, extra_parcel: 20,
};
const shipment = { countryCode: 'CZ', parcelWeightsKg: [1.5], cashOnDelivery: null, shippingDate: '2026-11-26' };

describe("a channel's price list", () => {
  it('prices each parcel by its band in the zone, then fuel, further parcels and cash on delivery', () => {
    expect(listPrice(CONTRACT, shipment)).toEqual({ amountMinor: 9790, currency: 'CZK' }); // 89 × 1.1
    // to Slovakia, 2 parcels (2 kg is still the first band, 2.5 kg the second) with 1 499 CZK to collect
    expect(listPrice(CONTRACT, { ...shipment, countryCode: 'SK', parcelWeightsKg: [2, 2.5], cashOnDelivery: { amountMinor: 149_900, currency: 'CZK' } }))
      .toEqual({ amountMinor: Math.round(((180 + 240) * 1.1 + 20 + 25 + 14.99) * 100), currency: 'CZK' });
  });

  it('says why it cannot price a shipment: no zone, too heavy, before it applies, COD percent in another currency', () => {
    expect(listPrice(CONTRACT, { ...shipment, countryCode: 'US' })).toEqual({ cannot: 'the price list has no zone for US' });
    expect(listPrice(CONTRACT, { ...shipment, parcelWeightsKg: [1, 40] })).toEqual({ cannot: "a 40 kg parcel is above the price list's heaviest band (31.5 kg)" });
    expect(listPrice(CONTRACT, { ...shipment, shippingDate: '2025-12-31' })).toEqual({ cannot: 'the price list applies from 2026-01-01' });
    expect(listPrice(CONTRACT, { ...shipment, countryCode: 'SK', cashOnDelivery: { amountMinor: 5000, currency: 'EUR' } }))
      .toEqual({ cannot: "the price list's COD percentage is in CZK, the amount collected in EUR" });
    expect(listPrice({ ...CONTRACT, cod: { fixed: 25 } }, { ...shipment, cashOnDelivery: { amountMinor: 5000, currency: 'EUR' } })).toEqual({ amountMinor: 9790 + 2500, currency: 'CZK' });
  });

  it("names a zone's transit days where the list gives them, for quotes whose carrier tells none", () => {
    const timed = { ...CONTRACT, zones: [{ ...CONTRACT.zones[0]!, transit_days: 1 }, { ...CONTRACT.zones[1]!, transit_days: 2 }, CONTRACT.zones[2]!] };
    expect([listTransitDays(timed, 'CZ'), listTransitDays(timed, 'SK'), listTransitDays(timed, 'FR'), listTransitDays(timed, 'US')]).toEqual([1, 2, null, null]);
    const errors = new FieldErrorCollector();
    checkPriceList({ ...timed, zones: [{ ...timed.zones[0]!, transit_days: 1.5 }, { ...timed.zones[1]!, transit_days: -1 }, timed.zones[2]!] }, errors);
    expect(errors.errors).toEqual({
      'price_list.zones.0.transit_days': ['must be a whole number of days, 0 or more'], 'price_list.zones.1.transit_days': ['must be a whole number of days, 0 or more'],
    });
  });

  it('refuses codes it does not know, a country in two zones, bands out of order and prices for zones that are not there', () => {
    const errors = new FieldErrorCollector();
    checkPriceList({
      ...CONTRACT, currency: 'KCS', valid_from: '2026-02-30',
      zones: [{ name: 'CZ', countries: ['CZ', 'XX'] }, { name: 'near', countries: ['SK', 'CZ'] }],
      bands: [{ max_weight_kg: 5, prices: { CZ: 1, near: 2 } }, { max_weight_kg: 5, prices: { CZ: 1, far: 3 } }],
    }, errors);
    expect(errors.errors).toEqual({
      'price_list.currency': ['must be an ISO 4217 currency code (EUR, CZK, PLN …)'],
      'price_list.valid_from': ['must be a date YYYY-MM-DD'],
      'price_list.zones.0.countries.1': ['must be an ISO 3166-1 alpha-2 country code'],
      'price_list.zones.1.countries.1': ['is already in zone "CZ"'],
      'price_list.bands.1.max_weight_kg': ['must be above the band before it (5 kg): bands go from the lightest'],
      'price_list.bands.1.prices': ['has no price for zone "near"'],
      'price_list.bands.1.prices.far': ['is no zone of the list'],
    });
    const fine = new FieldErrorCollector();
    checkPriceList(CONTRACT, fine);
    expect(fine.errors).toEqual({});
  });
});
