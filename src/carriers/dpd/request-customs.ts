import type { CustomsContentsType } from '../../domain/customs.js';
import { fromMinorUnits } from '../../domain/money.js';
import { CarrierRefusedError } from '../errors.js';
import type { CustomsForCarrier } from '../types.js';
import { wholeUp } from './units.js';

/**
 * A customs declaration → the META-API's `Shipment.international` (`International`, `InterInvoiceLine`) and the
 * warehouse's `legalEntity` (DPD Group META-API OpenAPI, vendored in fixtures/schema/; "META API — Specification
 * and description" 1.2, Data Types international, interInvoiceLine, exporter, importer). Pure.
 */

/** `International.customsTerms`: DAP `s06`, DDP "incl. duties and taxes" `s03`, EXW `s05`; DPD has no code for other terms. */
const CUSTOMS_TERMS: Readonly<Record<string, string>> = { DAP: 's06', DDP: 's03', EXW: 's05' };

/** `International.exportReason`: s01 sale, s02 return/replacement, s03 gift; the rest go without (DPD's default is s01). */
const EXPORT_REASONS: Partial<Record<CustomsContentsType, string>> = { sale: 's01', return: 's02', gift: 's03' };

/** The schema's maximum lengths (International, InterInvoiceLine, Eori, VatNumber, TarifCode). */
const MAX = { invoice: 35, content: 200, productDescription: 70, productCode: 255, registration: 20, tariffCode: 11 };

export interface DpdInterInvoiceLine {
  invoicePosition: string;
  quantityOfItems: string;
  content: string;
  amountOfPosition: number;
  manufacturedCountry: string;
  netWeight: string;
  grossWeight: string;
  customerProductCode?: string;
  productDescription: string;
  importTarifCode?: string;
  exportTarifCode?: string;
}

interface DpdRegisteredParty {
  address: { companyName?: string; name1: string; street: string; houseNumber?: string; country: string; zipCode: string; city: string };
  contact: { contactPerson?: string; phone1?: string; email?: string };
}

export interface DpdInternational {
  parcelType: 'D' | 'P';
  customsAmount: { amount: number; currency: string };
  customsTerms: string;
  customsPaper?: 'A';
  customsInvoice: string;
  customsInvoiceDates: string[];
  exportReason?: string;
  exporter: DpdRegisteredParty & { eori?: string };
  importer: DpdRegisteredParty & { eori?: string; vatNumber?: string };
  numberOfArticles?: string;
  interInvoiceLines?: DpdInterInvoiceLine[];
}

/** `LegalEntity` of the sender: a business ("B") with its EORI and VAT number, "dependency of the customs export regime". */
export interface DpdLegalEntity {
  businessType: 'B';
  eori?: string;
  vatNumber?: string;
}

const registration = (value: string | null) => (value ? value.replace(/[^A-Za-z0-9]/g, '').slice(0, MAX.registration) : undefined);

/** Grams without decimals (the schema's `Weight`). */
const grams = (kg: number) => String(wholeUp(kg * 1000));

function customsTerms(incoterm: string): string {
  const code = CUSTOMS_TERMS[incoterm];
  if (!code) {
    throw new CarrierRefusedError(`DPD has no customs terms for the incoterm ${incoterm}`, {
      'customs.incoterm': [`DPD's customsTerms know DAP, DDP and EXW only, not ${incoterm}`],
    });
  }
  return code;
}

/**
 * One invoice line an item: its value is the line's (quantity × unit value, "Value of invoice position"), its weights
 * the line's in grams ("Total weight of the article"); the HS code goes as both tariff codes ("If origin custom not
 * done by a BU ImportTarifCode and ExportTarifCode can have the same value").
 */
function invoiceLines(customs: CustomsForCarrier): DpdInterInvoiceLine[] {
  return customs.items.map((item, i) => {
    const weight = grams(item.quantity * item.unitWeightKg);
    const tariff = item.hsCode?.slice(0, MAX.tariffCode);
    return {
      invoicePosition: String(i + 1),
      quantityOfItems: String(item.quantity),
      content: item.description.slice(0, MAX.content),
      amountOfPosition: fromMinorUnits(item.quantity * item.unitValueMinor),
      manufacturedCountry: item.originCountry,
      // packdesk knows no packaging weight of an item: gross is its net weight
      netWeight: weight,
      grossWeight: weight,
      ...(item.sku ? { customerProductCode: item.sku.slice(0, MAX.productCode) } : {}),
      productDescription: item.description.slice(0, MAX.productDescription),
      ...(tariff ? { importTarifCode: tariff, exportTarifCode: tariff } : {}),
    };
  });
}

/**
 * `Shipment.international`: documents go as parcel type D with no value ("documents = 0") and no invoice lines; goods
 * as P with one invoice line an item, their total as `customsAmount`, and the commercial invoice (`customsPaper` A)
 * that packdesk puts with them. The exporter is the sender, the importer the recipient; the warehouse's numbers (the
 * declaration's exporter EORI and VAT number) stay with the warehouse, which on a return is the importer.
 */
export function dpdInternational(
  customs: CustomsForCarrier, parties: { sender: DpdRegisteredParty; receiver: DpdRegisteredParty }, isReturn: boolean,
): DpdInternational {
  const documents = customs.contentsType === 'documents';
  const lines = documents ? [] : invoiceLines(customs);
  const totalMinor = customs.items.reduce((sum, item) => sum + item.quantity * item.unitValueMinor, 0);
  const reason = EXPORT_REASONS[customs.contentsType];
  const eori = registration(customs.exporterEori);
  const warehouseVat = registration(customs.exporterVatNumber);
  const customerVat = registration(customs.importerTaxId);
  const importerNumbers = isReturn ? { ...(eori ? { eori } : {}), ...(warehouseVat ? { vatNumber: warehouseVat } : {}) } : (customerVat ? { vatNumber: customerVat } : {});
  return {
    parcelType: documents ? 'D' : 'P',
    customsAmount: { amount: documents ? 0 : fromMinorUnits(totalMinor), currency: customs.currency },
    customsTerms: customsTerms(customs.incoterm),
    ...(documents ? {} : { customsPaper: 'A' as const }),
    customsInvoice: customs.invoiceNumber.slice(0, MAX.invoice),
    customsInvoiceDates: [customs.invoiceDate],
    ...(reason ? { exportReason: reason } : {}),
    exporter: { ...parties.sender, ...(!isReturn && eori ? { eori } : {}) },
    importer: { ...parties.receiver, ...importerNumbers },
    ...(documents ? {} : { numberOfArticles: String(lines.length), interInvoiceLines: lines }),
  };
}

/** The warehouse as a business with the declaration's exporter EORI and VAT number, where it gives one. */
export function warehouseLegalEntity(customs: CustomsForCarrier): DpdLegalEntity | undefined {
  const eori = registration(customs.exporterEori);
  const vatNumber = registration(customs.exporterVatNumber);
  return eori || vatNumber ? { businessType: 'B', ...(eori ? { eori } : {}), ...(vatNumber ? { vatNumber } : {}) } : undefined;
}
