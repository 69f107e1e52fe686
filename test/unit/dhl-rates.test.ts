import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { emulatedCharges, ratesAnswer } from '../../src/carriers/dhl/emulator-rates.js';
import type { SeenRateRequest, SeenShipmentRequest } from '../../src/carriers/dhl/emulator-validation.js';
import { dhlRateRequest, dhlShipmentRequest } from '../../src/carriers/dhl/request.js';
import { parseRates, type DhlRatesBody } from '../../src/carriers/dhl/response.js';
import { dhlSettings } from '../../src/carriers/dhl/settings.js';
import { findProvider } from '../../src/carriers/registry.js';
import { demoShipment, threeGoods } from '../helpers/dispatch-adapter.js';
import { carrierSchemaErrors } from '../helpers/json-schema.js';

const dhl = findProvider('dhl')!;
const settings = dhlSettings.parse(dhl.demo.settings);
const fixture = (name: string) => JSON.parse(readFileSync(new URL(`../../src/carriers/dhl/fixtures/${name}`, import.meta.url), 'utf8')) as {
  productCode: string; body: DhlRatesBody; result?: unknown; refusal?: string;
};
const rateRequestErrors = carrierSchemaErrors('dhl', 'create-request.schema.json', 'supermodelIoLogisticsExpressRateRequest');
const ratesAnswerErrors = carrierSchemaErrors('dhl', 'create-request.schema.json', 'supermodelIoLogisticsExpressRates');

/** DHL Express's MyDHL `POST /rates`: the request packdesk sends for a quote, and the price it reads of DHL's answer. */
describe('DHL Express rates (MyDHL POST /rates)', () => {
  const twoParcelsCod = { ...demoShipment(dhl, 'shp_rates', '2026-11-26', 2), cashOnDelivery: { amountMinor: 4000, currency: 'EUR' } };

  it("asks for the shipment's every piece, for the channel's account and product, with COD as at creation, within the published schema", () => {
    const request = dhlRateRequest(twoParcelsCod, settings);
    expect(rateRequestErrors(request)).toEqual([]);
    expect(request).toMatchObject({
      accounts: [{ typeCode: 'shipper', number: settings.accountNumber }], productCode: settings.productCode,
      valueAddedServices: [{ serviceCode: 'KB', value: 40, currency: 'EUR' }], isCustomsDeclarable: false, unitOfMeasurement: 'metric',
      plannedShippingDateAndTime: '2026-11-26T12:00:00 GMT+00:00', estimatedDeliveryDate: { isRequested: true, typeCode: 'QDDC' },
      packages: [{ weight: 1, dimensions: { length: 30, width: 20, height: 10 } }, { weight: 2, dimensions: { length: 30, width: 20, height: 10 } }],
    });
    // the pieces and the services are the creation's own
    const created = dhlShipmentRequest(twoParcelsCod, settings);
    expect(request.valueAddedServices).toEqual(created.valueAddedServices);
    expect(request.packages).toEqual(created.content.packages.map(({ weight, dimensions }) => ({ weight, dimensions })));
  });

  it('declares the goods’ value where the route crosses a customs border', () => {
    const toUs = { ...demoShipment(dhl, 'shp_us', '2026-11-26'), customs: threeGoods('EUR', 'INV-1', '2026-11-26') };
    toUs.recipient = { ...toUs.recipient, countryCode: 'US', postalCode: '10001', city: 'New York' };
    const request = dhlRateRequest(toUs, settings);
    expect(rateRequestErrors(request)).toEqual([]);
    expect(request).toMatchObject({ isCustomsDeclarable: true, monetaryAmount: [{ typeCode: 'declaredValue', value: 106.73, currency: 'EUR' }] });
  });

  it("reads the channel's product's total in the billing currency, its transit days and estimated delivery", () => {
    const { productCode, body, result } = fixture('rates.two-products-billing-currency.json');
    expect(ratesAnswerErrors(body)).toEqual([]);
    expect(parseRates(body, productCode)).toEqual(result);
  });

  it('refuses an answer without a price, with DHL\'s warning', () => {
    const { productCode, body, refusal } = fixture('rates.price-cannot-be-calculated.json');
    expect(() => parseRates(body, productCode)).toThrow(refusal);
  });

  it("the emulator answers in DHL's shape, at the price its creation charges", () => {
    const request = dhlRateRequest(twoParcelsCod, settings);
    const answer = ratesAnswer(request as unknown as SeenRateRequest);
    expect(ratesAnswerErrors(answer)).toEqual([]);
    const billed = emulatedCharges(dhlShipmentRequest(twoParcelsCod, settings) as unknown as SeenShipmentRequest).find((c) => c.currencyType === 'BILLC')!;
    // 24.90 EUR and 3.60 EUR a started kilogram (1 + 2 kg); Prague → Brno, the next working day: Thursday → Friday
    expect(parseRates(answer, settings.productCode)).toEqual({
      amountMinor: Math.round(billed.price * 100), currency: 'EUR', transitDays: 1, estimatedDelivery: '2026-11-27T23:59:00', product: settings.productCode,
    });
    // abroad, two working days, over the weekend: Thursday → Monday
    const abroad = ratesAnswer({ ...request, customerDetails: { ...request.customerDetails, receiverDetails: { ...request.customerDetails.receiverDetails, countryCode: 'SK' } } } as unknown as SeenRateRequest);
    expect(parseRates(abroad, settings.productCode)).toMatchObject({ transitDays: 2, estimatedDelivery: '2026-11-30T23:59:00' });
    expect(billed.price).toBe(35.7);
  });
});
