/**
 * The emulated tracking answer: `{return: {outcome, code, result, messages, shipment[]}}` with each waybill's events
 * (mlocati/MLPosteDeliveryExpress `Library/Tracking/Response/*.cs`). A new waybill is found with no events and one
 * message, as Poste's sandbox answers in that library's WaybillGenerationTests.
 */
import type { EmulatedEvent, EmulatedShipments } from '../emulator/shipments.js';
import { POSTE_PRODUCTS, POSTE_TRACKING, type PosteProductCode } from './codes.js';
import type { EmulatedWaybill } from './emulator-validation.js';
import { romeTime } from '../local-time.js';

/** 200–299 are business errors (Return.cs); the number for an unknown waybill is not published. */
const NOT_FOUND = 201;
const MISSING = 101;

/** One event as Poste shows it; `city` is where it happened, when the emulator knows. */
export function trackingEvent(event: EmulatedEvent, city = ''): Record<string, unknown> {
  const entry = POSTE_TRACKING.codes[event.code]!;
  return {
    data: romeTime.format(event.at, ' '), officeDescription: city, officeId: city ? 'CP' : '', status: event.code, phase: entry.phase,
    StatusDescription: entry.name, appStatusDescription: entry.name, ivrStatusDescription: entry.name,
    synthesisStatusDescription: city ? `${entry.name} (${city})` : entry.name,
  };
}

const productName = (code: string) => (POSTE_PRODUCTS[code as PosteProductCode]?.name ?? code).toUpperCase();

const message = (code: string, text: string, severity: number) => ({ code, field: 'waybillNumber', message: text, objectName: 'shipmentsData', severity });

export function trackingAnswer(
  shipments: EmulatedShipments<EmulatedWaybill>, owner: string, asked: readonly string[], lastOnly: boolean,
): Record<string, unknown> {
  if (asked.length === 0) {
    return { return: { outcome: 'KO', code: MISSING, result: 'KO', messages: [{ messages: [message('E101', 'Dati obbligatori mancanti: waybillNumber', 2)] }], shipment: [] } };
  }
  const messages = [];
  const found = [];
  for (const number of asked) {
    const hit = shipments.parcel(number, owner);
    if (!hit) {
      messages.push(message(`E${NOT_FOUND}`, `Spedizione ${number} non trovata`, 2));
      continue;
    }
    const { request } = hit.shipment;
    // the waybill's creation is no event at Poste: a parcel shows events from its first scan on
    const scans = hit.parcel.events.filter((e) => e.code !== POSTE_TRACKING.created);
    const city = (code: string) => (['ACC', 'PCP'].includes(code) ? request.sender.city : request.receiver.city);
    const tracking = (lastOnly ? scans.slice(-1) : scans).map((e) => trackingEvent(e, city(e.code)));
    if (tracking.length === 0) messages.push(message('I01', `Nessun evento di tracciatura disponibile per la spedizione ${number}`, 0));
    // returnFlag marks a round trip (andata e ritorno, Shipment.cs), which packdesk never books
    found.push({ waybillNumber: number, product: productName(hit.shipment.product), NotificationFlag: 'S', returnFlag: 'N', tracking });
  }
  const ok = found.length > 0;
  return {
    return: {
      outcome: ok ? 'OK' : 'KO', code: ok ? 0 : NOT_FOUND, result: ok ? 'OK' : 'KO',
      messages: messages.length > 0 ? [{ messages }] : [], shipment: found,
    },
  };
}
