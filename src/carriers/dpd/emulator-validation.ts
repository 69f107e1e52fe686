/**
 * `POST /shipping/v1/shipment` checks of the META-API emulator: the query, then the published request schema
 * (errorOrigin META-API), then the business unit's rules (errorOrigin BU-API). Every error names the GeoAPI field
 * (`receiver.address.zipCode`, `parcel[1].parcelInfos.weight`); the codes and wordings are the emulator's own, DPD
 * publishes none.
 */
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { LabelFormat } from '../../domain/labels.js';
import { DPD_BUS_WITHOUT_RETURN, DPD_PAPER_FORMATS, DPD_PRODUCTS, DPD_RETURN_PRODUCT } from './codes.js';
import { customsMessages, type SeenInternational } from './emulator-customs.js';
import createRequestSchema from './fixtures/schema/create-request.schema.json' with { type: 'json' };
import type { DpdError } from './response.js';
import { noSuchPlace } from '../emulator/no-such-place.js';
import type { DpdPickupPoints } from './emulator-points.js';

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

export interface SeenAddress {
  companyName?: string;
  name1?: string;
  street: string;
  houseNumber?: string;
  country: string;
  zipCode: string;
  city: string;
}

export interface SeenParty {
  /** The receiver's Pickup point (the schema has no pudoId on the sender). */
  pudoId?: string;
  address: SeenAddress;
  contact?: { contactPerson?: string; phone1?: string; email?: string };
}

export interface SeenParcel {
  parcelInfos?: { weight?: string };
  cod?: { amount: { amount: number; currency: string }; collectType: string; purpose?: string };
}

/** The parts of a schema-valid `Shipment` the emulator reads. */
export interface SeenShipment {
  customerReferenceNumbers?: string[];
  shipmentInfos?: { productCode: string };
  numberOfParcels: string;
  mpsCompleteDelivery?: string;
  sender: SeenParty;
  receiver: SeenParty;
  international?: SeenInternational;
  parcel: SeenParcel[];
}

export type Verdict =
  | { ok: true; shipment: SeenShipment; format: LabelFormat }
  | { ok: false; errors: DpdError[] };

/** `LabelPrintFormat` values of the OpenAPI; the emulator prints the three packdesk reads, as a business unit may. */
const PRINT_FORMATS = ['PDF', 'EPL', 'ZPL', 'TIFF', 'PPR', 'SPD', 'Z2D', 'THE', 'XML', 'XML2D', 'THEPSG', 'ZPLPSG', 'ZPL300', 'JSON', 'PS', 'DATA', 'CLP', 'HTML', 'PNG'];
const RENDERED: Record<string, LabelFormat> = { PDF: 'pdf', ZPL: 'zpl', EPL: 'epl' };

let compiled: ValidateFunction | undefined;

function schemaValidator(): ValidateFunction {
  if (!compiled) {
    const ajv = new Ajv({ strict: false, allErrors: true });
    addFormats(ajv);
    compiled = ajv.compile(createRequestSchema);
  }
  return compiled;
}

const metaError = (errorMessage: string): DpdError => ({ errorCode: 'INVALID_REQUEST', errorMessage, errorOrigin: 'META-API' });
const buError = (errorCode: string, errorMessage: string): DpdError => ({ errorCode, errorMessage, errorOrigin: 'BU-API' });

/** `/0/parcel/1/parcelInfos/weight` → `parcel[1].parcelInfos.weight` (the array of shipments dropped). */
function fieldOf(pointer: string): string {
  return pointer.split('/').slice(2).reduce((path, part) => (/^\d+$/.test(part) ? `${path}[${part}]` : path ? `${path}.${part}` : part), '');
}

function schemaMessage(e: ErrorObject): string {
  const field = fieldOf(e.instancePath);
  const params = e.params as Record<string, unknown>;
  if (e.keyword === 'required') return `${field ? `${field}.` : ''}${String(params.missingProperty)}: is mandatory`;
  if (e.keyword === 'additionalProperties') return `${field ? `${field}.` : ''}${String(params.additionalProperty)}: unknown field`;
  return `${field || 'shipment'}: ${e.message ?? e.keyword}`;
}

/** The zip-code pattern of the schema backtracks badly on long input: longer values are refused before it runs. */
function overlongZipCodes(body: unknown): string[] {
  const shipments = Array.isArray(body) ? body as Record<string, { address?: { zipCode?: unknown } } | undefined>[] : [];
  return shipments.flatMap((s) => (['sender', 'receiver'] as const)
    .filter((party) => { const zip = s?.[party]?.address?.zipCode; return typeof zip === 'string' && zip.length > 9; })
    .map((party) => `${party}.address.zipCode: must NOT have more than 9 characters`));
}

/** Parcel to Shop: the point product needs a point ("*2 Mandatory if Parcel to Shop has been requested"), a point an open one of DPD's. */
function pointErrors(s: SeenShipment, points: DpdPickupPoints): DpdError[] {
  const code = s.shipmentInfos?.productCode ?? '';
  const product = DPD_PRODUCTS[code];
  const { pudoId } = s.receiver;
  if (pudoId === undefined) return product?.toPoint ? [buError('MANDATORY_FIELD', `receiver.pudoId is mandatory for product ${code} (Parcel to Shop)`)] : [];
  // inferred: a door product with a point is refused rather than delivered to the address
  if (product && !product.toPoint) return [buError('ROUTING_15', `receiver.pudoId: product ${code} delivers to an address, not to a Pickup point`)];
  const refused = points.refusal(pudoId);
  return refused ? [buError(...refused)] : [];
}

function businessErrors(s: SeenShipment, businessUnit: string, points: DpdPickupPoints): DpdError[] {
  const errors: DpdError[] = [];
  const code = s.shipmentInfos?.productCode ?? '';
  const product = DPD_PRODUCTS[code];
  if (!product) errors.push(buError('ROUTING_15', `shipmentInfos.productCode ${code}: service combination not possible`));
  if (code === DPD_RETURN_PRODUCT && DPD_BUS_WITHOUT_RETURN.includes(businessUnit)) {
    errors.push(buError('ROUTING_15', `shipmentInfos.productCode ${code}: service combination not possible in business unit ${businessUnit}`));
  }
  if (Number(s.numberOfParcels) !== s.parcel.length) errors.push(buError('MANDATORY_FIELD', `numberOfParcels ${s.numberOfParcels} does not match ${s.parcel.length} parcel entries`));
  for (const party of ['sender', 'receiver'] as const) {
    const { zipCode, country } = s[party].address;
    if (noSuchPlace(zipCode)) errors.push(buError('ROUTING_ZIPCODE', `${party}.address.zipCode ${zipCode} is not a valid zip code for country ${country}`));
  }
  if (!s.receiver.address.name1 && !s.receiver.address.companyName) errors.push(buError('MANDATORY_FIELD', 'receiver.address.name1 is mandatory'));
  if (!s.receiver.contact?.phone1) errors.push(buError('MANDATORY_FIELD', 'receiver.contact.phone1 is mandatory'));
  errors.push(...pointErrors(s, points));
  errors.push(...customsMessages(s.sender.address.country, s.receiver.address.country, s.international).map((m) => buError('CUSTOMS', m)));
  const cods = s.parcel.filter((p) => p.cod);
  if (product?.cod && cods.length === 0) errors.push(buError('MANDATORY_FIELD', `parcel[0].cod is mandatory for product ${code}`));
  if (product && !product.cod && cods.length > 0) errors.push(buError('ROUTING_15', `parcel[0].cod: product ${code} carries no cash on delivery (use its COD product)`));
  if (cods.length > 0 && s.mpsCompleteDelivery !== 's2') errors.push(buError('MANDATORY_FIELD', 'mpsCompleteDelivery must be s2 (complete delivery) with cash on delivery'));
  s.parcel.forEach((p, i) => {
    const grams = Number(p.parcelInfos?.weight);
    if (!Number.isInteger(grams) || grams <= 0) errors.push(buError('MANDATORY_FIELD', `parcel[${i}].parcelInfos.weight is mandatory, in whole grams`));
    else if (product && grams > product.maxParcelWeightKg * 1000) {
      errors.push(buError('WEIGHT_LIMIT', `parcel[${i}].parcelInfos.weight ${grams} g exceeds the limit of ${product.maxParcelWeightKg * 1000} g of product ${code}`));
    }
  });
  return errors;
}

/** `businessUnit`: the call's X-DPD-BUCODE, whose products the shipment is checked against. */
export function validateShipmentCall(query: Record<string, string | undefined>, body: unknown, businessUnit: string, points: DpdPickupPoints): Verdict {
  const format = query.LabelPrintFormat ?? '';
  if (!PRINT_FORMATS.includes(format)) return { ok: false, errors: [metaError('LabelPrintFormat: must be equal to one of the allowed values')] };
  const rendered = RENDERED[format];
  if (!rendered) return { ok: false, errors: [buError('LABEL_FORMAT', `LabelPrintFormat ${format} is not available in this business unit`)] };
  if (query.LabelPaperFormat !== undefined && !(DPD_PAPER_FORMATS as readonly string[]).includes(query.LabelPaperFormat)) {
    return { ok: false, errors: [metaError('LabelPaperFormat: must be equal to one of the allowed values')] };
  }
  const overlong = overlongZipCodes(body);
  if (overlong.length > 0) return { ok: false, errors: overlong.map(metaError) };
  const validate = schemaValidator();
  if (!validate(body)) return { ok: false, errors: [...new Set((validate.errors ?? []).map(schemaMessage))].map(metaError) };
  const shipments = body as SeenShipment[];
  if (shipments.length !== 1) return { ok: false, errors: [metaError('shipment: one shipment a call')] };
  const errors = businessErrors(shipments[0]!, businessUnit, points);
  return errors.length > 0 ? { ok: false, errors } : { ok: true, shipment: shipments[0]!, format: rendered };
}
