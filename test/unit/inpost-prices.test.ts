import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { calculatePrices } from '../../src/carriers/inpost/emulator-prices.js';
import { inpostCalculateRequest, inpostShipmentRequest } from '../../src/carriers/inpost/request.js';
import { parseCalculatedPrice, type InpostCalculatedPrice } from '../../src/carriers/inpost/response.js';
import { inpostSettings } from '../../src/carriers/inpost/settings.js';
import { findProvider } from '../../src/carriers/registry.js';
import { demoShipment } from '../helpers/dispatch-adapter.js';

const inpost = findProvider('inpost')!;
const settings = inpostSettings.parse(inpost.demo.settings);
const fixture = JSON.parse(readFileSync(new URL('../../src/carriers/inpost/fixtures/calculated.prepaid-and-postpaid.json', import.meta.url), 'utf8')) as {
  body: InpostCalculatedPrice[]; prices: Record<string, unknown>; refusals: Record<string, string>;
};

/** InPost's ShipX price calculation (`shipments/calculate`): the shipment as creation sends it, and the total it answers. */
describe('InPost ShipX price calculation', () => {
  it('asks for the shipment creation would send, under its id', () => {
    const s = { ...demoShipment(inpost, 'shp_price', '2026-11-26', 2), cashOnDelivery: { amountMinor: 12_000, currency: 'PLN' } };
    expect(inpostCalculateRequest(s, settings)).toEqual({ shipments: [{ id: 'shp_price', ...inpostShipmentRequest(s, settings) }] });
  });

  it("reads each shipment's total in PLN, and refuses a shipment ShipX prices nothing for (a postpaid organization)", () => {
    for (const [id, price] of Object.entries(fixture.prices)) expect(parseCalculatedPrice(fixture.body, id)).toEqual(price);
    for (const [id, why] of Object.entries(fixture.refusals)) expect(() => parseCalculatedPrice(fixture.body, id)).toThrow(why);
  });

  it('the emulator prices what ShipX would create and refuses the rest with its form details', () => {
    const s = { ...demoShipment(inpost, 'shp_price', '2026-11-26', 2), cashOnDelivery: { amountMinor: 12_000, currency: 'PLN' } };
    const answer = calculatePrices(inpostCalculateRequest(s, settings));
    expect(answer).toMatchObject({ ok: true, prices: [{ id: 'shp_price', calculated_charge_amount: '42.68', cod_charge_amount: '3.50', insurance_charge_amount: '1.20' }] });
    const { shipments: [one] } = inpostCalculateRequest(s, settings);
    expect(calculatePrices({ shipments: [{ ...one, receiver: { ...one!.receiver, phone: '+420602333444' } }] }))
      .toEqual({ ok: false, details: { shipments: [{ 0: { receiver: [{ phone: ['invalid'] }] } }] } });
    expect(calculatePrices({ shipments: [one, { ...one, id: undefined }] })).toEqual({ ok: false, details: { shipments: [{ 1: { id: ['required'] } }] } });
  });
});
