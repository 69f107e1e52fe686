/**
 * DHL24's courier hours, courier booking and PNP report as the DHL Parcel Poland emulator serves them.
 * getPostalCodeServices (getPostalCodeServices.html) answers a post code DHL does not serve, or an incorrect one, with
 * no services at all, and today's hours only while a courier can still be ordered for today. bookCourier
 * (bookCourier.html) checks "whether a courier can arrive at the indicated time and whether all the indicated
 * shipments can be collected in one place", and refuses a shipment that already has a courier (deleteShipments.html:
 * a booked shipment must have its courier cancelled first); getPnp (getPnp.html) reports the shipments sent on a day.
 * The Polish wording of the refusals and their fault code 101 are inferred, as for creation.
 */
import type { Clock } from '../../domain/clock.js';
import { noSuchPlace } from '../emulator/no-such-place.js';
import { numberSequence } from '../emulator/numbers.js';
import type { EmulatedShipment, EmulatedShipments } from '../emulator/shipments.js';
import type { EmulatedSoapFault, SoapRequest } from '../emulator/soap.js';
import { warsawTime } from '../local-time.js';
import { xmlList, xmlObject, xmlString, type SoapPart, type XmlObject } from '../soap.js';
import { renderPnp } from './emulator-pnp.js';
import type { EmulatedDhlShipment, EmulatedParty } from './emulator-validation.js';

type DhlShipment = EmulatedShipment<EmulatedDhlShipment>;

/** A courier order: its number (DHL's examples: `12345WWW`), day and hours. */
export interface CourierBooking {
  orderId: string;
  date: string;
  from: string;
  to: string;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const HOUR = /^([01]\d|2[0-3]):[0-5]\d$/;
/** DHL's line between express parcels and freight ("EX - domestic express shipments up to 31.5 kg", getPnp.html). */
const EXPRESS_MAX_KG = 31.5;

/**
 * The hours the emulated couriers collect in on working days, EX parcels and DR freight, none at weekends; an order for
 * today needs two hours before the window closes and the courier comes from the next full hour (all inferred).
 */
const PICKUP_HOURS = { ex: { from: '09:00', to: '17:00' }, dr: { from: '10:00', to: '15:00' } } as const;
const ORDER_LEAD_MS = 2 * 3_600_000;
/** What getPostalCodeServices writes for an hour it does not give ("none"), as DHL24 answers it. */
const NO_HOUR = 'brak';

const domestic = (s: DhlShipment) => s.request.receiver.country === 'PL';
const express = (s: DhlShipment) => s.request.pieces.every((p) => !(p.weight > EXPRESS_MAX_KG));
/** getPnp's `type`: which shipments its report lists. */
const PNP_TYPES: Readonly<Record<string, (s: DhlShipment) => boolean>> = {
  EX: (s) => domestic(s) && express(s),
  DR: (s) => domestic(s) && !express(s),
  ALL: () => true,
  '2EUROPE': (s) => !domestic(s),
  PR: (s) => s.product === 'PR',
};

interface DeskDependencies {
  clock: Clock;
  shipments: EmulatedShipments<EmulatedDhlShipment>;
  /** The caller's login, from an element holding `authData`. */
  caller(node: XmlObject): string;
  /** The caller's shipment that was not deleted. */
  live(owner: string, id: string): DhlShipment | undefined;
  fault(reason: string): EmulatedSoapFault;
}

const placeOf = (p: EmulatedParty) => [p.postalCode, p.city, p.street, p.houseNumber, p.apartmentNumber ?? ''].join('|').toLowerCase();

export function dhlPlDispatchDesk({ clock, shipments, caller, live, fault }: DeskDependencies) {
  const bookings = new Map<string, CourierBooking>();
  const nextOrder = numberSequence(clock, { prefix: '', digits: 5 });

  /** The day a shipment is sent: its courier's day once one is booked, else the day it was created for. */
  const sendingDay = (s: DhlShipment) => bookings.get(s.id)?.date ?? s.request.shipmentDate;

  const bookCourier = ({ body }: SoapRequest): SoapPart => {
    const owner = caller(body);
    const [date, from, to] = [body.pickupDate, body.pickupTimeFrom, body.pickupTimeTo].map((n) => xmlString(n) ?? '') as [string, string, string];
    const now = warsawTime.format(clock.now());
    const problems: string[] = [];
    if (!DAY.test(date) || warsawTime.parse(`${date} 12:00:00`) === undefined) problems.push(`pickupDate: nieprawidłowa data odbioru (${date}), oczekiwany format RRRR-MM-DD`);
    else if (date < now.slice(0, 10)) problems.push(`pickupDate: data odbioru ${date} już minęła`);
    if (!HOUR.test(from)) problems.push(`pickupTimeFrom: nieprawidłowa godzina (${from}), oczekiwany format GG:MM`);
    if (!HOUR.test(to)) problems.push(`pickupTimeTo: nieprawidłowa godzina (${to}), oczekiwany format GG:MM`);
    else if (HOUR.test(from) && to <= from) problems.push(`pickupTimeTo: koniec przedziału ${to} musi być późniejszy niż jego początek ${from}`);
    else if (date === now.slice(0, 10) && to <= now.slice(11, 16)) problems.push(`pickupTimeTo: kurier nie zdąży dzisiaj przyjechać do ${to}`);
    const ids = xmlList(xmlObject(body.shipmentIdList).item).map((i) => xmlString(i) ?? '');
    if (ids.length === 0 && Object.keys(xmlObject(body.shipmentOrderInfo)).length === 0) problems.push('shipmentIdList: podaj przesyłki albo shipmentOrderInfo');
    const found = ids.flatMap((id, i) => {
      const s = live(owner, id);
      const booked = s && bookings.get(s.id);
      if (!s) problems.push(`shipmentIdList.item[${i}]: nie znaleziono przesyłki ${id}`);
      else if (booked) problems.push(`shipmentIdList.item[${i}]: przesyłka ${id} ma już zamówionego kuriera (zamówienie ${booked.orderId})`);
      return s ? [s] : [];
    });
    if (new Set(found.map((s) => placeOf(s.request.shipper))).size > 1) {
      problems.push('shipmentIdList: przesyłki mają różne adresy nadania i nie mogą zostać odebrane w jednym miejscu');
    }
    if (problems.length > 0) throw fault(problems.join('\n'));
    const booking: CourierBooking = { orderId: `${nextOrder()}WWW`, date, from, to };
    for (const s of found) bookings.set(s.id, booking);
    return { name: 'bookCourierResponse', content: { bookCourierResult: { item: [booking.orderId] } } };
  };

  const getPostalCodeServices = ({ body }: SoapRequest): SoapPart => {
    caller(body);
    const postCode = xmlString(body.postCode) ?? '';
    const date = xmlString(body.pickupDate) ?? '';
    const now = warsawTime.format(clock.now(), ' ');
    if (!DAY.test(date) || warsawTime.parse(`${date} 12:00:00`) === undefined) throw fault(`pickupDate: nieprawidłowa data (${date}), oczekiwany format RRRR-MM-DD`);
    if (date < now.slice(0, 10)) throw fault(`pickupDate: data ${date} już minęła`);
    const served = /^\d{5}$/.test(postCode) && !noSuchPlace(postCode);
    const weekday = new Date(`${date}T12:00:00Z`).getUTCDay();
    const hoursOf = (kind: keyof typeof PICKUP_HOURS) => {
      const { from, to } = PICKUP_HOURS[kind];
      if (!served || weekday === 0 || weekday === 6) return { from: NO_HOUR, to: NO_HOUR };
      if (date > now.slice(0, 10)) return { from, to };
      const nextHour = `${String(Number(now.slice(11, 13)) + 1).padStart(2, '0')}:00`;
      const start = nextHour > from ? nextHour : from;
      const orderable = warsawTime.parse(`${date} ${to}:00`)! - clock.now() >= ORDER_LEAD_MS && start < to;
      return orderable ? { from: start, to } : { from: NO_HOUR, to: NO_HOUR };
    };
    const ex = hoursOf('ex');
    const dr = hoursOf('dr');
    return {
      name: 'getPostalCodeServicesResponse',
      content: {
        getPostalCodeServicesResult: {
          domesticExpress9: served, domesticExpress12: served, deliveryEvening: served, pickupOnSaturday: false, deliverySaturday: false,
          exPickupFrom: ex.from, exPickupTo: ex.to, drPickupFrom: dr.from, drPickupTo: dr.to,
        },
      },
    };
  };

  const getPnp = async ({ body }: SoapRequest): Promise<SoapPart> => {
    const request = xmlObject(body.pnpRequest);
    const owner = caller(request);
    const date = xmlString(request.date) ?? '';
    const type = xmlString(request.type) ?? '';
    if (!DAY.test(date)) throw fault(`date: nieprawidłowa data raportu (${date}), oczekiwany format RRRR-MM-DD`);
    const ofType = Object.hasOwn(PNP_TYPES, type) ? PNP_TYPES[type]! : undefined;
    if (!ofType) throw fault(`type: nieznany rodzaj raportu (${type}); dostępne: ${Object.keys(PNP_TYPES).join(', ')}`);
    const listed = shipments.all().filter((s) => s.owner === owner && !shipments.isCancelled(s) && sendingDay(s) === date && ofType(s));
    if (listed.length === 0) throw fault(`date: brak przesyłek nadanych w dniu ${date}`);
    const shipper = listed[0]!.request.shipper;
    const pdf = await renderPnp({
      date, type, login: owner,
      shipper: [shipper.name, `${shipper.street} ${shipper.houseNumber}`, `${shipper.postalCode} ${shipper.city}`],
      shipments: listed.map((s) => ({
        waybill: s.id, product: s.product, pieces: s.parcels.map((p) => p.number), weightKg: s.request.pieces.reduce((kg, p) => kg + (p.weight || 0), 0),
        receiver: `${s.request.receiver.name}, ${s.request.receiver.postalCode} ${s.request.receiver.city}`, cod: s.request.cod?.amount ?? null,
      })),
    });
    return {
      name: 'getPnpResponse',
      content: { getPnpResult: { fileName: `PNP_${date}_${type}.pdf`, fileData: pdf.toString('base64'), fileMimeType: 'application/pdf' } },
    };
  };

  return {
    getPostalCodeServices,
    bookCourier,
    getPnp,
    sendingDay,
    bookingOf: (shipmentId: string) => bookings.get(shipmentId),
    reset: () => bookings.clear(),
  };
}
