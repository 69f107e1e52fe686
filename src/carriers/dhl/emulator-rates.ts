/**
 * The emulated DHL account's tariff, and the MyDHL API answers that carry it: `shipmentCharges` of a created shipment
 * (`getRateEstimates`), `POST /rates` (supermodelIoLogisticsExpressRates of the MyDHL OpenAPI 3.1.1) and the one-piece
 * `GET /rates` that channel validation asks, answered without prices. One tariff, so a rate and a creation agree.
 */
import { DHL_PRODUCTS } from './codes.js';
import type { SeenRateRequest, SeenShipmentRequest } from './emulator-validation.js';

/** The emulator's own tariff: 24.90 EUR and 3.60 EUR a started kilogram of each piece; the Czech public rate at 25 CZK a euro. */
function tariff(pieceWeightsKg: readonly number[]): { euros: number; crowns: number } {
  const kilograms = pieceWeightsKg.reduce((kg, weight) => kg + Math.ceil(weight), 0);
  const euros = Math.round((24.9 + 3.6 * kilograms) * 100) / 100;
  return { euros, crowns: Math.round(euros * 25) };
}

const productName = (code: string) => DHL_PRODUCTS[code]?.name.toUpperCase() ?? code;

/** A created shipment's charges in the billing currency (BILLC) and the origin's public-rate currency (PULCL), as MyDHL lists `shipmentCharges`. */
export function emulatedCharges(r: SeenShipmentRequest) {
  const { euros, crowns } = tariff(r.content.packages.map((p) => p.weight));
  const name = productName(r.productCode);
  return [
    { currencyType: 'PULCL', priceCurrency: 'CZK', price: crowns, serviceBreakdown: [{ name, price: crowns }] },
    { currencyType: 'BILLC', priceCurrency: 'EUR', price: euros, serviceBreakdown: [{ name, price: euros }] },
  ];
}

/** The emulator's transit: the next working day at home, two working days abroad. */
function transitDays(r: SeenRateRequest): number {
  return r.customerDetails.shipperDetails.countryCode === r.customerDetails.receiverDetails.countryCode ? 1 : 2;
}

/** `days` working days after the planned shipping day, by the end of the day, as DHL writes `estimatedDeliveryDateAndTime`. */
function deliveredBy(plannedShippingDateAndTime: string, days: number): string {
  const day = new Date(`${plannedShippingDateAndTime.slice(0, 10)}T00:00:00Z`);
  for (let left = days; left > 0;) {
    day.setUTCDate(day.getUTCDate() + 1);
    if (day.getUTCDay() !== 0 && day.getUTCDay() !== 6) left--;
  }
  return `${day.toISOString().slice(0, 10)}T23:59:00`;
}

/** `POST /rates` 200: the product asked for (every product when none), priced by the tariff, with its delivery estimate. */
export function ratesAnswer(r: SeenRateRequest) {
  const { euros, crowns } = tariff(r.packages.map((p) => p.weight));
  const days = transitDays(r);
  const provided = r.packages.reduce((kg, p) => kg + p.weight, 0);
  const codes = r.productCode !== undefined ? [r.productCode] : Object.keys(DHL_PRODUCTS);
  return {
    products: codes.map((code) => ({
      productName: productName(code), productCode: code, localProductCode: code, localProductCountryCode: r.customerDetails.shipperDetails.countryCode,
      networkTypeCode: 'TD', isCustomerAgreement: false,
      weight: { volumetric: 0, provided: Math.round(provided * 1000) / 1000, unitOfMeasurement: r.unitOfMeasurement },
      totalPrice: [{ currencyType: 'BILLC', priceCurrency: 'EUR', price: euros }, { currencyType: 'PULCL', priceCurrency: 'CZK', price: crowns }],
      deliveryCapabilities: { deliveryTypeCode: 'QDDC', estimatedDeliveryDateAndTime: deliveredBy(r.plannedShippingDateAndTime, days), totalTransitDays: days },
    })),
  };
}

/** One-piece `GET /rates` of channel validation: the products without prices. */
export function unpricedRatesAnswer(query: { originCountryCode: string; weight: string; unitOfMeasurement: string }) {
  return {
    products: Object.keys(DHL_PRODUCTS).map((productCode) => ({
      productName: productName(productCode), productCode, localProductCode: productCode, localProductCountryCode: query.originCountryCode,
      isCustomerAgreement: false, weight: { volumetric: 0, provided: Number(query.weight), unitOfMeasurement: query.unitOfMeasurement }, totalPrice: [],
    })),
    warnings: ["Price can't be calculated"],
  };
}
