import { formatMinorUnits } from '../../domain/money.js';
import { CarrierRefusedError } from '../errors.js';
import type { CarrierParty, ShipmentForCarrier } from '../types.js';
import type { SpxSettings } from './settings.js';

/**
 * Our shipment → the body of SP Express `POST /V1/courier/create-pre-routing` or `create-non-routing`. Pure.
 * Field names: sp-express/php-sdk `src/Objects/Input/{PackageObj,AddressObj,OptionsPreRoutingObj,OptionsNonRoutingObj,Options2Obj}.php`.
 */

interface SpxAddress {
  name?: string;
  company?: string;
  address_line_1: string;
  city: string;
  zip_code: string;
  country: string;
  tel: string;
  email: string;
}

interface SpxPackage {
  weight: number;
  size_l: number;
  size_w: number;
  size_d: number;
  value?: number;
  value_currency?: string;
  content: string;
  ref: string;
  note1?: string;
  note2: string;
}

interface SpxOptions {
  number: number;
  cod?: number;
  cod_currency?: string;
  cod_bank_account?: string;
  operator?: string;
}

export interface SpxCreateRequest {
  package: SpxPackage;
  sender: SpxAddress;
  receiver: SpxAddress;
  options: SpxOptions;
  options2: { label_type: 'PDF' };
}

/** Polish postal codes as SP Express writes them, `00-111` (sp-express/php-sdk README); others as given. */
function zipCode(party: CarrierParty): string {
  const code = party.postalCode.trim();
  const digits = code.replace(/\D/g, '');
  return party.countryCode === 'PL' && digits.length === 5 ? `${digits.slice(0, 2)}-${digits.slice(2)}` : code;
}

/** The README's address: a person in `name`, a firm in `company`, the house and flat after the street ("Krakowska 12/34"). */
function spxAddress(party: CarrierParty): SpxAddress {
  const house = party.apartmentNumber ? `${party.houseNumber}/${party.apartmentNumber}` : party.houseNumber;
  return {
    ...(party.personName ? { name: party.personName } : {}),
    ...(party.companyName ? { company: party.companyName } : {}),
    address_line_1: `${party.street} ${house}`,
    city: party.city,
    zip_code: zipCode(party),
    country: party.countryCode,
    tel: party.phone,
    email: party.email,
  };
}

/**
 * SP Express describes one package and copies it `options.number` times (sp-express/php-sdk README: the answer
 * holds `number` packages), so parcels that differ are declared as the heaviest and largest of them.
 */
function packageOf(s: ShipmentForCarrier, settings: SpxSettings): SpxPackage {
  const largest = (side: (p: ShipmentForCarrier['parcels'][number]) => number) => Math.ceil(Math.max(...s.parcels.map(side)));
  const cod = s.cashOnDelivery;
  const value = settings.declaredValue !== undefined
    ? { value: settings.declaredValue, value_currency: 'PLN' }
    : cod ? { value: Number(formatMinorUnits(cod.amountMinor)), value_currency: cod.currency } : {};
  return {
    weight: Math.max(...s.parcels.map((p) => p.weightKg)),
    size_l: largest((p) => p.lengthCm),
    size_w: largest((p) => p.widthCm),
    size_d: largest((p) => p.heightCm),
    ...value,
    content: settings.packageContent,
    // `ref` is the one reference SP Express carries for the customer; our id goes to note2 so it is on file either way.
    ref: s.reference ?? s.id,
    ...(s.labelComment ? { note1: s.labelComment } : {}),
    note2: s.id,
  };
}

/** `options.cod` alone means PLN: pre-routing COD runs on PL→PL routes only (error 1422); non-routing names its currency. */
function optionsOf(s: ShipmentForCarrier, settings: SpxSettings): SpxOptions {
  const cod = s.cashOnDelivery;
  const amount = cod ? Number(formatMinorUnits(cod.amountMinor)) : undefined;
  if (settings.productType === 'pre-routing') {
    if (cod && cod.currency !== 'PLN') {
      throw new CarrierRefusedError(`SP Express collects cash on delivery in PLN only, not ${cod.currency}`, {
        cash_on_delivery_currency: ['SP Express collects cash on delivery in PLN only (pre-routing runs COD on PL→PL routes)'],
      });
    }
    return { number: s.parcels.length, ...(amount !== undefined ? { cod: amount } : {}) };
  }
  return {
    number: s.parcels.length,
    ...(settings.operator ? { operator: settings.operator } : {}),
    ...(cod ? { cod: amount, cod_currency: cod.currency, ...(settings.codBankAccount ? { cod_bank_account: settings.codBankAccount } : {}) } : {}),
  };
}

export function spxCreateRequest(s: ShipmentForCarrier, settings: SpxSettings): SpxCreateRequest {
  if (s.labelFormat !== 'pdf') {
    throw new CarrierRefusedError(`SP Express cannot produce ${s.labelFormat} labels`, { label_format: [`SP Express cannot produce ${s.labelFormat} labels; choose pdf`] });
  }
  return {
    package: packageOf(s, settings),
    sender: spxAddress(s.sender),
    receiver: spxAddress(s.recipient),
    options: optionsOf(s, settings),
    options2: { label_type: 'PDF' },
  };
}
