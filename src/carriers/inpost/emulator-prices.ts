/**
 * ShipX's price calculation (`POST /v1/organizations/{id}/shipments/calculate`, 18153505 "Shipment price calculation")
 * as the emulator answers it: each asked shipment held to creation's checks, then priced by the emulated
 * organization's own tariff, amounts as ShipX writes them (PLN, text with two decimals).
 */
import { INPOST_LOCKER_SERVICE } from './codes.js';
import { checkShipment, type InpostEmulatedShipmentRequest } from './emulator-validation.js';

/** The emulated organization's tariff (its own, not InPost's): a parcel by locker 13.99 PLN, by courier 18.99 PLN; COD 3.50 PLN; insurance 1 % of the amount. */
const PARCEL_PLN = { locker: 13.99, courier: 18.99 };
const COD_PLN = 3.5;
const INSURANCE_PERCENT = 1;

const pln = (amount: number) => amount.toFixed(2);

function priced(id: string, r: InpostEmulatedShipmentRequest) {
  const parcels = r.parcels.length * (r.service === INPOST_LOCKER_SERVICE ? PARCEL_PLN.locker : PARCEL_PLN.courier);
  const cod = r.cod === null ? 0 : COD_PLN;
  const insurance = r.insurance === null ? 0 : Math.round(r.insurance * INSURANCE_PERCENT) / 100;
  return {
    id, calculated_charge_amount: pln(parcels + cod + insurance), fuel_charge_amount: pln(0), notification_charge_amount: pln(0),
    cod_charge_amount: pln(cod), insurance_charge_amount: pln(insurance), calculated_charge_amount_non_commission: pln(parcels),
  };
}

/**
 * The prices of `{shipments: [...]}`, or the `details` of the first shipment ShipX would not create, under its index
 * (inferred: the page documents no refusal; ShipX's validation_failed with its form's details stands for it).
 */
export function calculatePrices(body: unknown): { ok: true; prices: ReturnType<typeof priced>[] } | { ok: false; details: Record<string, unknown> } {
  const asked = (body as { shipments?: unknown } | null)?.shipments;
  if (!Array.isArray(asked) || asked.length === 0) return { ok: false, details: { shipments: ['required'] } };
  const prices: ReturnType<typeof priced>[] = [];
  for (const [i, shipment] of asked.entries()) {
    const { id, ...form } = (shipment ?? {}) as { id?: unknown };
    // "Shipment ID. Required when calculating prices for multiple shipments"
    if (asked.length > 1 && (typeof id !== 'string' || id === '')) return { ok: false, details: { shipments: [{ [i]: { id: ['required'] } }] } };
    const check = checkShipment(form);
    if (!check.ok) return { ok: false, details: { shipments: [{ [i]: check.details }] } };
    prices.push(priced(typeof id === 'string' ? id : String(i + 1), check.value));
  }
  return { ok: true, prices };
}
