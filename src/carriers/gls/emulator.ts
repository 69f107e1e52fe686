/**
 * GLS's MyGLS ParcelService as a local server, following webapix/mygls-sdk and the ParcelService WSDL: JSON POSTs
 * under /ParcelService.svc/json/, the login (`Username` + SHA-512 password digest) in every body, HTTP 200 answers
 * that list their errors as `ErrorInfo`s, one label document a call, DeleteLabels by ParcelId, GetParcelStatuses by
 * parcel number, and CreatePickupRequest as GLS's WooCommerce plugin calls it (a count and a window, no parcel numbers).
 * Beside it, GLS's public point lists (emulator-points.ts), whose ParcelShops and ParcelLockers the PSD service names.
 */
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import type { TrackingCode, TrackingCodeList } from '../codes.js';
import type { EmulatorContext, ProviderEmulator } from '../emulator/contract.js';
import { numberSequence } from '../emulator/numbers.js';
import { EmulatedShipments, type EmulatedEvent, type EmulatedParcel } from '../emulator/shipments.js';
import { GLS_PRINTER_TYPES, GLS_PRODUCT, GLS_RETURN_PRODUCT, GLS_TRACKING } from './codes.js';
import { parseWcfDate } from './dates.js';
import { glsPoints, pointListRoutes } from './emulator-points.js';
import { callerOf, checkPickupRequest, checkPrintLabels, errorInfo, requestKeysProblems, type GlsEmulatedPickup, type GlsErrorView } from './emulator-validation.js';
import { formatOfPrinter, labelDocumentOf, printDataInfo, statusView, type GlsShipment, type GlsStored } from './emulator-views.js';

/** Appendix A 22: DeleteLabels takes at most 50 ids; GetPrintedLabels at most 99. */
const MAX_DELETED = 50;
const MAX_REPRINTED = 99;

type Found = { shipment: GlsShipment; parcel: EmulatedParcel };

/** GLS's moves for a parcel of the PSD service: out for delivery to the point, put in it, collected there (05). */
function pointRoute(deposit: '54' | '55'): Readonly<Record<string, TrackingCode>> {
  return { ...GLS_TRACKING.codes, '04': { ...GLS_TRACKING.codes['04']!, next: [deposit] } };
}

/**
 * GLS's moves for a Pick&Return parcel (inferred from the codes' names): registered, on the driver's list, collected
 * at the customer's, then the hubs and the door of the warehouse.
 */
function pickAndReturnRoute(): Readonly<Record<string, TrackingCode>> {
  const codes = GLS_TRACKING.codes;
  const moved = (code: string, next: string) => ({ [code]: { ...codes[code]!, next: [next] } });
  return { ...codes, ...moved('51', '83'), ...moved('83', '85'), ...moved('85', '86'), ...moved('86', '02') };
}

/** The codes' moves per parcel: the door's, a ParcelShop's (55 ParcelShop deposit), a ParcelLocker's (54), a return's. */
const ROUTES = { door: GLS_TRACKING.codes, parcelshop: pointRoute('55'), locker: pointRoute('54'), pickAndReturn: pickAndReturnRoute() } as const;

/** Each method's answer when it fails as a whole: its own members, empty, and its error list. */
const EMPTY_ANSWERS: Record<string, { errorKey: string; empty: Record<string, unknown> }> = {
  PrintLabels: { errorKey: 'PrintLabelsErrorList', empty: { Labels: [], PrintLabelsInfoList: [] } },
  GetPrintedLabels: { errorKey: 'GetPrintedLabelsErrorList', empty: { Labels: [], PrintDataInfoList: [] } },
  GetParcelList: { errorKey: 'GetParcelListErrors', empty: { PrintDataInfoList: [] } },
  DeleteLabels: { errorKey: 'DeleteLabelsErrorList', empty: { SuccessfullyDeletedList: [] } },
  CreatePickupRequest: { errorKey: 'PickupRequestErrors', empty: { PickupRequestId: null } },
  GetParcelStatuses: {
    errorKey: 'GetParcelStatusErrors',
    empty: { ClientReference: null, DeliveryCountryCode: null, DeliveryZipCode: null, POD: null, ParcelNumber: null, ParcelStatusList: [], Weight: null },
  },
};

function failed(method: string, errors: GlsErrorView[]): Record<string, unknown> {
  const { errorKey, empty } = EMPTY_ANSWERS[method]!;
  return { ...empty, [errorKey]: errors };
}

function idList(value: unknown): number[] | undefined {
  return Array.isArray(value) && value.every((v) => Number.isInteger(v)) ? (value as number[]) : undefined;
}

export function createGlsEmulator({ code, clock }: EmulatorContext): ProviderEmulator {
  const points = glsPoints();
  // the shipments' store walks one code table: an advance reads the route of its parcel's destination while it walks
  let route: Readonly<Record<string, TrackingCode>> = ROUTES.door;
  const tracking: TrackingCodeList = { created: GLS_TRACKING.created, cancelled: GLS_TRACKING.cancelled, get codes() { return route; } };
  const shipments = new EmulatedShipments<GlsStored>(clock, tracking, (event: EmulatedEvent) => statusView(undefined, event));
  const nextParcelNumber = numberSequence(clock, { prefix: '31', digits: 10 });
  const nextParcelId = numberSequence(clock, { prefix: '5', digits: 9 });
  const byParcelId = new Map<number, Found>();
  const nextPickupRequestId = numberSequence(clock, { prefix: '7', digits: 9 });
  /** The courier bookings, in the order asked: MyGLS keeps them but offers no call that lists them. */
  const pickups: (GlsEmulatedPickup & { PickupRequestId: number; owner: string; requestedAt: number })[] = [];

  /** Every ParcelService method: a JSON body with a login MyGLS accepts, then the method's own work. */
  const method = (name: string, handle: (user: string, body: Record<string, unknown>) => Promise<Record<string, unknown>> | Record<string, unknown>) =>
    async (request: { body: unknown }, reply: FastifyReply) => {
      const body = request.body;
      if (typeof body !== 'object' || body === null || Array.isArray(body)) {
        return reply.send(failed(name, [errorInfo(1000, 'Object reference not set to an instance of an object.')]));
      }
      const caller = callerOf(body as Record<string, unknown>);
      if ('error' in caller) return reply.send(failed(name, [caller.error]));
      return reply.send(await handle(caller.user, body as Record<string, unknown>));
    };

  const known = (user: string, id: number): Found | GlsErrorView => {
    const found = byParcelId.get(id);
    if (!found) return errorInfo(4, 'Parcel ID not exists', [], [id]);
    if (found.shipment.owner !== user) return errorInfo(5, 'Access denied for this parcel ID', [], [id]);
    return found;
  };
  const isError = (x: Found | GlsErrorView): x is GlsErrorView => 'ErrorCode' in x;

  const printLabels = async (user: string, body: Record<string, unknown>) => {
    const check = checkPrintLabels(body, clock.now(), (id) => points.get(id));
    if (!check.ok) return failed('PrintLabels', check.errors);
    const printed: Found[] = [];
    for (const parcel of check.parcels) {
      const numbers = Array.from({ length: parcel.Count }, () => nextParcelNumber());
      const parcelIds = numbers.map(() => Number(nextParcelId()));
      const shipment = shipments.add({
        owner: user, referenceId: parcel.ClientReference ?? '', product: parcel.PickAndReturn ? GLS_RETURN_PRODUCT : GLS_PRODUCT, labelFormat: formatOfPrinter(check.typeOfPrinter),
        request: { parcel, typeOfPrinter: check.typeOfPrinter, parcelIds }, numbers, id: String(parcelIds[0]),
      });
      for (const p of shipment.parcels) {
        byParcelId.set(parcelIds[p.index - 1]!, { shipment, parcel: p });
        printed.push({ shipment, parcel: p });
      }
    }
    const labels = await labelDocumentOf(shipments, printed, check.typeOfPrinter);
    return {
      Labels: [...labels],
      PrintLabelsErrorList: [],
      PrintLabelsInfoList: printed.map(({ shipment, parcel }) => ({
        ClientReference: shipment.request.parcel.ClientReference, ParcelId: shipment.request.parcelIds[parcel.index - 1], ParcelNumber: Number(parcel.number),
      })),
    };
  };

  const printedLabels = async (user: string, body: Record<string, unknown>) => {
    const keys = requestKeysProblems(body, ['ParcelIdList', 'PrintPosition', 'ShowPrintDialog', 'TypeOfPrinter'], 'GetPrintedLabelsRequest');
    if (keys.length > 0) return failed('GetPrintedLabels', keys.map((d) => errorInfo(13, d)));
    const typeOfPrinter = body.TypeOfPrinter ?? 'A4_2x2';
    if (typeof typeOfPrinter !== 'string' || !(GLS_PRINTER_TYPES as readonly string[]).includes(typeOfPrinter)) {
      return failed('GetPrintedLabels', [errorInfo(34, 'Value of TypeOfPrinter is invalid.')]);
    }
    const ids = idList(body.ParcelIdList);
    if (!ids?.length || ids.length > MAX_REPRINTED) return failed('GetPrintedLabels', [errorInfo(13, `Parcel validation issue: ParcelIdList must hold 1 to ${MAX_REPRINTED} ids.`)]);
    const results = ids.map((id) => known(user, id));
    const errors = results.filter(isError);
    const found = results.filter((r): r is Found => !isError(r));
    for (const f of found.filter((f) => shipments.isCancelled(f.shipment))) {
      errors.push(errorInfo(6, 'Parcel with this ID has different status than PRINTED', [], [f.shipment.request.parcelIds[f.parcel.index - 1]!]));
    }
    const printable = found.filter((f) => !shipments.isCancelled(f.shipment));
    return {
      Labels: printable.length > 0 ? [...(await labelDocumentOf(shipments, printable, typeOfPrinter))] : [],
      GetPrintedLabelsErrorList: errors,
      PrintDataInfoList: printable.map((f) => printDataInfo(f.shipment, f.parcel)),
    };
  };

  const parcelList = (user: string, body: Record<string, unknown>) => {
    const keys = requestKeysProblems(body, ['PickupDateFrom', 'PickupDateTo', 'PrintDateFrom', 'PrintDateTo'], 'GetParcelListRequest');
    if (keys.length > 0) return failed('GetParcelList', keys.map((d) => errorInfo(13, d)));
    const window = (from: unknown, to: unknown) => {
      const [a, b] = [parseWcfDate(from), parseWcfDate(to)];
      return a !== undefined && b !== undefined ? { from: a, to: b } : undefined;
    };
    const printed = window(body.PrintDateFrom, body.PrintDateTo);
    const pickup = window(body.PickupDateFrom, body.PickupDateTo);
    if (!printed && !pickup) return failed('GetParcelList', [errorInfo(13, 'Parcel validation issue: PrintDateFrom and PrintDateTo, or PickupDateFrom and PickupDateTo, are required.')]);
    const within = (w: { from: number; to: number } | undefined, at: number) => w === undefined || (at >= w.from && at <= w.to);
    // deleted labels are left out: GLS will never carry them
    const listed = shipments.all().filter((s) => s.owner === user && !shipments.isCancelled(s)
      && within(printed, s.createdAt) && within(pickup, s.request.parcel.PickupDate));
    return { GetParcelListErrors: [], PrintDataInfoList: listed.flatMap((s) => s.parcels.map((p) => printDataInfo(s, p))) };
  };

  const deleteLabels = (user: string, body: Record<string, unknown>) => {
    const keys = requestKeysProblems(body, ['ParcelIdList'], 'DeleteLabelsRequest');
    if (keys.length > 0) return failed('DeleteLabels', keys.map((d) => errorInfo(13, d)));
    const ids = idList(body.ParcelIdList);
    if (!ids?.length) return failed('DeleteLabels', [errorInfo(13, 'Parcel validation issue: ParcelIdList is empty.')]);
    if (ids.length > MAX_DELETED) return failed('DeleteLabels', [errorInfo(22, 'Count of parcels for deleting is out of limit')]);
    const errors: GlsErrorView[] = [];
    const deleted: { ParcelId: number; SubParcelIdList: number[] }[] = [];
    for (const id of ids) {
      const found = known(user, id);
      if (isError(found)) {
        errors.push(found);
        continue;
      }
      // a shipment's parcels are deleted together, the main ParcelId's with its sub-parcels
      if (shipments.isCancelled(found.shipment) || shipments.cancel(found.shipment) === 'not_cancellable') {
        errors.push(errorInfo(6, 'Parcel with this ID has different status than PRINTED', [], [id]));
        continue;
      }
      const [main, ...subs] = found.shipment.request.parcelIds;
      deleted.push({ ParcelId: id, SubParcelIdList: id === main ? subs : [] });
    }
    return { DeleteLabelsErrorList: errors, SuccessfullyDeletedList: deleted };
  };

  const parcelStatuses = (user: string, body: Record<string, unknown>) => {
    const keys = requestKeysProblems(body, ['ParcelNumber', 'ReturnPOD', 'LanguageIsoCode'], 'GetParcelStatusesRequest');
    if (keys.length > 0) return failed('GetParcelStatuses', keys.map((d) => errorInfo(13, d)));
    const number = body.ParcelNumber;
    const found = Number.isInteger(number) ? shipments.parcel(String(number), user) : undefined;
    if (!found) return failed('GetParcelStatuses', [errorInfo(9, 'Parcel number not exists')]);
    const { shipment, parcel } = found;
    const p = shipment.request.parcel;
    return {
      ClientReference: p.ClientReference, DeliveryCountryCode: p.DeliveryAddress.CountryIsoCode, DeliveryZipCode: p.DeliveryAddress.ZipCode,
      GetParcelStatusErrors: [], POD: null, ParcelNumber: Number(parcel.number),
      ParcelStatusList: parcel.events.filter((e) => e.code !== GLS_TRACKING.cancelled).reverse().map((e) => statusView(shipment, e)),
      // PrintLabels carries no weight: GLS weighs the parcel in its depot
      Weight: null,
    };
  };

  // the answer's PickupRequestId is inferred: GLS's plugin stores it where present (class-gls-shipping-pickup-history.php)
  const createPickupRequest = (user: string, body: Record<string, unknown>) => {
    const check = checkPickupRequest(body, clock.now());
    if (!check.ok) return failed('CreatePickupRequest', check.errors);
    const booked = { ...check.pickup, PickupRequestId: Number(nextPickupRequestId()), owner: user, requestedAt: clock.now() };
    pickups.push(booked);
    return { PickupRequestErrors: [], PickupRequestId: booked.PickupRequestId };
  };

  const routes: FastifyPluginAsync = async (app) => {
    app.setErrorHandler((err: Error & { statusCode?: number }, _request, reply) => {
      const status = err.statusCode && err.statusCode < 500 ? 400 : 500;
      return reply.code(status).send({ ErrorCode: 1000, ErrorDescription: status === 400 ? 'The server encountered an error processing the request: the body is not valid JSON.' : 'Unexpected exception happened' });
    });
    app.setNotFoundHandler((_request, reply) => reply.code(404).type('text/html; charset=UTF-8').send('<p>Endpoint not found.</p>'));
    const service = '/ParcelService.svc/json';
    app.post(`${service}/PrintLabels`, method('PrintLabels', printLabels));
    app.post(`${service}/GetPrintedLabels`, method('GetPrintedLabels', printedLabels));
    app.post(`${service}/GetParcelList`, method('GetParcelList', parcelList));
    app.post(`${service}/DeleteLabels`, method('DeleteLabels', deleteLabels));
    app.post(`${service}/GetParcelStatuses`, method('GetParcelStatuses', parcelStatuses));
    app.post(`${service}/CreatePickupRequest`, method('CreatePickupRequest', createPickupRequest));
    await app.register(pointListRoutes(points));
  };

  /** Mounted under `/_emulator/gls`: the pickup requests GLS holds, as its depot sees them. */
  const control: FastifyPluginAsync = async (app) => {
    app.get('/pickups', async () => ({
      pickups: pickups.map((p) => ({
        pickupRequestId: p.PickupRequestId, username: p.owner, clientNumber: p.ClientNumber, count: p.Count,
        from: new Date(p.PickupTimeFrom).toISOString(), to: new Date(p.PickupTimeTo).toISOString(), address: p.Address,
        requestedAt: new Date(p.requestedAt).toISOString(),
      })),
    }));
  };

  return {
    code,
    routes,
    control,
    advance: (trackingNumber, to) => {
      const parcel = shipments.parcel(trackingNumber)?.shipment.request.parcel;
      const point = parcel?.Point;
      route = parcel?.PickAndReturn ? ROUTES.pickAndReturn : !point ? ROUTES.door : point.type === 'locker' ? ROUTES.locker : ROUTES.parcelshop;
      try {
        return shipments.advance(trackingNumber, to);
      } finally {
        route = ROUTES.door;
      }
    },
    shipments: () => shipments.records((s) => ({
      state: shipments.isCancelled(s) ? 'DELETED' : 'PRINTED',
      clientNumber: s.request.parcel.ClientNumber,
      parcelIds: s.request.parcelIds,
      typeOfPrinter: s.request.typeOfPrinter,
      cod: s.request.parcel.CODAmount > 0 ? { amount: s.request.parcel.CODAmount, currency: s.request.parcel.CODCurrency, reference: s.request.parcel.CODReference } : null,
      content: s.request.parcel.Content,
      pickupAddress: s.request.parcel.PickupAddress,
      deliveryAddress: s.request.parcel.DeliveryAddress,
      pickupPoint: s.request.parcel.Point,
      pickAndReturn: s.request.parcel.PickAndReturn,
    })),
    // the login travels in every body: there are no tokens to expire
    expireTokens: () => {},
    reset: () => {
      shipments.reset();
      byParcelId.clear();
      pickups.length = 0;
    },
    faultResponse: (status) => ({
      contentType: 'application/json; charset=utf-8',
      body: JSON.stringify({ ErrorCode: 1001, ErrorDescription: status === 429 ? 'Too many requests' : 'Internal Problem' }),
    }),
  };
}
