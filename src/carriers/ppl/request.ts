import { formatMinorUnits } from '../../domain/money.js';
import { productForShipment } from '../codes.js';
import { CarrierRefusedError } from '../errors.js';
import type { CarrierParty, LabelFormat, ShipmentForCarrier } from '../types.js';
import { PPL_PRODUCTS, PPL_RETURN_PRODUCT, pplAccessPointProduct } from './codes.js';
import type { PplSettings } from './settings.js';

/**
 * Our shipment → PPL CPL API `POST /shipment/batch` body. Pure. Docs: https://ppl-cpl-api-en.apidog.io; the body's
 * schema: PPL's CPL OpenAPI, vendored in fixtures/schema/.
 */

const LABEL_FORMATS: Record<LabelFormat, string | undefined> = { pdf: 'Pdf', zpl: 'Zpl', epl: undefined };

export interface PplAddress {
  name: string;
  name2?: string;
  street: string;
  city: string;
  zipCode: string;
  country: string;
  contact?: string;
  phone: string;
  email: string;
}

/** PPL address: name ≤ 50 and street ≤ 60 characters; the person goes to name2/contact when a company is named. */
export function pplAddress(party: CarrierParty): PplAddress {
  const name = (party.companyName ?? party.personName ?? '').slice(0, 50);
  const house = party.apartmentNumber ? `${party.houseNumber}/${party.apartmentNumber}` : party.houseNumber;
  return {
    name,
    ...(party.companyName && party.personName ? { name2: party.personName.slice(0, 50) } : {}),
    street: `${party.street} ${house}`.slice(0, 60),
    city: party.city.slice(0, 50),
    zipCode: party.postalCode.replace(/\s+/g, ''),
    country: party.countryCode,
    ...(party.personName ? { contact: party.personName.slice(0, 50) } : {}),
    phone: party.phone,
    email: party.email,
  };
}

/** PPL's variable symbol is numeric (≤ 10 digits): taken from the digits of our reference. */
export function variableSymbol(reference: string | null): string | undefined {
  const digits = (reference ?? '').replace(/\D/g, '');
  return digits ? digits.slice(-10) : undefined;
}

/** `specificDelivery.parcelShopCode` is at most 50 characters (ShipmentBatch.SpecificDeliveryFeatureModel of PPL's CPL OpenAPI). */
const ACCESS_POINT_CODE_MAX = 50;

/**
 * The product before the COD switch: a return goes with PPL's return product whatever the channel's; a shipment to an access point goes with the Smart product of the point's country,
 * whatever the channel's product; a door shipment with the channel's, which must not be a Smart product (it needs a point).
 */
function baseProduct(s: ShipmentForCarrier, settings: PplSettings): string {
  if (s.returnOf) return PPL_RETURN_PRODUCT;
  if (s.pickupPoint) {
    const code = s.pickupPoint.id;
    if (code.trim() === '' || code.length > ACCESS_POINT_CODE_MAX) {
      throw new CarrierRefusedError(`PPL access point code "${code.slice(0, 60)}" is not a PPL point code`, {
        pickup_point: [`a PPL access point code has 1 to ${ACCESS_POINT_CODE_MAX} characters (e.g. KM10000042)`],
      });
    }
    return pplAccessPointProduct(s.recipient.countryCode);
  }
  if (PPL_PRODUCTS[settings.productType]?.toAccessPoint) {
    throw new CarrierRefusedError(`PPL product ${settings.productType} delivers only to a ParcelShop or ParcelBox`, {
      pickup_point: [`PPL product ${settings.productType} delivers to a pickup point: give the shipment a pickup point, or choose a door product on the channel`],
    });
  }
  return settings.productType;
}

/**
 * `note` is printed on the label (PPL's examples: "note for the label"); a return names there the shipment it returns,
 * since the batch body has no field for it (inferred), before the label comment.
 */
function labelNote(s: ShipmentForCarrier): string | undefined {
  const lines = [s.returnOf ? `Return of PPL shipment ${s.returnOf.providerShipmentId}` : null, s.labelComment].filter(Boolean);
  return lines.length > 0 ? lines.join(' · ').slice(0, 300) : undefined;
}

export function pplBatchRequest(s: ShipmentForCarrier, settings: PplSettings) {
  const format = LABEL_FORMATS[s.labelFormat];
  if (!format) throw new CarrierRefusedError(`PPL cannot produce ${s.labelFormat} labels`, { label_format: [`PPL cannot produce ${s.labelFormat} labels`] });
  const productType = productForShipment('PPL', PPL_PRODUCTS, baseProduct(s, settings), s.cashOnDelivery !== null);
  const cod = s.cashOnDelivery;
  const varSym = variableSymbol(s.reference);
  const note = labelNote(s);
  return {
    returnChannel: { type: 'None' },
    // all parcels' labels in one document, one label a page (pageSize Default): one download instead of one per parcel
    labelSettings: { format, dpi: s.labelFormat === 'zpl' ? 203 : 300, completeLabelSettings: { isCompleteLabelRequested: true, pageSize: 'Default' } },
    shipments: [{
      referenceId: s.id,
      productType,
      ...(note ? { note } : {}),
      ...(settings.depot ? { depot: settings.depot } : {}),
      shipmentSet: {
        numberOfShipments: s.parcels.length,
        shipmentSetItems: s.parcels.map((p) => ({ weighedShipmentInfo: { weight: p.weightKg } })),
      },
      sender: pplAddress(s.sender),
      recipient: pplAddress(s.recipient),
      ...(s.pickupPoint ? { specificDelivery: { parcelShopCode: s.pickupPoint.id } } : {}),
      ...(cod ? {
        cashOnDelivery: { codPrice: Number(formatMinorUnits(cod.amountMinor)), codCurrency: cod.currency, ...(varSym ? { codVarSym: varSym } : {}) },
      } : {}),
      ...(s.reference ? { externalNumbers: [{ code: 'CUST', externalNumber: s.reference.slice(0, 50) }] } : {}),
    }],
  };
}

export type PplBatchRequest = ReturnType<typeof pplBatchRequest>;
