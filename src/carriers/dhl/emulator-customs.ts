/**
 * Customs at the MyDHL API emulator: which shipments DHL wants declared, its checks of a declaration (the OpenAPI:
 * "If the shipment is dutiable, exportDeclaration element must be provided"), and the commercial invoice it renders
 * from one. DHL publishes no wording for these refusals; like the emulator's other business checks, they name the
 * request's field by its pointer.
 */
import { renderTextDocument, type DocumentLine } from '../emulator/text-pdf.js';
import { DHL_PAPERLESS_TRADE_SERVICE } from './codes.js';
import type { SeenLineItem, SeenParty, SeenShipmentRequest } from './emulator-validation.js';
import type { DhlShipment } from './emulator-tracking.js';
import { addressLines } from './emulator-views.js';

/** The EU's member states, one customs union: the emulator's stand-in for DHL's lanes (special territories left out). */
const EU_CUSTOMS_UNION = new Set([
  'AT', 'BE', 'BG', 'CY', 'CZ', 'DE', 'DK', 'EE', 'ES', 'FI', 'FR', 'GR', 'HR', 'HU', 'IE', 'IT', 'LT', 'LU', 'LV', 'MT', 'NL', 'PL', 'PT', 'RO',
  'SE', 'SI', 'SK',
]);

/** Between two countries not both in the EU, goods pass customs. */
function crossesCustomsBorder(from: string, to: string): boolean {
  return from !== to && !(EU_CUSTOMS_UNION.has(from) && EU_CUSTOMS_UNION.has(to));
}

/** Amounts compared in thousandths, the schema's precision. */
const inThousandths = (value: number) => Math.round(value * 1000);

const lineValue = (item: SeenLineItem) => inThousandths(item.price) * item.quantity.value;

/** The invoice image asked for (`outputImageProperties.imageOptions` typeCode invoice), with its place in the list. */
function invoiceOption(r: SeenShipmentRequest) {
  const options = r.outputImageProperties?.imageOptions ?? [];
  const index = options.findIndex((o) => o.typeCode === 'invoice' && o.isRequested);
  return index < 0 ? undefined : { index, option: options[index]! };
}

/** Whether the request asks for the invoice image. */
function asksForInvoice(r: SeenShipmentRequest): boolean {
  return invoiceOption(r) !== undefined;
}

/** DHL renders the invoice of a declared shipment that asks for it. */
export function wantsInvoice(r: SeenShipmentRequest): boolean {
  return r.content.isCustomsDeclarable && asksForInvoice(r);
}

/**
 * A shipment across a customs border must be declared; a declared one needs its value and currency, line items (the
 * schema's `required`), an invoice, and line items whose price × quantity add up to the declared value.
 */
function declarationMessages(r: SeenShipmentRequest): string[] {
  const { content } = r;
  const from = r.customerDetails.shipperDetails.postalAddress.countryCode;
  const to = r.customerDetails.receiverDetails.postalAddress.countryCode;
  if (!content.isCustomsDeclarable) {
    return crossesCustomsBorder(from, to)
      ? [`The shipment from ${from} to ${to} crosses a customs border: #/content/isCustomsDeclarable must be true, with the goods declared in #/content/exportDeclaration.`]
      : [];
  }
  const messages: string[] = [];
  if (content.declaredValue === undefined || !content.declaredValueCurrency) {
    messages.push('A dutiable shipment (#/content/isCustomsDeclarable true) needs #/content/declaredValue and #/content/declaredValueCurrency.');
  }
  const declaration = content.exportDeclaration;
  if (!declaration) return [...messages, 'A dutiable shipment (#/content/isCustomsDeclarable true) needs #/content/exportDeclaration.'];
  if (!declaration.invoice?.number || !declaration.invoice.date) {
    messages.push('A dutiable shipment needs the commercial invoice\'s number and date in #/content/exportDeclaration/invoice.');
  }
  const total = declaration.lineItems.reduce((sum, item) => sum + lineValue(item), 0);
  if (content.declaredValue !== undefined && total !== inThousandths(content.declaredValue)) {
    messages.push(`The line items #/content/exportDeclaration/lineItems are worth ${(total / 1000).toFixed(3)} (price × quantity), not the declared value ${content.declaredValue} of #/content/declaredValue.`);
  }
  return messages;
}

/** Paperless Trade (WY) sends an invoice: DHL's rendered one or an uploaded image (7120, the OpenAPI's example wording). */
function paperlessMessages(r: SeenShipmentRequest): string[] {
  const paperless = r.valueAddedServices?.some((v) => v.serviceCode === DHL_PAPERLESS_TRADE_SERVICE) ?? false;
  return paperless && !asksForInvoice(r) && !r.documentImages?.length
    ? ['7120: Required either #/outputImageProperties/imageOptions where typeCode=invoice or provide #/documentImages']
    : [];
}

/** The OpenAPI's returns invoice: template RET_COM_INVOICE_A4_01 ("for exclusive use … where the goods are actual 'returns'"), invoiceType returns. */
const RETURNS_TEMPLATE = 'RET_COM_INVOICE_A4_01';

/** Whether the invoice asked for is DHL's returns invoice. */
export function wantsReturnsInvoice(r: SeenShipmentRequest): boolean {
  const option = invoiceOption(r)?.option;
  return option?.invoiceType === 'returns' || option?.templateName === RETURNS_TEMPLATE;
}

/** The returns invoice is for returned goods only: a declaration whose export reason is `return`. */
function returnsInvoiceMessages(r: SeenShipmentRequest): string[] {
  const declaration = r.content.exportDeclaration;
  if (!declaration || !wantsReturnsInvoice(r) || declaration.exportReasonType === 'return') return [];
  return [`#/content/exportDeclaration/exportReasonType must be 'return', not '${declaration.exportReasonType ?? ''}', for the returns invoice ${RETURNS_TEMPLATE} (#/outputImageProperties/imageOptions/${invoiceOption(r)!.index}): it is for returned goods only.`];
}

/** DHL's customs checks of a create request. */
export function customsMessages(r: SeenShipmentRequest): string[] {
  return [...declarationMessages(r), ...paperlessMessages(r), ...returnsInvoiceMessages(r)];
}

function partyLines(title: string, party: SeenParty): DocumentLine[] {
  const numbers = (party.registrationNumbers ?? []).map((n) => `${n.typeCode} ${n.number} (${n.issuerCountryCode})`);
  return [{ text: title, bold: true }, ...[...addressLines(party), ...numbers].map((text) => ({ text, indent: 12 }))];
}

/**
 * The commercial invoice DHL renders from a declared shipment, as a PDF: the invoice's number and date, the parties
 * with their registration numbers, each line item (description, HS code, origin, quantity × price, net weight) and the
 * totals. DHL's templates are not published; the content is what its COMMERCIAL_INVOICE templates print.
 */
export function renderCommercialInvoice(s: DhlShipment): Promise<Buffer> {
  const { content, customerDetails } = s.request;
  const declaration = content.exportDeclaration!;
  const currency = content.declaredValueCurrency ?? '';
  const money = (amount: number) => `${amount.toFixed(2)} ${currency}`;
  const netKg = declaration.lineItems.reduce((kg, item) => kg + (item.weight.netValue ?? item.weight.grossValue ?? 0), 0);
  return renderTextDocument([
    { text: wantsReturnsInvoice(s.request) ? 'RETURNS INVOICE' : 'COMMERCIAL INVOICE', bold: true, size: 14 },
    `Invoice number: ${declaration.invoice?.number ?? ''}   Date: ${declaration.invoice?.date ?? ''}   Waybill: ${s.id}`,
    `Incoterm: ${content.incoterm}   Reason for export: ${declaration.exportReason ?? declaration.exportReasonType ?? ''}`,
    { gap: 0.5 },
    ...partyLines('Shipper / exporter', customerDetails.shipperDetails),
    ...partyLines('Receiver / importer', customerDetails.receiverDetails),
    { gap: 0.5 },
    ...declaration.lineItems.flatMap((item): DocumentLine[] => [
      { text: `${item.number}. ${item.description}`, bold: true },
      {
        text: `HS ${item.commodityCodes?.find((c) => c.typeCode === 'outbound')?.value ?? '-'}   origin ${item.manufacturerCountry}   ${item.quantity.value} ${item.quantity.unitOfMeasurement} × ${money(item.price)} = ${money(lineValue(item) / 1000)}   net ${item.weight.netValue ?? item.weight.grossValue ?? 0} kg`,
        size: 9, indent: 12,
      },
    ]),
    { gap: 0.5 },
    { text: `Total declared value: ${money(content.declaredValue ?? 0)}`, bold: true },
    `Total net weight: ${Math.round(netKg * 1000) / 1000} kg   Pieces: ${s.parcels.length}`,
  ]);
}
