import { CarrierRefusedError } from '../errors.js';
import { romeTime } from '../local-time.js';
import type { CarrierParty, DispatchForCarrier, PickupRequest } from '../types.js';
import { POSTE_BOOKING_TYPES, POSTE_PICKUP_CANCELLED, POSTE_TIME_SLOTS, type PosteTimeSlot } from './codes.js';
import { cut, refuseOutsideItaly } from './request.js';

/**
 * A courier booking at Poste Delivery Business, `POST postalandlogistics/parcel/pickup`, and its look-up,
 * `POST postalandlogistics/parcel/pickupReport`. Pure. Names, limits and formats: mlocati/MLPosteDeliveryExpress
 * `Library/PickupBooking/{Request,Response}/*.cs` (the client that runs against Poste's sandbox) and
 * smart-dato/post-it-sdk `src/Requests/{BookPickupRequest,GetPickupReportRequest}.php`, `src/Data/Pickup*.php`.
 */

/** An address of a booking (Request/Address.cs); both clients send every key, empty when unknown. */
export interface PostePickupAddress {
  givenName: string; surname: string; streetNumber: string; streetName: string; streetType: string; floor: string;
  town: string; region: string; postCode: string; country: string; km: string; building: string; stairs: string;
  room: string; internal: string; reception: string; phone: string; email: string; nameIntercom: string;
  closingTimeFrom: string; closingTimeTo: string;
}

/** One line of `content` (Request/Contents.cs): kilograms and centimetres with up to 3 decimals. */
export interface PostePickupContent {
  containerType: 'P' | 'B';
  tipocontText: string;
  quantity: number;
  weight: number;
  height: number | null;
  width: number | null;
  length: number | null;
}

/** `pickup.item[]` (Request/Pickup.cs); lists travel as `{item: [...]}` (ItemsContainer.cs). */
export interface PostePickupItem {
  operation: 'I' | 'M' | 'A';
  bookingType: string;
  bookingId: string;
  pickupId: string;
  shipmentId: string;
  customerShipmentId: string;
  sender: { item: PostePickupAddress[] };
  where: { item: PostePickupAddress[] };
  receiver: { item: PostePickupAddress[] };
  content: { item: PostePickupContent[] };
  bulky: '' | 'T';
  pickupDate: string;
  timeSlot: PosteTimeSlot;
  note1: string;
  note2: string;
  note3: string;
  contentImport: string;
  notify: 'Y' | 'N';
}

export interface PostePickupRequest {
  pickup: { item: PostePickupItem[] };
}

/** `pickupFilter` of the report (Request/Filter.cs): dates YYYY-MM-DD, at most 10 days apart. */
export interface PostePickupFilter {
  bookingType: string;
  bookingId: string;
  pickupId: string;
  shipmentId: string;
  customerShipmentId: string;
  dateFrom: string;
  dateTo: string;
}

/** The booking's answer (Response/Container.cs, Result.cs): `result.item[0]` says OK or KO with an `E00xx` code. */
export interface PostePickupAnswer {
  bookingId?: string | null;
  result?: { item?: { result?: string; errorCode?: string | null; errorDescription?: string | null }[] | null } | null;
}

/** One booking of the report (Response/FoundPickup.cs). */
export interface PosteFoundPickup {
  bookingId?: string | null;
  pickupId?: string | null;
  bookingCode?: string | null;
  bookingType?: string | null;
  pickupAddress?: string | null;
  pickupDate?: string | null;
  timeSlot?: string | null;
  status?: string | null;
}

/** The report's answer (Response/FoundContainer.cs): `result` OK or KO; E0003 is "no booking matches". */
export interface PostePickupReport {
  result?: string;
  errorCode?: string | null;
  errorDescription?: string | null;
  pickup?: { item?: PosteFoundPickup[] | null } | null;
}

/** The report holds no booking for the filter (FoundContainer.cs; Finder.cs reads it as an empty list). */
export const REPORT_NOTHING_FOUND = 'E0003';

/** Poste takes a date range of at most 10 days (FoundContainer.cs, E0004). */
const REPORT_MAX_DAYS = 10;

const SLOT_NAMES: Record<PosteTimeSlot, string> = { AM: 'morning', PM: 'afternoon', AMPM: 'morning or afternoon' };

/**
 * The slot that holds the asked window: morning, afternoon, or either when it spans both. Poste books no narrower
 * window, so the courier may come at any time of the slot; a window outside both is refused before asking Poste.
 */
export function timeSlotFor(asked: PickupRequest): PosteTimeSlot {
  const overlaps = (slot: PosteTimeSlot) => asked.from < POSTE_TIME_SLOTS[slot].to && asked.to > POSTE_TIME_SLOTS[slot].from;
  if (overlaps('AM') && overlaps('PM')) return 'AMPM';
  if (overlaps('AM')) return 'AM';
  if (overlaps('PM')) return 'PM';
  const { AM, PM, AMPM } = POSTE_TIME_SLOTS;
  const message = `Poste Italiane picks up between ${AMPM.from} and ${AMPM.to} (morning ${AM.from}–${AM.to}, afternoon ${PM.from}–${PM.to}), not ${asked.from}–${asked.to}`;
  throw new CarrierRefusedError(message, { 'pickup.from': [message], 'pickup.to': [message] });
}

function pickupAddress(party: CarrierParty | null, region = ''): PostePickupAddress {
  const firm = party?.companyName ?? null;
  return {
    // the firm as "given name" with the person as surname, or the person alone (post-it-sdk README: givenName 'Acme Srl')
    givenName: cut(firm ?? party?.personName ?? '', 40),
    surname: firm && party?.personName ? cut(party.personName, 40) : '',
    streetNumber: cut(party?.houseNumber ?? '', 10),
    streetName: cut(party?.street ?? '', 60),
    streetType: '', floor: '',
    town: cut(party?.city ?? '', 40),
    region,
    postCode: (party?.postalCode ?? '').replace(/\s/g, ''),
    // two letters, as post-it-sdk's examples send it (Address.cs allows 3)
    country: party ? party.countryCode : '',
    km: '', building: '', stairs: '', room: '',
    internal: cut(party?.apartmentNumber ?? '', 10),
    reception: '',
    phone: cut((party?.phone ?? '').replace(/[^\d+]/g, ''), 30),
    email: cut(party?.email ?? '', 241),
    nameIntercom: cut(firm ?? party?.personName ?? '', 40),
    closingTimeFrom: '', closingTimeTo: '',
  };
}

/**
 * The day's hand-over as one "ritiro multiplo" (RIT0003): RIT0001 and RIT0002 pick up one waybill each (their
 * `shipmentId` is mandatory), RIT0003 picks up the parcels of any number of waybills at one address. Its content
 * is one line of packages: their count and total weight (packdesk keeps no dimensions at hand-over). The pickup
 * contact (`where`, the only mandatory address) is the dispatch's sender, who is also the sender.
 */
export function postePickupRequest(dispatch: DispatchForCarrier, asked: PickupRequest, province: string): PostePickupRequest {
  refuseOutsideItaly(dispatch.sender, 'pickup');
  const parcels = dispatch.shipments.flatMap((s) => s.parcels);
  const totalKg = parcels.reduce((sum, p) => sum + p.weightKg, 0);
  const where = pickupAddress(dispatch.sender, province);
  return {
    pickup: {
      item: [{
        operation: 'I', bookingType: POSTE_BOOKING_TYPES.multiple, bookingId: '', pickupId: '', shipmentId: '',
        // "da non valorizzare" (Request/Pickup.cs)
        customerShipmentId: '',
        sender: { item: [where] }, where: { item: [where] }, receiver: { item: [pickupAddress(null)] },
        content: { item: [{ containerType: 'P', tipocontText: '', quantity: parcels.length, weight: Math.round(totalKg * 1000) / 1000, height: null, width: null, length: null }] },
        bulky: '',
        // YYYY-MM-DD as the reference client sends it (DateISO8601.cs); post-it-sdk notes the manual's examples use YYYYMMDD
        pickupDate: asked.date,
        timeSlot: timeSlotFor(asked),
        // "spazio a disposizione del cliente": the dispatch id, for the person who reads the booking in Poste's portal
        note1: dispatch.id, note2: '', note3: '', contentImport: '',
        // Poste's progress mails are not asked for: packdesk shows the booking itself
        notify: 'N',
      }],
    },
  };
}

const dayAfter = (day: string, days: number) => new Date(Date.parse(`${day}T12:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

/**
 * The report's filter for a booking of `item` sent since `since`: multiple pickups from the day of the send to the
 * pickup day, the range cut to Poste's 10 days ending on the pickup day. Poste does not say whether the range is of
 * pickup or insertion days: this one covers both when they are 10 days apart at most.
 */
export function pickupFilter(item: PostePickupItem, since: number): PostePickupFilter {
  const sentOn = romeTime.format(since).slice(0, 10);
  const earliest = dayAfter(item.pickupDate, 1 - REPORT_MAX_DAYS);
  const first = sentOn < item.pickupDate ? sentOn : item.pickupDate;
  const dateFrom = first < earliest ? earliest : first;
  return { bookingType: item.bookingType, bookingId: '', pickupId: '', shipmentId: '', customerShipmentId: '', dateFrom, dateTo: item.pickupDate };
}

/**
 * Our booking in the report: a multiple pickup not cancelled, on our day and slot, at our pickup postcode. The report
 * shows no note or reference of ours, but Poste holds one such booking per address, day and slot (E0029 "there is
 * already a pickup for the same data"): the one found is the courier that comes for our parcels.
 */
export function findOurBooking(found: readonly PosteFoundPickup[], item: PostePickupItem): PosteFoundPickup | undefined {
  const postCode = item.where.item[0]!.postCode;
  return found.find((b) => b.bookingType === item.bookingType && b.pickupDate === item.pickupDate && b.timeSlot === item.timeSlot
    && b.status !== POSTE_PICKUP_CANCELLED && Boolean(b.bookingId) && (b.pickupAddress ?? '').includes(postCode));
}

/** The window a slot brings the courier in, as the booking shows it. */
export const slotWindow = (slot: PosteTimeSlot) => ({ from: POSTE_TIME_SLOTS[slot].from, to: POSTE_TIME_SLOTS[slot].to });

/** A KO of the booking (Result.cs codes) → a refusal that says what to change, on the dispatch's fields. */
export function pickupRefusal(code: string, description: string, item: PostePickupItem): CarrierRefusedError {
  const slot = `${SLOT_NAMES[item.timeSlot]} ${POSTE_TIME_SLOTS[item.timeSlot].from}–${POSTE_TIME_SLOTS[item.timeSlot].to}`;
  const [path, reason] = ((): [string, string] => {
    switch (code) {
      case 'E0038': return ['pickup.date', `the pickup day ${item.pickupDate} must be in the future`];
      case 'E0035': return ['pickup.from', `the ${slot} slot can no longer be booked for ${item.pickupDate}`];
      case 'E0016': case 'E0029': case 'E0039':
        return ['pickup', `a courier is already booked at this address on ${item.pickupDate} (${slot})`];
      case 'E0024': return ['pickup', 'the pickup address is incomplete (street, number, town, postcode and province are needed)'];
      default: return ['pickup', description || 'no reason given'];
    }
  })();
  const said = `${reason} (${description ? `"${description}", ` : ''}error ${code || 'without a code'})`;
  return new CarrierRefusedError(`Poste Italiane refused the pickup: ${said}`, { [path]: [`Poste Italiane: ${said}`] });
}
