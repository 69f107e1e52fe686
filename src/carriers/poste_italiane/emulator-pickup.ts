/**
 * Courier bookings of the emulated Poste Delivery Business: `POST parcel/pickup` inserts (I) or cancels (A) a booking,
 * `POST parcel/pickupReport` lists them, both answering 200 with OK or KO and the manual's `E00xx` codes and texts
 * (mlocati/MLPosteDeliveryExpress `Library/PickupBooking/Response/{Result,FoundContainer}.cs`). Shapes:
 * `Library/PickupBooking/Request/*.cs` and smart-dato/post-it-sdk `src/Data/Pickup*.php`. What Poste checks is
 * published only as those codes; which code answers which mistake is the emulator's reading of their texts.
 */
import type { Clock } from '../../domain/clock.js';
import { numberSequence } from '../emulator/numbers.js';
import { romeTime } from '../local-time.js';
import { POSTE_BOOKING_TYPES, POSTE_PICKUP_CANCELLED, POSTE_PICKUP_STATUSES, POSTE_TIME_SLOTS, type PosteTimeSlot } from './codes.js';

type PickupStatus = keyof typeof POSTE_PICKUP_STATUSES;

interface EmulatedPickupPlace {
  givenName: string;
  surname: string;
  streetName: string;
  streetNumber: string;
  town: string;
  region: string;
  postCode: string;
  country: string;
  phone: string;
  email: string;
}

export interface EmulatedPickup {
  owner: string;
  bookingId: string;
  pickupId: string;
  bookingCode: string;
  bookingType: string;
  shipmentId: string;
  pickupDate: string;
  timeSlot: PosteTimeSlot;
  where: EmulatedPickupPlace;
  content: { containerType: string; quantity: number; weight: number }[];
  notes: string[];
  notify: boolean;
  insertedAt: number;
  status: PickupStatus;
}

/** The manual's codes with their texts (Result.cs, FoundContainer.cs); E0999 also names a field Poste does not know. */
const BOOKING_ERRORS = {
  E0013: 'PICKUP data is mandatory',
  E0014: 'BOOKING_TYPE is incorrect - RIT0001 RIT0002 RIT0003',
  E0015: 'SHIPMENT_ID is mandatory for this BOOKING_TYPE',
  E0016: 'there is already a pickup for the same shipment',
  E0017: 'CONTAINER_TYPE is incorrect',
  E0024: 'Mandatory address data',
  E0028: 'OPERATION is incorrect. Correct value is I',
  E0029: 'there is already a pickup for the same data',
  E0030: 'SHIPMENT_ID incorrect',
  E0033: 'Cancellation not possible',
  E0035: 'Time slot not compatible with today\'s date',
  E0038: 'PICKUP_DATE is mandatory in the future',
  E0039: 'there is already a pickup for the same shipment',
  E0999: 'Generic error',
} as const;
const REPORT_ERRORS = {
  E0002: 'Limite inferiore superiore a limite superiore',
  E0003: 'Per i parametri inseriti nessun dato estratto',
  E0004: 'Range date troppo ampio (limitare a 10 gg)',
  E0018: 'Delimitare la ricerca',
} as const;

const ITEM_KEYS = new Set(['operation', 'bookingType', 'bookingId', 'pickupId', 'shipmentId', 'customerShipmentId', 'sender', 'where', 'receiver',
  'content', 'bulky', 'pickupDate', 'timeSlot', 'note1', 'note2', 'note3', 'contentImport', 'notify']);
const ADDRESS_KEYS = new Set(['givenName', 'surname', 'streetNumber', 'streetName', 'streetType', 'floor', 'town', 'region', 'postCode', 'country',
  'km', 'building', 'stairs', 'room', 'internal', 'reception', 'phone', 'email', 'nameIntercom', 'closingTimeFrom', 'closingTimeTo']);
const CONTENT_KEYS = new Set(['containerType', 'tipocontText', 'quantity', 'weight', 'height', 'width', 'length']);
const FILTER_KEYS = new Set(['bookingType', 'bookingId', 'pickupId', 'shipmentId', 'customerShipmentId', 'dateFrom', 'dateTo', 'status']);
/** The pickup contact's mandatory fields (Address.cs: "Richiesto per il referente ritiro"). */
const WHERE_REQUIRED = ['streetNumber', 'streetName', 'town', 'region', 'postCode'] as const;
/** A report spans at most 10 days (E0004). */
const REPORT_MAX_DAYS = 10;
const DAY_MS = 86_400_000;
/** Statuses of a booking that still brings a courier. */
const ACTIVE: ReadonlySet<PickupStatus> = new Set(['PRENOTATO', 'INSERITO', 'IN_ESECUZIONE', 'RITIRO_LAV_MAN']);

class Refused extends Error {
  constructor(readonly code: keyof typeof BOOKING_ERRORS, readonly detail?: string) {
    super(BOOKING_ERRORS[code]);
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown) => (typeof v === 'string' ? v.trim() : '');

function onlyKnown(o: Record<string, unknown>, known: ReadonlySet<string>, path: string): void {
  const stranger = Object.keys(o).find((k) => !known.has(k));
  if (stranger) throw new Refused('E0999', `Campo non previsto: ${path}.${stranger}`);
}

/** `{item: [x]}` → x (the one element Poste reads), or undefined. */
function single(container: unknown, path: string): Record<string, unknown> | undefined {
  if (container === undefined || container === null || container === '') return undefined;
  if (!isObject(container) || !Array.isArray(container.item)) throw new Refused('E0999', `Formato non valido: ${path}`);
  const first = container.item[0];
  if (first === undefined) return undefined;
  if (!isObject(first)) throw new Refused('E0999', `Formato non valido: ${path}.item[]`);
  return first;
}

/** YYYY-MM-DD as the reference client sends it, or YYYYMMDD as the manual's examples show it (post-it-sdk README). */
function day(value: unknown): string | undefined {
  const m = /^(\d{4})-?(\d{2})-?(\d{2})$/.exec(str(value));
  if (!m) return undefined;
  const iso = `${m[1]}-${m[2]}-${m[3]}`;
  return new Date(`${iso}T00:00:00Z`).toISOString().startsWith(iso) ? iso : undefined;
}

function place(where: Record<string, unknown> | undefined): EmulatedPickupPlace {
  if (!where) throw new Refused('E0024');
  onlyKnown(where, ADDRESS_KEYS, 'pickup.item[].where.item[]');
  if (WHERE_REQUIRED.some((k) => str(where[k]) === '')) throw new Refused('E0024');
  if (str(where.region).length > 3) throw new Refused('E0024');
  const country = str(where.country).toUpperCase();
  if (country !== '' && country !== 'IT' && country !== 'ITA') throw new Refused('E0024');
  return {
    givenName: str(where.givenName), surname: str(where.surname), streetName: str(where.streetName), streetNumber: str(where.streetNumber),
    town: str(where.town), region: str(where.region).toUpperCase(), postCode: str(where.postCode), country: country || 'IT',
    phone: str(where.phone), email: str(where.email),
  };
}

function contents(container: unknown): EmulatedPickup['content'] {
  if (!isObject(container) || !Array.isArray(container.item) || container.item.length === 0) throw new Refused('E0013');
  return container.item.map((line: unknown) => {
    if (!isObject(line)) throw new Refused('E0013');
    onlyKnown(line, CONTENT_KEYS, 'pickup.item[].content.item[]');
    if (line.containerType !== 'P' && line.containerType !== 'B') throw new Refused('E0017');
    const { quantity, weight } = line;
    if (typeof quantity !== 'number' || !Number.isInteger(quantity) || quantity < 1) throw new Refused('E0013');
    if (typeof weight !== 'number' || !(weight > 0)) throw new Refused('E0013');
    return { containerType: line.containerType, quantity, weight };
  });
}

const samePlace = (a: EmulatedPickupPlace, b: EmulatedPickupPlace) =>
  [a.postCode, a.streetName.toLowerCase(), a.streetNumber.toLowerCase()].join('|') === [b.postCode, b.streetName.toLowerCase(), b.streetNumber.toLowerCase()].join('|');

const result = (code: string, description: string) => ({ item: [{ result: code ? 'KO' : 'OK', errorCode: code, errorDescription: description }] });

/** The bookings of every client of the emulator; `hasWaybill` says whether a client holds a waybill code. */
export function emulatedPickups(clock: Clock, hasWaybill: (owner: string, code: string) => boolean) {
  const bookings: EmulatedPickup[] = [];
  const nextBooking = numberSequence(clock, { prefix: '4', digits: 8 });
  const nextPickup = numberSequence(clock, { prefix: '2', digits: 9 });
  let bookingCodes = 0;

  /** Rome's day and time now: Poste's pickups are Italian days. */
  const now = () => {
    const text = romeTime.format(clock.now());
    return { today: text.slice(0, 10), time: text.slice(11, 16) };
  };

  function insert(owner: string, item: Record<string, unknown>): string {
    const bookingType = str(item.bookingType);
    if (!(Object.values(POSTE_BOOKING_TYPES) as string[]).includes(bookingType)) throw new Refused('E0014');
    const shipmentId = str(item.shipmentId);
    if (bookingType !== POSTE_BOOKING_TYPES.multiple) {
      if (!shipmentId) throw new Refused('E0015');
      if (!hasWaybill(owner, shipmentId)) throw new Refused('E0030');
    }
    const where = place(single(item.where, 'pickup.item[].where'));
    for (const other of ['sender', 'receiver']) {
      const address = single(item[other], `pickup.item[].${other}`);
      if (address) onlyKnown(address, ADDRESS_KEYS, `pickup.item[].${other}.item[]`);
    }
    const content = contents(item.content);
    const pickupDate = day(item.pickupDate);
    const { today, time } = now();
    if (!pickupDate || pickupDate < today) throw new Refused('E0038');
    const timeSlot = str(item.timeSlot);
    if (!(timeSlot in POSTE_TIME_SLOTS)) throw new Refused('E0999', 'Fascia oraria non valida: timeSlot');
    const slot = timeSlot as PosteTimeSlot;
    // a slot already under way cannot be booked for today
    if (pickupDate === today && time >= POSTE_TIME_SLOTS[slot].from) throw new Refused('E0035');
    const active = bookings.filter((b) => b.owner === owner && ACTIVE.has(b.status));
    if (bookingType === POSTE_BOOKING_TYPES.multiple) {
      if (active.some((b) => b.bookingType === bookingType && b.pickupDate === pickupDate && b.timeSlot === slot && samePlace(b.where, where))) throw new Refused('E0029');
    } else if (active.some((b) => b.shipmentId === shipmentId)) {
      throw new Refused(bookingType === POSTE_BOOKING_TYPES.single ? 'E0016' : 'E0039');
    }
    const booking: EmulatedPickup = {
      owner, bookingId: `CP${nextBooking()}`, pickupId: nextPickup(), bookingCode: String(++bookingCodes).padStart(10, '0'),
      bookingType, shipmentId, pickupDate, timeSlot: slot, where, content,
      notes: [item.note1, item.note2, item.note3].map(str).filter(Boolean), notify: item.notify === 'Y',
      insertedAt: clock.now(), status: 'PRENOTATO',
    };
    bookings.push(booking);
    return booking.bookingId;
  }

  /** A booking not yet under way, on a later day, is cancelled by its booking and pickup ids. */
  function cancel(owner: string, item: Record<string, unknown>): void {
    const booking = bookings.find((b) => b.owner === owner && b.bookingId === str(item.bookingId) && b.pickupId === str(item.pickupId));
    if (!booking || (booking.status !== 'PRENOTATO' && booking.status !== 'INSERITO') || booking.pickupDate <= now().today) throw new Refused('E0033');
    booking.status = POSTE_PICKUP_CANCELLED;
  }

  /** `POST parcel/pickup`: `{bookingId, result: {item: [{result, errorCode, errorDescription}]}}`. */
  function book(owner: string, body: unknown) {
    try {
      const pickup = isObject(body) ? body.pickup : undefined;
      if (!isObject(pickup) || !Array.isArray(pickup.item) || pickup.item.length !== 1 || !isObject(pickup.item[0])) throw new Refused('E0013');
      const item = pickup.item[0];
      onlyKnown(item, ITEM_KEYS, 'pickup.item[]');
      const operation = str(item.operation);
      if (operation === 'I') return { bookingId: insert(owner, item), result: result('', '') };
      // a cancel answers no booking id (PickupBooking/Submitter.cs); modifying a booking is not emulated
      if (operation === 'A') {
        cancel(owner, item);
        return { bookingId: '', result: result('', '') };
      }
      throw new Refused('E0028');
    } catch (err) {
      if (!(err instanceof Refused)) throw err;
      return { bookingId: '', result: result(err.code, err.detail ?? err.message) };
    }
  }

  const found = (b: EmulatedPickup) => {
    const inserted = romeTime.format(b.insertedAt, ' ');
    return {
      channel: 'WEBSERVICES', bookingCode: b.bookingCode,
      pickupAddress: [b.where.streetName, b.where.streetNumber, b.where.postCode, b.where.town.toUpperCase(), b.where.region].join(' '),
      insertDate: inserted.slice(0, 10), insertTime: inserted.slice(11), modifyDate: '', modifyTime: '',
      isEditable: b.status === 'PRENOTATO' && b.pickupDate > now().today ? '1' : '',
      status: b.status, statusDescription: POSTE_PICKUP_STATUSES[b.status], timeSlot: b.timeSlot, pickupDate: b.pickupDate,
      customerShipmentId: '', shipmentId: b.shipmentId, bookingType: b.bookingType, bookingId: b.bookingId, pickupId: b.pickupId,
    };
  };

  /** `POST parcel/pickupReport` with `{pickupFilter}`: the client's bookings whose pickup day is in the range. */
  function report(owner: string, body: unknown) {
    const ko = (code: keyof typeof REPORT_ERRORS) => ({ result: 'KO', errorCode: code, errorDescription: REPORT_ERRORS[code] });
    const filter = isObject(body) ? body.pickupFilter : undefined;
    if (!isObject(filter)) return ko('E0018');
    const stranger = Object.keys(filter).find((k) => !FILTER_KEYS.has(k));
    if (stranger) return { result: 'KO', errorCode: 'E0999', errorDescription: `Campo non previsto: pickupFilter.${stranger}` };
    const dateFrom = day(filter.dateFrom);
    const dateTo = str(filter.dateTo) === '' ? dateFrom : day(filter.dateTo);
    if (!dateFrom || !dateTo) return ko('E0018');
    if (dateFrom > dateTo) return ko('E0002');
    if (Date.parse(dateTo) - Date.parse(dateFrom) >= REPORT_MAX_DAYS * DAY_MS) return ko('E0004');
    const asked = (key: string, value: string) => str(filter[key]) === '' || str(filter[key]) === value;
    // no booking the emulator takes carries a customerShipmentId ("da non valorizzare", Request/Pickup.cs)
    const matches = bookings.filter((b) => b.owner === owner && b.pickupDate >= dateFrom && b.pickupDate <= dateTo
      && asked('bookingType', b.bookingType) && asked('bookingId', b.bookingId) && asked('pickupId', b.pickupId)
      && asked('shipmentId', b.shipmentId) && asked('status', b.status) && asked('customerShipmentId', ''));
    if (matches.length === 0) return ko('E0003');
    return {
      result: 'OK', errorCode: '', errorDescription: '',
      pickup: { item: matches.map(found) },
      statusList: { item: Object.entries(POSTE_PICKUP_STATUSES).map(([status, statusDescription]) => ({ status, statusDescription })) },
    };
  }

  return {
    book,
    report,
    /** Every booking as the inspection route shows it. */
    list: () => bookings.map(({ owner, ...b }) => ({ clientId: owner, ...b, insertedAt: new Date(b.insertedAt).toISOString() })),
    reset: () => {
      bookings.length = 0;
    },
  };
}
