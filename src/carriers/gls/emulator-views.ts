/** What the GLS emulator shows of its parcels, in MyGLS's data contracts: labels, PrintDataInfo, ParcelStatus. */
import { layoutA4, mergeLabels } from '../../labels/index.js';
import { renderLabel, type EmulatedLabel } from '../emulator/labels.js';
import type { EmulatedEvent, EmulatedParcel, EmulatedShipment, EmulatedShipments } from '../emulator/shipments.js';
import { GLS_POINT_SERVICE, GLS_RETURN_SERVICE, GLS_TRACKING, GLS_ZPL_PRINTER_TYPES } from './codes.js';
import { wcfDate } from './dates.js';
import type { GlsEmulatedAddress, GlsEmulatedParcel } from './emulator-validation.js';

export interface GlsStored {
  parcel: GlsEmulatedParcel;
  typeOfPrinter: string;
  /** One ParcelId per package, in the order of the shipment's parcel numbers; the first is the main parcel's. */
  parcelIds: number[];
}

export type GlsShipment = EmulatedShipment<GlsStored>;

export function formatOfPrinter(typeOfPrinter: string): 'pdf' | 'zpl' {
  return GLS_ZPL_PRINTER_TYPES.has(typeOfPrinter) ? 'zpl' : 'pdf';
}

function addressLines(a: GlsEmulatedAddress): string[] {
  const street = [a.Street, a.HouseNumber, a.HouseNumberInfo ? `/${a.HouseNumberInfo}` : null].filter(Boolean).join(' ');
  return [a.Name, a.ContactName !== a.Name ? a.ContactName : null, street, `${a.ZipCode} ${a.City}`, a.CountryIsoCode].filter((l): l is string => Boolean(l));
}

/** What the emulated label prints; the Code 128 of the parcel number stands in for GLS's own label. */
function labelContent(s: GlsShipment, parcel: EmulatedParcel): EmulatedLabel {
  const p = s.request.parcel;
  return {
    carrier: 'GLS',
    trackingNumber: parcel.number,
    parcelIndex: parcel.index,
    parcelCount: s.parcels.length,
    reference: p.Content ?? p.ClientReference ?? undefined,
    product: s.product,
    sender: addressLines(p.PickupAddress),
    recipient: [...addressLines(p.DeliveryAddress), p.DeliveryAddress.ContactPhone ?? '', p.Point ? `${GLS_POINT_SERVICE} ${p.Point.id}` : ''].filter(Boolean),
    cod: p.CODAmount > 0 ? { amount: p.CODAmount.toFixed(2), currency: p.CODCurrency ?? '' } : undefined,
  };
}

/**
 * One document for the parcels of a call, as MyGLS's `Labels` is: thermal PDF or ZPL one label after another, the
 * A4 types four labels a sheet. A parcel printed as it was created keeps the same bytes.
 */
export async function labelDocumentOf(
  shipments: EmulatedShipments<GlsStored>, parcels: readonly { shipment: GlsShipment; parcel: EmulatedParcel }[], typeOfPrinter: string,
): Promise<Buffer> {
  const format = formatOfPrinter(typeOfPrinter);
  const parts = await Promise.all(parcels.map(({ shipment, parcel }) => (formatOfPrinter(shipment.request.typeOfPrinter) === format
    ? shipments.label(parcel, () => renderLabel(format, labelContent(shipment, parcel)))
    : renderLabel(format, labelContent(shipment, parcel)))));
  const merged = (await mergeLabels(format, parts)).content;
  return typeOfPrinter.startsWith('A4_') ? layoutA4(merged) : merged;
}

/** GS1-style mod-10 check digit (weights 3 and 1 from the right): the emulator's stand-in for GLS's own. */
function checkDigit(number: string): string {
  const sum = [...number].reverse().reduce((acc, d, i) => acc + Number(d) * (i % 2 === 0 ? 3 : 1), 0);
  return String((10 - (sum % 10)) % 10);
}

function addressView(a: GlsEmulatedAddress): Record<string, unknown> {
  return { ...a };
}

/** `PrintDataInfo` of one package (GetParcelList, GetPrintedLabels). */
export function printDataInfo(s: GlsShipment, parcel: EmulatedParcel): Record<string, unknown> {
  const p = s.request.parcel;
  return {
    B2CChar: 'C',
    ClientReference: p.ClientReference,
    Depot: '10',
    DepotNumber: `${p.DeliveryAddress.CountryIsoCode}10`,
    Driver: '10',
    Parcel: {
      ClientNumber: p.ClientNumber, ClientReference: p.ClientReference, CODAmount: p.CODAmount, CODCurrency: p.CODCurrency,
      CODReference: p.CODReference, Content: p.Content, Count: p.Count, DeliveryAddress: addressView(p.DeliveryAddress),
      PickupAddress: addressView(p.PickupAddress), PickupDate: wcfDate(p.PickupDate),
      ServiceList: [
        ...(p.Point ? [{ Code: GLS_POINT_SERVICE, PSDParameter: { StringValue: p.Point.id } }] : []),
        ...(p.PickAndReturn ? [{ Code: GLS_RETURN_SERVICE }] : []),
      ],
    },
    ParcelId: s.request.parcelIds[parcel.index - 1],
    ParcelNumber: Number(parcel.number),
    ParcelNumberWithCheckdigit: Number(parcel.number + checkDigit(parcel.number)),
    Sort: 'A1',
  };
}

/** The codes scanned at the sender's depot: the hand-over, and a Pick&Return parcel's collection. */
const SENDER_DEPOT_CODES = new Set(['01', '02', '83', '84', '85', '86']);

/** One `ParcelStatus`: handed-over and collection scans at the sender's depot, the rest at the recipient's. */
export function statusView(s: GlsShipment | undefined, event: EmulatedEvent): Record<string, unknown> {
  const p = s?.request.parcel;
  const atSender = SENDER_DEPOT_CODES.has(event.code);
  const depot = event.code === GLS_TRACKING.created ? null : atSender ? p?.PickupAddress : p?.DeliveryAddress;
  return {
    DepotCity: depot?.City ?? '',
    DepotNumber: depot ? `${depot.CountryIsoCode}10` : '',
    StatusCode: event.code,
    StatusDate: wcfDate(event.at),
    StatusDescription: GLS_TRACKING.codes[event.code]?.name ?? '',
    StatusInfo: '',
  };
}
