/**
 * Customs at the META-API emulator: which shipments a business unit wants declared (`Shipment.international`) and its
 * checks of a declaration. The OpenAPI marks every international field optional, leaving the rules to the business
 * units; the emulator asks what packdesk's declarations carry, and what the schema says must agree ("The number of
 * Interinvoicelines must equal the NumberOfArticles", the total as `customsAmount`). Wordings are the emulator's own.
 */

/** The EU's member states, one customs union: the emulator's stand-in for DPD's routing (special territories left out). */
const EU_CUSTOMS_UNION = new Set([
  'AT', 'BE', 'BG', 'CY', 'CZ', 'DE', 'DK', 'EE', 'ES', 'FI', 'FR', 'GR', 'HR', 'HU', 'IE', 'IT', 'LT', 'LU', 'LV', 'MT', 'NL', 'PL', 'PT', 'RO',
  'SE', 'SI', 'SK',
]);

export interface SeenInvoiceLine {
  invoicePosition?: string;
  quantityOfItems?: string;
  content?: string;
  amountOfPosition?: number;
  manufacturedCountry?: string;
  exportTarifCode?: string;
}

/** The parts of `International` the emulator reads. */
export interface SeenInternational {
  parcelType?: 'D' | 'P';
  customsAmount?: { amount: number; currency: string };
  customsTerms?: string;
  customsInvoice?: string;
  numberOfArticles?: string;
  interInvoiceLines?: SeenInvoiceLine[];
}

/** Between two countries not both in the EU, goods pass customs. */
function crossesCustomsBorder(from: string, to: string): boolean {
  return from !== to && !(EU_CUSTOMS_UNION.has(from) && EU_CUSTOMS_UNION.has(to));
}

/** Amounts compared in thousandths, the most decimals `CurrencyAmount` has. */
const thousandths = (value: number) => Math.round(value * 1000);

/** Goods (parcel type P): invoice lines, each with its tariff code and origin, as many as declared, worth the total. */
function goodsMessages(international: SeenInternational): string[] {
  const lines = international.interInvoiceLines ?? [];
  if (lines.length === 0) return ['international.interInvoiceLines is mandatory for goods (parcelType P)'];
  const messages: string[] = [];
  if (!international.customsInvoice) messages.push('international.customsInvoice is mandatory for goods (parcelType P)');
  if (Number(international.numberOfArticles) !== lines.length) {
    messages.push(`international.numberOfArticles ${international.numberOfArticles ?? '(missing)'} must equal the ${lines.length} interInvoiceLines`);
  }
  lines.forEach((line, i) => {
    if (!line.exportTarifCode) messages.push(`international.interInvoiceLines[${i}].exportTarifCode is mandatory for the export customs clearance`);
    if (!line.manufacturedCountry) messages.push(`international.interInvoiceLines[${i}].manufacturedCountry is mandatory`);
  });
  const total = lines.reduce((sum, line) => sum + thousandths(line.amountOfPosition ?? 0), 0);
  const declared = international.customsAmount?.amount;
  if (declared !== undefined && total !== thousandths(declared)) {
    messages.push(`international.customsAmount ${declared} is not the ${(total / 1000).toFixed(3)} the interInvoiceLines are worth (amountOfPosition)`);
  }
  return messages;
}

/** A business unit's customs checks of a shipment from `from` to `to`: the problems, each naming its field. */
export function customsMessages(from: string, to: string, international: SeenInternational | undefined): string[] {
  if (!international) {
    return crossesCustomsBorder(from, to) ? [`international is mandatory for a shipment from ${from} to ${to}, which leaves the EU customs union`] : [];
  }
  const messages: string[] = [];
  if (!international.customsAmount) messages.push('international.customsAmount is mandatory for a declared shipment');
  if (!international.customsTerms) messages.push('international.customsTerms is mandatory for a declared shipment');
  if (international.parcelType !== 'D') messages.push(...goodsMessages(international));
  return messages;
}
