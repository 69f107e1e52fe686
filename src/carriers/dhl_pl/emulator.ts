/**
 * DHL Parcel Poland's DHL24 WebAPI2 as a local server: one SOAP 1.1 endpoint at its real path with the WSDL's
 * operations (createShipments, createShipment to a DHL point, createShipmentReturn, getPieceId, getLabels, deleteShipments,
 * getTrackAndTraceInfo, getMyShipments(Count), getLabelsData, getPostalCodeServices, getNearestServicepoints,
 * bookCourier, getPnp, getVersion), authData in every call, PHP SoapServer's encoding fault for requests that do not
 * fit the WSDL, and DHL's numbered faults for wrong logins (100) and refused data. Its DHL POP points are generated
 * (emulator/points.ts): partner shops and DHL BOX lockers across Polish cities, numbered as DHL's SAP numbers.
 */
import type { FastifyPluginAsync } from 'fastify';
import { isBadCredential } from '../emulator/auth.js';
import type { EmulatorContext, ProviderEmulator } from '../emulator/contract.js';
import { renderLabel, type EmulatedLabel } from '../emulator/labels.js';
import { numberSequence } from '../emulator/numbers.js';
import { generatePoints, searchPoints, type GeneratedPoint } from '../emulator/points.js';
import { EmulatedShipments, type EmulatedEvent, type EmulatedShipment } from '../emulator/shipments.js';
import { EmulatedSoapFault, serveSoap, soapFaultResponse, type SoapRequest } from '../emulator/soap.js';
import { warsawTime } from '../local-time.js';
import { xmlList, xmlObject, xmlString, type SoapPart, type XmlElement, type XmlObject } from '../soap.js';
import type { LabelFormat } from '../types.js';
import { DHL_PL_TRACKING } from './codes.js';
import { dhlPlDispatchDesk } from './emulator-dispatch.js';
import { checkAgainstSchema } from './emulator-schema.js';
import { checkGroupedShipment, checkReturnShipment, checkShipment, type EmulatedDhlShipment, type EmulatedParty } from './emulator-validation.js';
import { dhlPlService, SERVICE_PATH } from './service.js';

type DhlShipment = EmulatedShipment<EmulatedDhlShipment>;

// one emulator for both services: the sandbox answers in its own namespace (karrio dhl_poland utils.py server_url, tests/fixture.py)
const SERVICES = [dhlPlService(false), dhlPlService(true)] as const;
/** labelType of getLabels (itemToPrint.html) → what the document is: PDF label/A4/waybill, ZPL at 203 or 300 dpi. */
const LABEL_TYPES: Readonly<Record<string, LabelFormat>> = { BLP: 'pdf', LBLP: 'pdf', LP: 'pdf', ZBLP: 'zpl', ZBLP300: 'zpl' };
/** createShipments takes one to three shipments per call (createShipments.html). */
const MAX_SHIPMENTS_PER_CALL = 3;
const PAGE = 100;
/**
 * DHL's points in Poland as the emulator has them: DHL POP shops and DHL BOX lockers, each numbered with a SAP number
 * (PointStructure `sap`, e.g. 1020348) from its place in its list. Generated one type at a time, so every town has both
 * (generatePoints deals types and towns round by round, which with two types and eight towns gives a town one type).
 * Exported for stories that pick one taking COD, one taking none, one closed.
 */
export const DHL_PL_EMULATED_POINTS: readonly (GeneratedPoint & { sap: string })[] = [
  ...generatePoints({ countryCode: 'PL', count: 240, seed: 'dhl_pl:pop', types: ['parcelshop'] }).map((p) => ({ ...p, sap: String(1_020_000 + p.seq) })),
  ...generatePoints({ countryCode: 'PL', count: 160, seed: 'dhl_pl:box', types: ['locker'] }).map((p) => ({ ...p, sap: String(1_060_000 + p.seq) })),
];
const POINTS_BY_SAP = new Map(DHL_PL_EMULATED_POINTS.map((p) => [p.sap, p]));
/** The points one getNearestServicepoints answer lists at most (DHL answers those within the radius; the cut is the emulator's). */
const POINTS_PER_ANSWER = 50;
const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;

/**
 * A point as WSDL type Point: PARCELSHOP or PARCELSTATION (the values integrations read), hours `HH:MM` with DHL's
 * 23:59 for a locker's midnight, a day the point is closed left out.
 */
function pointView(p: GeneratedPoint & { sap: string }): XmlElement {
  const hours = Object.fromEntries(p.hours.flatMap(({ day, from, to }) => [[`${WEEKDAYS[day - 1]}Open`, from], [`${WEEKDAYS[day - 1]}Close`, to === '24:00' ? '23:59' : to]]));
  const brand = p.type === 'locker' ? 'DHL BOX 24/7' : 'DHL POP';
  return {
    type: p.type === 'locker' ? 'PARCELSTATION' : 'PARCELSHOP',
    address: { country: p.countryCode, name: `${brand} ${p.name}`, postcode: p.postalCode, city: p.city, street: p.street, houseNumber: p.houseNumber },
    description: brand, longitude: String(p.lon), latitude: String(p.lat), sap: p.sap,
    ...hours, workInHoliday: p.type === 'locker', name: `${brand} ${p.name}`,
  };
}

/** DHL's numbered fault: 100 a wrong login (karrio's dhl_poland tests), 101 refused data (inferred). */
function dhlFault(code: '100' | '101', reason: string): EmulatedSoapFault {
  return new EmulatedSoapFault(code, reason);
}

function caller(body: XmlObject): string {
  const auth = xmlObject(body.authData);
  const username = xmlString(auth.username) ?? '';
  const password = xmlString(auth.password) ?? '';
  if (!username || !password || isBadCredential(username, password)) throw dhlFault('100', 'Nieprawidlowe dane autoryzacyjne');
  return username;
}

export function createDhlPlEmulator({ code, clock }: EmulatorContext): ProviderEmulator {
  const eventView = (event: EmulatedEvent) => ({
    status: event.code, description: DHL_PL_TRACKING.codes[event.code]?.name ?? null, terminal: 'WA', timestamp: warsawTime.format(event.at, ' '),
  });
  const shipments = new EmulatedShipments<EmulatedDhlShipment>(clock, DHL_PL_TRACKING, eventView);
  const nextWaybill = numberSequence(clock, { prefix: '9', digits: 11 });
  const nextPiece = numberSequence(clock, { prefix: 'JJD00003013870900', digits: 27 });
  /** One document of all the shipment's piece labels in the asked format, the same bytes every time. */
  const documentOf = (s: DhlShipment, format: LabelFormat): Promise<Buffer> =>
    shipments.document(s, format, (p) => renderLabel(format, labelContent(s, p.number, p.index)));
  const live = (owner: string, id: string) => {
    const s = shipments.byId(owner, id);
    return s && !shipments.isCancelled(s) ? s : undefined;
  };
  const desk = dhlPlDispatchDesk({ clock, shipments, caller, live, fault: (reason) => dhlFault('101', reason) });

  const createShipments = ({ body }: SoapRequest): SoapPart => {
    const owner = caller(body);
    const items = xmlList(xmlObject(body.shipments).item).map(xmlObject);
    if (items.length === 0 || items.length > MAX_SHIPMENTS_PER_CALL) throw dhlFault('101', `shipments: jedno wywołanie przyjmuje od 1 do ${MAX_SHIPMENTS_PER_CALL} przesyłek`);
    const checks = items.map(checkShipment);
    const problems = checks.flatMap((c, i) => (c.ok ? [] : c.problems.map((p) => (items.length > 1 ? `shipments.item[${i}].${p}` : p))));
    if (problems.length > 0) throw dhlFault('101', problems.join('\n'));
    const created = checks.map((check) => {
      const request = (check as { ok: true; shipment: EmulatedDhlShipment }).shipment;
      const s = file(owner, request, 'pdf');
      return { shipmentId: s.id, created: warsawTime.format(s.createdAt, ' '), shipper: address(request.shipper), receiver: address(request.receiver), orderStatus: 'NEW' };
    });
    return { name: 'createShipmentsResponse', content: { createShipmentsResult: { item: created } } };
  };

  /** A shipment DHL took: numbered, its pieces numbered, filed under the caller. */
  const file = (owner: string, request: EmulatedDhlShipment, labelFormat: LabelFormat) => shipments.add({
    owner, referenceId: request.reference ?? '', product: request.product, labelFormat, id: nextWaybill(), request, numbers: request.pieces.map(() => nextPiece()),
  });

  /** createShipment (the grouping method) with REGULAR_PICKUP: a shipment, to a DHL point with SP, and its label in the answer. */
  const createShipment = async ({ body }: SoapRequest): Promise<SoapPart> => {
    const owner = caller(body);
    const node = xmlObject(body.shipment);
    const check = checkGroupedShipment(node, (sap) => POINTS_BY_SAP.get(sap));
    if (!check.ok) throw dhlFault('101', check.problems.join('\n'));
    const labelType = xmlString(xmlObject(node.shipmentInfo).labelType) ?? '';
    const format = Object.hasOwn(LABEL_TYPES, labelType) ? LABEL_TYPES[labelType]! : undefined;
    if (!format) throw dhlFault('101', `shipmentInfo.labelType: nieznany typ etykiety (${labelType}); dostępne: ${Object.keys(LABEL_TYPES).join(', ')}`);
    const s = file(owner, check.shipment, format);
    const label = await documentOf(s, format);
    return {
      name: 'createShipmentResponse',
      content: {
        createShipmentResult: {
          shipmentNotificationNumber: s.id, shipmentTrackingNumber: s.id,
          label: { labelType, labelFormat: format === 'pdf' ? 'PDF' : 'ZPL', labelContent: label.toString('base64') },
        },
      },
    };
  };

  /**
   * createShipmentReturn: a return (ZK, ZC) to the caller's warehouse, numbered like any shipment, its label in the
   * answer; tracked to `delivered` at the warehouse like any parcel.
   */
  const createShipmentReturn = async ({ body }: SoapRequest): Promise<SoapPart> => {
    const owner = caller(body);
    const node = xmlObject(body.shipment);
    const check = checkReturnShipment(node, warsawTime.format(clock.now()).slice(0, 10), (waybill) => live(owner, waybill) !== undefined);
    if (!check.ok) throw dhlFault('101', check.problems.join('\n'));
    const labelType = xmlString(xmlObject(node.shipmentInfo).labelType) ?? '';
    // createShipmentReturn.html: BLP, LBLP, ZBLP, ZBLP300 (no waybill LP)
    const format = labelType !== 'LP' && Object.hasOwn(LABEL_TYPES, labelType) ? LABEL_TYPES[labelType]! : undefined;
    if (!format) throw dhlFault('101', `shipmentInfo.labelType: nieznany typ etykiety zwrotnej (${labelType}); dostępne: BLP, LBLP, ZBLP, ZBLP300`);
    const s = file(owner, check.shipment, format);
    const label = await documentOf(s, format);
    return {
      name: 'createShipmentReturnResponse',
      content: {
        createShipmentReturnResult: {
          item: [{
            shipmentNotificationNumber: s.id, shipmentTrackingNumber: s.id,
            label: { labelType, labelFormat: format === 'pdf' ? 'application/pdf' : 'text/plain', labelContent: label.toString('base64') },
          }],
        },
      },
    };
  };

  /** getNearestServicepoints: the serving points near the post code or in the city; DHL POP points are in Poland only. */
  const getNearestServicepoints = ({ body }: SoapRequest): SoapPart => {
    caller(body);
    const structure = xmlObject(body.structure);
    const country = xmlString(structure.country) ?? 'PL';
    const postalCode = xmlString(structure.postcode)?.trim() || undefined;
    const city = xmlString(structure.city)?.trim() || undefined;
    if (!postalCode && !city) throw dhlFault('101', 'structure.postcode, structure.city: podaj kod pocztowy lub miejscowość');
    if (country === 'PL' && postalCode && !/^\d{5}$/.test(postalCode)) throw dhlFault('101', `structure.postcode: nieprawidłowy kod pocztowy (${postalCode})`);
    const serving = country === 'PL' ? DHL_PL_EMULATED_POINTS.filter((p) => p.open) : [];
    // searchPoints answers the points it was given
    const found = searchPoints(serving, { ...(city ? { city } : { postalCode }), limit: POINTS_PER_ANSWER });
    return { name: 'getNearestServicepointsResponse', content: { getNearestServicepointsResult: { points: { item: found.map((p) => pointView(p as (typeof DHL_PL_EMULATED_POINTS)[number])) }, count: found.length } } };
  };

  const getPieceId = ({ body }: SoapRequest): SoapPart => {
    const owner = caller(body);
    const asked = xmlList(xmlObject(xmlObject(body.request).items).item).map((i) => xmlString(xmlObject(i).shipmentNumber) ?? '');
    const found = asked.map((id) => live(owner, id));
    const missing = asked.filter((_, i) => !found[i]);
    if (asked.length === 0 || missing.length > 0) throw dhlFault('101', `request.items: nie znaleziono przesyłki ${missing.join(', ')}`);
    return {
      name: 'getPieceIdResponse',
      content: {
        getPieceIdResult: {
          shipments: {
            item: (found as DhlShipment[]).map((s) => ({
              shipmentNumber: s.id,
              packages: {
                item: s.parcels.map((p, i) => {
                  const piece = s.request.pieces[i]!;
                  return { packageNumber: p.number, productType: s.product, weightReal: piece.weight, width: piece.width, length: piece.length, height: piece.height };
                }),
              },
            })),
          },
        },
      },
    };
  };

  const getLabels = async ({ body }: SoapRequest): Promise<SoapPart> => {
    const owner = caller(body);
    const items = xmlList(xmlObject(body.itemsToPrint).item).map(xmlObject);
    const answers = await Promise.all(items.map(async (item) => {
      const labelType = xmlString(item.labelType) ?? '';
      const shipmentId = xmlString(item.shipmentId) ?? '';
      const format = Object.hasOwn(LABEL_TYPES, labelType) ? LABEL_TYPES[labelType] : undefined;
      if (!format) throw dhlFault('101', `itemsToPrint.labelType: nieznany typ etykiety (${labelType}); dostępne: ${Object.keys(LABEL_TYPES).join(', ')}`);
      const s = live(owner, shipmentId);
      if (!s) throw dhlFault('101', `itemsToPrint.shipmentId: nie znaleziono przesyłki ${shipmentId}`);
      s.labelFormat = format;
      const document = await documentOf(s, format);
      return {
        shipmentId, labelType, labelName: `${shipmentId}.${format}`, labelData: document.toString('base64'),
        labelMimeType: format === 'pdf' ? 'application/pdf' : 'text/plain',
      };
    }));
    return { name: 'getLabelsResponse', content: { getLabelsResult: { item: answers } } };
  };

  const deleteShipments = ({ body }: SoapRequest): SoapPart => {
    const owner = caller(body);
    const ids = xmlList(xmlObject(body.shipments).item).map((i) => xmlString(i) ?? '');
    const item = ids.map((id) => {
      const s = shipments.byId(owner, id);
      if (!s) return { id, result: false, error: `Przesyłka ${id} nie istnieje` };
      // deleteShipments.html: not a shipment with a courier booked ("you must first cancel the courier collection")
      const booked = desk.bookingOf(s.id);
      if (booked) return { id, result: false, error: `Przesyłka ${id} ma zamówionego kuriera (zamówienie ${booked.orderId}): najpierw anuluj zamówienie kuriera` };
      // a shipment that has left the sender is no longer deleted
      return shipments.cancel(s) === 'cancelled' ? { id, result: true } : { id, result: false, error: `Przesyłka ${id} została już nadana i nie może zostać usunięta` };
    });
    return { name: 'deleteShipmentsResponse', content: { deleteShipmentsResult: { item } } };
  };

  /** Events of a piece number (or of a waybill's first piece), newest first as DHL lists them. */
  /** By the shipment's number, as DHL documents `shipmentId`; a piece's JJD number finds nothing. */
  const getTrackAndTraceInfo = ({ body }: SoapRequest): SoapPart => {
    const owner = caller(body);
    const asked = xmlString(body.shipmentId) ?? '';
    const parcel = shipments.byId(owner, asked)?.parcels[0];
    if (!parcel) throw dhlFault('101', `shipmentId: brak przesyłki o numerze ${asked}`);
    const delivered = shipments.lastStatus(parcel) === 'delivered';
    return {
      name: 'getTrackAndTraceInfoResponse',
      content: { getTrackAndTraceInfoResult: { shipmentId: asked, receivedBy: delivered ? 'ODBIORCA' : undefined, events: { item: [...parcel.events].reverse().map(eventView) } } },
    };
  };

  /** The caller's shipments created on the days asked (Warsaw dates), deleted ones left out. */
  const createdBetween = (body: XmlObject, owner: string) => {
    const from = xmlString(body.createdFrom) ?? '';
    const to = xmlString(body.createdTo) ?? '';
    if (!/^\d{4}-\d{2}-\d{2}$/.test(from) || !/^\d{4}-\d{2}-\d{2}$/.test(to)) throw dhlFault('101', 'createdFrom, createdTo: daty w formacie RRRR-MM-DD');
    return shipments.all().filter((s) => {
      const day = warsawTime.format(s.createdAt).slice(0, 10);
      return s.owner === owner && day >= from && day <= to && !shipments.isCancelled(s);
    });
  };

  const getMyShipmentsCount = ({ body }: SoapRequest): SoapPart =>
    ({ name: 'getMyShipmentsCountResponse', content: { getMyShipmentsCountResult: createdBetween(body, caller(body)).length } });

  const getMyShipments = ({ body }: SoapRequest): SoapPart => {
    const offset = Number(xmlString(body.offset) ?? 0);
    const page = createdBetween(body, caller(body)).slice(offset, offset + PAGE);
    return {
      name: 'getMyShipmentsResponse',
      content: {
        getMyShipmentsResult: {
          item: page.map((s) => ({
            shipmentId: s.id, created: warsawTime.format(s.createdAt, ' '), shipper: address(s.request.shipper), receiver: address(s.request.receiver), orderStatus: 'NEW',
          })),
        },
      },
    };
  };

  /** What DHL holds of the caller's shipments that were not deleted, with the courier order and its day and hours once booked. */
  const getLabelsData = ({ body }: SoapRequest): SoapPart => {
    const owner = caller(body);
    const ids = xmlList(xmlObject(body.itemsToLabelData).item).map((i) => xmlString(xmlObject(i).shipmentId) ?? '');
    const item = ids.flatMap((id) => {
      const s = live(owner, id);
      const booked = s && desk.bookingOf(s.id);
      return s ? [{
        shipmentId: s.id, dispatchNotificationNumber: booked?.orderId, content: s.request.content, comment: s.request.comment ?? undefined,
        reference: s.request.reference ?? undefined, shipmentTime: { shipmentDate: desk.sendingDay(s), shipmentStartHour: booked?.from, shipmentEndHour: booked?.to },
      }] : [];
    });
    return { name: 'getLabelsDataResponse', content: { getLabelsDataResult: { item } } };
  };

  const withSchema = (handler: (request: SoapRequest) => SoapPart | Promise<SoapPart>) => (request: SoapRequest) => {
    checkAgainstSchema(request.operation, request.body);
    return handler(request);
  };

  const routes: FastifyPluginAsync = async (app) => {
    serveSoap(app, SERVICE_PATH.replace(/\?.*$/, ''), SERVICES, {
      createShipments: withSchema(createShipments),
      createShipment: withSchema(createShipment),
      createShipmentReturn: withSchema(createShipmentReturn),
      getNearestServicepoints: withSchema(getNearestServicepoints),
      getPieceId: withSchema(getPieceId),
      getLabels: withSchema(getLabels),
      deleteShipments: withSchema(deleteShipments),
      getTrackAndTraceInfo: withSchema(getTrackAndTraceInfo),
      getMyShipmentsCount: withSchema(getMyShipmentsCount),
      getMyShipments: withSchema(getMyShipments),
      getLabelsData: withSchema(getLabelsData),
      getPostalCodeServices: withSchema(desk.getPostalCodeServices),
      bookCourier: withSchema(desk.bookCourier),
      getPnp: withSchema(desk.getPnp),
      getVersion: () => ({ name: 'getVersionResponse', content: { getVersionResult: '2.0 (packdesk emulator)' } }),
    });
  };

  return {
    code,
    routes,
    // DHL reports the shipment's events: all its pieces move together; a shipment to a point is collected there, after it waited
    advance: (trackingNumber, to) => {
      const found = shipments.parcel(trackingNumber);
      if (to !== 'delivered' || !found?.shipment.request.servicePoint || shipments.lastStatus(found.parcel) === 'ready_for_pickup') {
        return shipments.advanceWithShipment(trackingNumber, to);
      }
      return shipments.collectAtPoint(trackingNumber, true);
    },
    shipments: () => shipments.records((s) => ({
      state: shipments.isCancelled(s) ? 'Cancelled' : DHL_PL_TRACKING.codes[shipments.lastCode(s.parcels[0]!)]!.name,
      login: s.owner,
      waybill: s.id,
      sapNumber: s.request.accountNumber,
      courierOrder: desk.bookingOf(s.id) ?? null,
      comment: s.request.comment,
      cod: s.request.cod,
      servicePoint: s.request.servicePoint,
      returnOf: s.request.returnOf,
      weights: s.request.pieces.map((p) => p.weight),
      shipper: s.request.shipper,
      receiver: s.request.receiver,
    })),
    // authData travels in every call: there are no tokens to expire
    expireTokens: () => {},
    reset: () => {
      shipments.reset();
      desk.reset();
    },
    faultResponse: (status) => soapFaultResponse(SERVICES[0], status === 429 ? 'Too many requests, try again later' : 'Internal Server Error'),
  };
}

/** AddressData as DHL echoes it in ShipmentBasicData. */
function address(p: EmulatedParty): XmlElement {
  return {
    name: p.name, postalCode: p.postalCode, city: p.city, street: p.street, houseNumber: p.houseNumber, apartmentNumber: p.apartmentNumber,
    contactPerson: p.contactPerson, contactPhone: p.contactPhone, contactEmail: p.contactEmail,
  };
}

/** What the emulated BLP label prints; the Code 128 is the piece number (JJD…), as on DHL's piece labels. */
function labelContent(s: DhlShipment, piece: string, index: number): EmulatedLabel {
  const { request } = s;
  const lines = (p: EmulatedParty) => [p.name, p.contactPerson ?? '', `${p.street} ${p.houseNumber}${p.apartmentNumber ? `/${p.apartmentNumber}` : ''}`, `${p.postalCode} ${p.city}`, p.country].filter(Boolean);
  return {
    carrier: 'DHL Parcel Poland',
    trackingNumber: piece,
    parcelIndex: index,
    parcelCount: s.parcels.length,
    reference: request.comment ?? undefined,
    product: `${s.product} · waybill ${s.id}${request.returnOf ? ` · zwrot ${request.returnOf}` : ''}${request.servicePoint ? ` · DHL POP ${request.servicePoint}` : ''}${request.cod ? ' · COD' : ''}`,
    sender: lines(request.shipper),
    recipient: [...lines(request.receiver), request.receiver.contactPhone ?? ''].filter(Boolean),
    cod: request.cod ? { amount: request.cod.amount, currency: 'PLN' } : undefined,
  };
}
