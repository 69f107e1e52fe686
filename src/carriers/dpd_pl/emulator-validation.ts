/**
 * DPD's business checks of one generatePackagesNumbersV4 package, answered the way DPD answers them: a package
 * status and ValidationInfo entries `{ErrorId, ErrorCode, FieldNames, Info}`. Codes, ids and wording from the "Error
 * codes" sheet of DPD's customer documentation 2.87 and its examples (ErrorId 1502 INCORRECT_RECEIVER_POSTAL_CODE,
 * FieldNames ReceiverPostalCode); which FieldNames DPD names for the other codes is inferred.
 */
import { xmlList, xmlObject, xmlString, type XmlObject } from '../soap.js';
import { DPD_PL_PICKUP_LIMITS, DPD_PL_SESSION_TYPES, sessionTypeOf, type DpdPlSessionType } from './codes.js';
import { noSuchPlace } from '../emulator/no-such-place.js';

export interface ValidationInfo {
  ErrorId: number;
  ErrorCode: string;
  FieldNames: string;
  Info: string;
}

export interface EmulatedAddress {
  address: string;
  city: string;
  company: string | null;
  countryCode: string;
  email: string | null;
  fid: string | null;
  name: string | null;
  phone: string | null;
  postalCode: string;
}

export interface EmulatedPackage {
  reference: string | null;
  ref1: string | null;
  sender: EmulatedAddress;
  receiver: EmulatedAddress;
  parcels: { weight: number; content: string | null; reference: string | null }[];
  cod: { amount: string; currency: string } | null;
  sessionType: DpdPlSessionType;
  /** The DPD Pickup point (`services.dpdPickup.pudo`), or null for the door. */
  pudo: string | null;
}

/** What DPD knows of a DPD Pickup point when it takes a package for it. */
export type PudoLookup = (id: string) => { open: boolean; cashOnDelivery: boolean } | undefined;

export type PackageCheck =
  | { ok: true; pkg: EmulatedPackage }
  | { ok: false; status: string; errors: ValidationInfo[]; parcelErrors: ValidationInfo[][] };

function text(node: XmlObject, key: string): string | null {
  const value = xmlString(node[key])?.trim();
  return value ? value : null;
}

export function readAddress(node: XmlObject): EmulatedAddress {
  return {
    address: text(node, 'address') ?? '', city: text(node, 'city') ?? '', company: text(node, 'company'),
    countryCode: text(node, 'countryCode') ?? 'PL', email: text(node, 'email'), fid: text(node, 'fid'), name: text(node, 'name'),
    phone: text(node, 'phone'), postalCode: text(node, 'postalCode') ?? '',
  };
}

/** Polish codes have five digits ("02274"); DPD's post code base has no code of zeros. */
function postalCodeWrong(a: EmulatedAddress): boolean {
  if (noSuchPlace(a.postalCode)) return true;
  return a.countryCode === 'PL' && !/^\d{5}$/.test(a.postalCode);
}

function checkAddress(a: EmulatedAddress, role: 'SENDER' | 'RECEIVER', errors: ValidationInfo[]): void {
  const who = role === 'SENDER' ? 'Sender' : 'Recipient';
  const field = role === 'SENDER' ? 'Sender' : 'Receiver';
  const add = (ErrorId: number, ErrorCode: string, name: string, Info: string) => errors.push({ ErrorId, ErrorCode, FieldNames: `${field}${name}`, Info });
  if (!a.name && !a.company) add(1000, `ERROR_${role}_NAME_OR_COMPANY_REQUIRED`, 'Name', `${who} name or company name required`);
  if (!a.address) add(1000, `ERROR_${role}_ADDRESS_REQUIRED`, 'Address', `${who} address required`);
  if (!a.city) add(1000, `ERROR_${role}_CITY_REQUIRED`, 'City', `${who} city required`);
  if (!a.postalCode) add(1000, `ERROR_${role}_POSTAL_CODE_REQUIRED`, 'PostalCode', `${who} post code required`);
  else if (postalCodeWrong(a)) {
    const [id, noun] = role === 'SENDER' ? [1506, 'sender'] : [1502, 'recipient'];
    add(id, `INCORRECT_${role}_POSTAL_CODE`, 'PostalCode', `Incorrect ${noun} post code format(${a.postalCode})`);
  }
  if ((a.phone?.length ?? 0) > 100) add(role === 'SENDER' ? 1070 : 1061, `ERROR_${role}_PHONE_MAX_SIZE_EXCEEDED`, 'Phone', `${who} telephone number size exceeded (100)`);
  // DPD notifies the recipient (Predict) by phone or e-mail and refuses a recipient it can reach by neither
  if (role === 'RECEIVER' && !a.phone && !a.email) add(3016, 'ERROR_RECEIVER_EMAIL_OR_PHONE_REQUIRED', 'Phone', 'Please provide recipient e-mail address or telephone number');
}

function checkParcel(node: XmlObject, sessionType: DpdPlSessionType): { weight: number; errors: ValidationInfo[] } {
  const errors: ValidationInfo[] = [];
  const raw = text(node, 'weight');
  const weight = raw === null ? NaN : Number(raw);
  const limit = DPD_PL_SESSION_TYPES[sessionType].maxWeightKg;
  if (raw === null) errors.push({ ErrorId: 1000, ErrorCode: 'ERROR_PARCEL_WEIGHT_REQUIRED', FieldNames: 'Weight', Info: 'Parcel weight required' });
  else if (Number.isNaN(weight)) errors.push({ ErrorId: 1001, ErrorCode: 'ERROR_PARCEL_WEIGHT_MUST_BE_NUMBER', FieldNames: 'Weight', Info: 'Weight must be a number' });
  else if (weight < 0.01) errors.push({ ErrorId: 1011, ErrorCode: 'ERROR_INCORRECT_WEIGHT', FieldNames: 'Weight', Info: 'Minimum parcel weight 0.01 kg' });
  else if (weight > limit) {
    const interval = sessionType === 'DOMESTIC' ? '0.51 - 50kg' : '0.01 - 31.5kg';
    errors.push({ ErrorId: 1000, ErrorCode: 'ERROR_PARCEL_WEIGHT_INCORRECT', FieldNames: 'Weight', Info: `Incorrect parcel weight value (allowed interval ${interval})` });
  }
  return { weight, errors };
}

function checkCod(services: XmlObject, sessionType: DpdPlSessionType, errors: ValidationInfo[]): EmulatedPackage['cod'] {
  if (!('cod' in services)) return null;
  const cod = xmlObject(services.cod);
  const amount = text(cod, 'amount') ?? '';
  const currency = text(cod, 'currency') ?? '';
  if (!/^\d+(\.\d{1,2})?$/.test(amount) || Number(amount) <= 0) errors.push({ ErrorId: 1000, ErrorCode: 'ERROR_COD_VALUE_REGEX', FieldNames: 'CodAmount', Info: `Incorrect COD amount (${amount})` });
  if (sessionType === 'DOMESTIC' && currency !== 'PLN') {
    errors.push({ ErrorId: 1009, ErrorCode: 'ERROR_INCORRECT_COD_CURRENCY_FOR_PL', FieldNames: 'CodCurrency', Info: 'COD\' service currency must accept PLN value' });
  }
  return { amount, currency };
}

/**
 * A package for a DPD Pickup point, checked as the "dpd-services-pudo" group of DPD's "Error codes" sheet words it: the
 * point's id (3019, blank or unknown; a closed point answers the same, inferred), cash on delivery where the point
 * takes none (3021, "Service not available in Pickup points"), the recipient's name (3018), and each parcel's weight
 * (3015), sides (3022–3024) and circumference plus height (3026).
 */
function checkPudo(services: XmlObject, cod: boolean, receiver: EmulatedAddress, parcelNodes: readonly XmlObject[], pudoOf: PudoLookup, errors: ValidationInfo[], parcelErrors: ValidationInfo[][]): string | null {
  if (!('dpdPickup' in services)) return null;
  const id = text(xmlObject(services.dpdPickup), 'pudo');
  const point = id ? pudoOf(id) : undefined;
  if (!id) errors.push({ ErrorId: 3019, ErrorCode: 'ERROR_EMPTY_PUDO', FieldNames: 'Pudo', Info: 'SP point identifier cannot be blank' });
  else if (!point?.open) errors.push({ ErrorId: 3019, ErrorCode: 'ERROR_EMPTY_PUDO', FieldNames: 'Pudo', Info: 'Incorrect SP point identifier' });
  else if (cod && !point.cashOnDelivery) errors.push({ ErrorId: 3021, ErrorCode: 'ERROR_SERVICES_NOT_SUPPORTED_BY_PUDO', FieldNames: 'Pudo', Info: 'Service not available in Pickup points' });
  if (!receiver.name) errors.push({ ErrorId: 3018, ErrorCode: 'ERROR_EMPTY_RECEIVER_NAME_FOR_DPD_PICKUP', FieldNames: 'ReceiverName', Info: 'Recipient name and surname cannot be blank' });
  parcelNodes.forEach((node, i) => {
    const own = parcelErrors[i]!;
    const [x, y, z] = (['sizeX', 'sizeY', 'sizeZ'] as const).map((k) => Number(text(node, k) ?? 0));
    if (Number(text(node, 'weight')) > DPD_PL_PICKUP_LIMITS.maxWeightKg) {
      own.push({ ErrorId: 3015, ErrorCode: 'ERROR_INCORRECT_WEIGHT_FOR_DPD_PICKUP', FieldNames: 'Weight', Info: `Maximum parcel weight ${DPD_PL_PICKUP_LIMITS.maxWeightKg} kg` });
    }
    ([[x, 'X', 3022], [y, 'Y', 3023], [z, 'Z', 3024]] as const).forEach(([side, axis, errorId]) => {
      if (side! > DPD_PL_PICKUP_LIMITS.maxSideCm) {
        own.push({ ErrorId: errorId, ErrorCode: `ERROR_INCORRECT_PARCEL_SIZE_${axis}`, FieldNames: `Size${axis}`, Info: `The longest parcel side cannot exceed ${DPD_PL_PICKUP_LIMITS.maxSideCm} cm` });
      }
    });
    if (2 * (x! + y!) + z! > DPD_PL_PICKUP_LIMITS.maxGirthPlusHeightCm) {
      own.push({ ErrorId: 3026, ErrorCode: 'ERROR_INCORRECT_PUDO_PARCEL_DIM', FieldNames: 'SizeZ', Info: `The sum of base circumference plus height cannot exceed ${DPD_PL_PICKUP_LIMITS.maxGirthPlusHeightCm} cm` });
    }
  });
  return id;
}

/**
 * One package as DPD would take it, or its refusal. `masterFid` is the caller's; sender fid and payer must be it.
 * `pudoOf` answers the DPD Pickup points DPD knows.
 */
export function checkPackage(node: XmlObject, masterFid: string, pudoOf: PudoLookup): PackageCheck {
  const sender = readAddress(xmlObject(node.sender));
  const receiver = readAddress(xmlObject(node.receiver));
  const sessionType = sessionTypeOf(receiver.countryCode);
  const errors: ValidationInfo[] = [];
  checkAddress(sender, 'SENDER', errors);
  checkAddress(receiver, 'RECEIVER', errors);
  const parcelNodes = xmlList(node.parcels).map(xmlObject);
  if (parcelNodes.length === 0) errors.push({ ErrorId: 1000, ErrorCode: 'ERROR_PARCEL_WEIGHT_REQUIRED', FieldNames: 'Parcels', Info: 'One of \'(Parcel)\' is expected.' });
  const parcels = parcelNodes.map((p) => checkParcel(p, sessionType));
  const services = xmlObject(node.services);
  const cod = checkCod(services, sessionType, errors);
  const pudo = checkPudo(services, cod !== null, receiver, parcelNodes, pudoOf, errors, parcels.map((p) => p.errors));
  const payer = (text(node, 'payerType') ?? 'SENDER') === 'SENDER' ? sender.fid : text(node, 'thirdPartyFID');
  if (payer !== null && payer !== masterFid) return { ok: false, status: 'DISALLOWED_FID', errors: [], parcelErrors: parcels.map(() => []) };
  if (errors.length > 0 || parcels.some((p) => p.errors.length > 0)) {
    return { ok: false, status: 'INCORRECT_DATA', errors, parcelErrors: parcels.map((p) => p.errors) };
  }
  return {
    ok: true,
    pkg: {
      reference: text(node, 'reference'), ref1: text(node, 'ref1'), sender, receiver, cod, sessionType, pudo,
      parcels: parcelNodes.map((p, i) => ({ weight: parcels[i]!.weight, content: text(p, 'content'), reference: text(p, 'reference') })),
    },
  };
}

/** One problem of a courier order, as packagesPickupCallV3/V4 list them in `statusInfo.errorDetails`. */
export interface PickupError {
  code: string;
  description: string;
  fields: string;
}

/** Required fields with their length limits (0: any), by section: the validation tables of packagesPickupCallV2, which V3 and V4 keep. */
const PICKUP_FIELDS: readonly [section: string | null, field: string, maxLength: number][] = [
  [null, 'pickupDate', 10], [null, 'pickupTimeFrom', 5], [null, 'pickupTimeTo', 5], [null, 'orderType', 0], [null, 'waybillsReady', 0],
  ['pickupPayer', 'payerNumber', 0], ['pickupPayer', 'payerName', 100],
  ['pickupSender', 'senderName', 100], ['pickupSender', 'senderAddress', 100], ['pickupSender', 'senderCity', 50],
  ['pickupSender', 'senderPostalCode', 10], ['pickupSender', 'senderPhone', 50],
  ['packagesParams', 'dox', 0], ['packagesParams', 'standardParcel', 0], ['packagesParams', 'pallet', 0],
  ['packagesParams', 'parcelsCount', 0], ['packagesParams', 'palletsCount', 0], ['packagesParams', 'doxCount', 0],
];

/**
 * DPD's checks of a new courier order (dpdPickupParamsV3 of an INSERT): the documented required fields and lengths,
 * the payer being the caller's FID, and a window that is not over. DPD documents no error codes for these: the
 * codes, wording and `fields` below are inferred, in the shape of errorDetailsPCRV2 `{code, description, fields}`.
 */
export function checkPickup(params: XmlObject, masterFid: string, today: string): PickupError[] {
  const details = xmlObject(params.pickupCallSimplifiedDetails);
  const errors: PickupError[] = [];
  for (const [section, field, maxLength] of PICKUP_FIELDS) {
    const value = text(section ? xmlObject(details[section]) : params, field);
    if (value === null) errors.push({ code: 'FIELD_REQUIRED', description: `${field} is required`, fields: field });
    else if (maxLength > 0 && value.length > maxLength) errors.push({ code: 'FIELD_TOO_LONG', description: `${field} has more than ${maxLength} characters`, fields: field });
  }
  if (errors.length > 0) return errors;
  const date = text(params, 'pickupDate')!;
  const from = text(params, 'pickupTimeFrom')!;
  const to = text(params, 'pickupTimeTo')!;
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date) || Number.isNaN(Date.parse(`${date}T00:00:00Z`))) {
    errors.push({ code: 'INCORRECT_PICKUP_DATE', description: `Pickup date ${date} is not a date (yyyy-MM-dd)`, fields: 'pickupDate' });
  } else if (date < today) {
    errors.push({ code: 'INCORRECT_PICKUP_DATE', description: `Pickup date ${date} is in the past: the courier can come on ${today} at the earliest`, fields: 'pickupDate' });
  }
  const time = /^([01]\d|2[0-3]):[0-5]\d$/;
  if (!time.test(from) || !time.test(to) || from >= to) {
    errors.push({ code: 'INCORRECT_PICKUP_TIME', description: `Pickup time ${from}–${to} is not a window of the day (HH:mm, from before to)`, fields: 'pickupTimeFrom,pickupTimeTo' });
  }
  if (text(xmlObject(details.pickupPayer), 'payerNumber') !== masterFid) {
    errors.push({ code: 'ACCESS_DENIED_FOR_FID', description: 'The payer number is not the FID of this login', fields: 'payerNumber' });
  }
  return errors;
}
