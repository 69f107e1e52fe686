/**
 * How the One by Allegro emulator shows its packages: the answers of nuty456/WeDoApi `models/responses/*.java`
 * (package, package list, state) and what the emulated labels print.
 */
import type { EmulatedLabel } from '../emulator/labels.js';
import type { EmulatedEvent, EmulatedParcel, EmulatedShipment } from '../emulator/shipments.js';
import { statusOfCode } from '../codes.js';
import { ONEDELIVERY_PRODUCTS, ONEDELIVERY_TRACKING } from './codes.js';
import type { OnedeliveryEmulatedAddress, OnedeliveryEmulatedPackage } from './emulator-validation.js';
import { pragueTime } from './response.js';

export type OnedeliveryShipment = EmulatedShipment<OnedeliveryEmulatedPackage>;

/** `last_state`: One's id of the state record, its code and Czech time (PkgResponseState). */
export function stateView(event: EmulatedEvent, id: number): Record<string, unknown> {
  return { id, code: event.code, created: pragueTime.format(event.at, ' ') };
}

export function lastEvent(parcel: EmulatedParcel): EmulatedEvent {
  return parcel.events[parcel.events.length - 1]!;
}

/** The package's newest event of all its parcels. */
export function newestEvent(s: OnedeliveryShipment): EmulatedEvent {
  return s.parcels.map(lastEvent).reduce((a, b) => (b.at > a.at ? b : a));
}

/** A sorting code like One's `S1PR053` / `S550400`: the depot's letter, then the destination's postal code. */
function sortingCode(s: OnedeliveryShipment): string {
  const { request } = s;
  const destination = request.reverse_order && request.sender ? request.sender : request.receiver;
  return `S${destination.postal_code}0`;
}

/** `POST /package`'s answer (PkgResponse as the README shows it). */
export function createdView(s: OnedeliveryShipment): Record<string, unknown> {
  return {
    order_number: s.id,
    reference_number: s.request.reference_number,
    barcode: s.parcels.map((p) => p.number),
    sorting_code: sortingCode(s),
    product_name: ONEDELIVERY_PRODUCTS[s.product]?.name ?? s.product,
    delivery_price: 0,
    product_code: s.product,
  };
}

/**
 * `GET /package/{order_number}` (the README's detail answer): per-parcel label URLs and the package's last state.
 */
export function detailView(s: OnedeliveryShipment, base: string, state: (event: EmulatedEvent) => Record<string, unknown>): Record<string, unknown> {
  return {
    ...createdView(s),
    delivery_price: null,
    labels_pdf: s.parcels.map((p) => `${base}/package/${s.id}/${encodeURIComponent(p.number)}/label.pdf`),
    last_state: state(newestEvent(s)),
  };
}

/** One row of `GET /package` (PkgList). */
export function listedView(s: OnedeliveryShipment): Record<string, unknown> {
  const delivered = s.parcels.every((p) => statusOfCode(ONEDELIVERY_TRACKING, lastEvent(p).code) === 'delivered');
  const newest = newestEvent(s);
  return {
    reference_number: s.request.reference_number,
    order_number: s.id,
    last_change: pragueTime.format(newest.at),
    delivered: delivered ? pragueTime.format(newest.at) : null,
  };
}

function addressLines(a: OnedeliveryEmulatedAddress): string[] {
  const person = [a.firstname, a.surname].filter(Boolean).join(' ');
  return [a.name, person && person !== a.name ? person : null, a.street, `${a.postal_code} ${a.city}`, a.state].filter((l): l is string => Boolean(l));
}

/**
 * What an emulated label prints; the Code 128 of the parcel's barcode stands in for One's own label. A return shipment
 * travels from its receiver to its sender, and its label says so.
 */
export function labelContent(s: OnedeliveryShipment, parcel: EmulatedParcel): EmulatedLabel {
  const { request } = s;
  const cod = cashOnDeliveryOf(s);
  const receiver = [...addressLines(request.receiver), request.receiver.phone ?? request.receiver.mobile ?? ''].filter(Boolean);
  const sender = request.sender ? addressLines(request.sender) : ['One by Allegro pickup place'];
  return {
    carrier: 'One by Allegro',
    trackingNumber: parcel.number,
    parcelIndex: parcel.index,
    parcelCount: s.parcels.length,
    reference: request.comment ?? request.reference_number ?? undefined,
    product: `${s.product}${request.reverse_order ? ' zpětná zásilka' : ''}${request.pup_branch ? ` ${request.pup_branch}` : ''} · ${sortingCode(s)}`,
    sender: request.reverse_order ? receiver : sender,
    recipient: request.reverse_order ? sender : receiver,
    cod: cod ? { amount: cod.amount.toFixed(2), currency: cod.currency } : undefined,
  };
}

/** A package's cash on delivery: CZK in Czechia, EUR in Slovakia. */
export function cashOnDeliveryOf(s: OnedeliveryShipment): { amount: number; currency: string } | null {
  const amount = s.request.cash_on_delivery;
  return amount === null ? null : { amount, currency: s.request.receiver.state === 'SK' ? 'EUR' : 'CZK' };
}

/** How the emulator's pickup protocol names a package's recipient. */
export function recipientLine(s: OnedeliveryShipment): string {
  const { receiver } = s.request;
  return `${addressLines(receiver)[0]}, ${receiver.postal_code} ${receiver.city}`;
}
