/**
 * DHL Express's MyDHL API as a local server, following the MyDHL OpenAPI 3.1.1 (github.com/karrioapi/karrio,
 * modules/connectors/mydhl/vendors/dpdhl-express-api-3.1.1_swagger.yaml): HTTP Basic on every call, synchronous
 * `POST /shipments` with per-piece labels and a declared shipment's commercial invoice (emulator-customs.ts),
 * `GET /tracking`, `GET /shipments/{awb}/tracking`, `GET /address-validate`, `POST /rates` and one-piece `GET /rates`
 * (emulator-rates.ts), `POST /pickups`
 * and `GET /servicepoints` (emulator-points.ts), whose Service Points a shipment's On Demand Delivery `servicepoint`
 * names. MyDHL has no shipment cancel.
 */
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { LabelFormat } from '../../domain/labels.js';
import { mergeLabels } from '../../labels/index.js';
import { basicCredentials, isBadCredential, requireCaller } from '../emulator/auth.js';
import type { EmulatorContext, ProviderEmulator } from '../emulator/contract.js';
import { renderLabel } from '../emulator/labels.js';
import { mod7CheckDigit, numberSequence } from '../emulator/numbers.js';
import { EmulatedShipments } from '../emulator/shipments.js';
import type { TrackingCode, TrackingCodeList } from '../codes.js';
import { DHL_COD_SERVICE, DHL_PAPERLESS_TRADE_SERVICE, DHL_TRACKING } from './codes.js';
import { renderCommercialInvoice, wantsInvoice } from './emulator-customs.js';
import { answerServicePoints, dhlPoints } from './emulator-points.js';
import { emulatedCharges, ratesAnswer, unpricedRatesAnswer } from './emulator-rates.js';
import { isKnownAccount, schemaValidator, UNKNOWN_ACCOUNT, validateRateRequest, validateShipmentRequest, type SeenShipmentRequest } from './emulator-validation.js';
import { dhlPickupDesk, type EmulatedPickup } from './emulator-pickups.js';
import { findTracked, readTrackingQuery, type DhlShipment } from './emulator-tracking.js';
import { eventView, labelContent, trackedShipmentView } from './emulator-views.js';
import { noSuchPlace } from '../emulator/no-such-place.js';

// Titles of the OpenAPI's examples; the 401 answer's wording is inferred (the OpenAPI documents none).
const TITLES: Record<number, [title: string, message: string]> = {
  400: ['Bad request', 'Bad request'], 401: ['Unauthorized', 'Unauthorized'], 404: ['Not data found', 'Not data found'],
  422: ['Validation error', 'Unprocessable Entity'], 429: ['Too many requests', 'Too Many Requests'], 500: ['Internal Server Error', 'Internal Server Error'],
};
// The query parameters GET /rates requires (MyDHL OpenAPI 3.1.1).
const RATES_PARAMETERS = [
  'accountNumber', 'originCountryCode', 'originCityName', 'destinationCountryCode', 'destinationCityName', 'weight', 'length', 'width', 'height',
  'plannedShippingDate', 'isCustomsDeclarable', 'unitOfMeasurement',
] as const;
// encodingFormat → the format the emulator renders; lp2, an EPL dialect, prints as EPL.
const LABEL_FORMATS: Record<string, LabelFormat> = { pdf: 'pdf', zpl: 'zpl', epl: 'epl', lp2: 'epl' };
const IMAGE_FORMATS: Record<LabelFormat, string> = { pdf: 'PDF', zpl: 'ZPL', epl: 'EPL2' };
/** A Service Point shipment's moves: from the delivery facility to the point (CC, awaiting collection), then collected (OK). */
const POINT_ROUTE: Readonly<Record<string, TrackingCode>> = { ...DHL_TRACKING.codes, AR: { ...DHL_TRACKING.codes.AR!, next: ['CC'] } };

export function createDhlEmulator({ code, clock }: EmulatorContext): ProviderEmulator {
  schemaValidator(); // before the first request, which a caller's timeout would otherwise measure
  const points = dhlPoints();
  // the shipments' store walks one code table: an advance of a Service Point shipment walks the point's route
  let route: Readonly<Record<string, TrackingCode>> = DHL_TRACKING.codes;
  const tracking: TrackingCodeList = { created: DHL_TRACKING.created, get codes() { return route; } };
  const shipments = new EmulatedShipments<SeenShipmentRequest>(clock, tracking, (e) => eventView(e));
  const nextWaybill = numberSequence(clock, { prefix: '5', digits: 10, checkDigit: mod7CheckDigit });
  const nextPiece = numberSequence(clock, { prefix: 'JD0146', digits: 20 });
  const pickups = dhlPickupDesk(clock, shipments);
  const instanceOf = (request: FastifyRequest) => `/expressapi${request.url.slice(code.length + 1)}`;
  const baseUrl = (request: FastifyRequest) => `${request.protocol}://${request.host}/${code}`;
  const problem = (request: FastifyRequest, reply: FastifyReply, status: number, messages: readonly string[]) =>
    reply.code(status).type('application/problem+json').send(problemBody(status, messages, instanceOf(request)));
  const label = (s: DhlShipment, index: number) => shipments.label(s.parcels[index]!, () => renderLabel(s.labelFormat, labelContent(s, s.parcels[index]!)));

  const routes: FastifyPluginAsync = async (app) => {
    app.setErrorHandler((err: Error & { statusCode?: number }, request, reply) =>
      err.statusCode && err.statusCode < 500 ? problem(request, reply, 400, [err.message]) : problem(request, reply, 500, ['999: Process failure occurred.']));
    app.setNotFoundHandler((request, reply) => problem(request, reply, 404, [`No resource at ${instanceOf(request)}`]));

    // HTTP Basic with the MyDHL API key and secret on every operation.
    const callerOf = requireCaller(app, (request, reply) => {
      const basic = basicCredentials(request.headers.authorization);
      if (basic && !isBadCredential(basic.user, basic.password)) return basic.user;
      reply.header('WWW-Authenticate', 'Basic realm="MyDHL API"');
      void problem(request, reply, 401, [basic ? 'Invalid credentials' : 'Credentials are required']);
      return undefined;
    });

    app.get<{ Querystring: Record<string, string | undefined> }>('/address-validate', async (request, reply) => {
      const { type, countryCode, postalCode = '', cityName = '' } = request.query;
      const missing = [type ? '' : 'type', countryCode ? '' : 'countryCode'].filter(Boolean);
      if (missing.length > 0) return problem(request, reply, 400, [`Missing mandatory parameters: ${missing.join(', ')}`]);
      if (type !== 'pickup' && type !== 'delivery') return problem(request, reply, 400, ['Parameters not having correct format: type (valid parameters for type are [pickup, delivery])']);
      if (noSuchPlace(postalCode)) return { warnings: [`No pickup or delivery capability found for postalCode ${postalCode}`], address: [] };
      return { address: [{ countryCode, postalCode, cityName: cityName.toUpperCase(), serviceArea: { code: cityName.toUpperCase().slice(0, 3) || 'XXX', GMTOffset: '+00:00' } }] };
    });

    // One-piece rates: the channel's account must be one DHL knows; the answer lists the products without prices.
    app.get<{ Querystring: Record<string, string | undefined> }>('/rates', async (request, reply) => {
      const missing = RATES_PARAMETERS.filter((name) => !request.query[name]);
      if (missing.length > 0) return problem(request, reply, 400, [`Missing mandatory parameters: ${missing.join(', ')}`]);
      const query = request.query as Record<(typeof RATES_PARAMETERS)[number], string>;
      if (!isKnownAccount(query.accountNumber)) return problem(request, reply, 400, [UNKNOWN_ACCOUNT]);
      return unpricedRatesAnswer(query);
    });

    // Multi-piece rates: the account's prices by the emulator's tariff, the same as a creation's shipmentCharges.
    app.post('/rates', async (request, reply) => {
      const verdict = validateRateRequest(request.body);
      return verdict.ok ? ratesAnswer(verdict.request) : problem(request, reply, verdict.status, verdict.messages);
    });

    app.post('/shipments', async (request, reply) => {
      const verdict = validateShipmentRequest(request.body, (id) => points.get(id));
      if (!verdict.ok) return problem(request, reply, verdict.status, verdict.messages);
      const r = verdict.request;
      const format = LABEL_FORMATS[r.outputImageProperties?.encodingFormat ?? 'pdf']!;
      const awb = nextWaybill();
      const s = shipments.add({
        owner: callerOf(request), id: awb, referenceId: r.customerReferences?.find((c) => (c.typeCode ?? 'CU') === 'CU')?.value ?? '', product: r.productCode,
        labelFormat: format, request: r, numbers: r.content.packages.map(() => nextPiece()),
      });
      const base = baseUrl(request);
      const byPiece = r.getAdditionalInformation?.some((i) => i.typeCode === 'linkLabelsByPieces' && i.isRequested) ?? false;
      const labels = await Promise.all(s.parcels.map((_, i) => label(s, i)));
      const referenceOf = (i: number) => r.content.packages[i]?.referenceNumber ?? i + 1;
      const documents: { imageFormat: string; content: string; typeCode: string; packageReferenceNumber?: number }[] = byPiece
        ? labels.map((bytes, i) => ({ imageFormat: IMAGE_FORMATS[format], content: bytes.toString('base64'), typeCode: 'label', packageReferenceNumber: referenceOf(i) }))
        : [{ imageFormat: IMAGE_FORMATS[format], content: (await mergeLabels(format, labels)).content.toString('base64'), typeCode: 'label' }];
      if (r.outputImageProperties?.imageOptions?.some((o) => o.typeCode === 'waybillDoc' && o.isRequested)) {
        const waybill = await renderLabel('pdf', { ...labelContent(s, s.parcels[0]!), trackingNumber: awb, parcelIndex: 1, parcelCount: 1 });
        documents.push({ imageFormat: 'PDF', content: waybill.toString('base64'), typeCode: 'waybillDoc' });
      }
      // "invoice and shipment receipt will always come back as PDF"
      if (wantsInvoice(r)) documents.push({ imageFormat: 'PDF', content: (await renderCommercialInvoice(s)).toString('base64'), typeCode: 'invoice' });
      return reply.code(201).header('Location', `/shipments/${awb}`).send({
        ...(r.getRateEstimates ? { shipmentCharges: emulatedCharges(r) } : {}),
        shipmentTrackingNumber: awb,
        trackingUrl: `${base}/shipments/${awb}/tracking`,
        packages: s.parcels.map((p, i) => ({
          referenceNumber: referenceOf(i), trackingNumber: p.number, trackingUrl: `${base}/shipments/${awb}/tracking?pieceTrackingNumber=${p.number}`,
        })),
        documents,
      });
    });

    app.get<{ Querystring: Record<string, string | string[] | undefined> }>('/servicepoints', async (request, reply) => answerServicePoints(points, request.query, reply));

    app.post('/pickups', async (request, reply) => {
      const answer = pickups.book(callerOf(request), request.body);
      return answer.ok ? reply.code(201).send(answer.body) : problem(request, reply, answer.status, answer.messages);
    });

    app.get<{ Querystring: Record<string, string | string[] | undefined> }>('/tracking', async (request, reply) => {
      const query = readTrackingQuery(request.query);
      if (!query.ok) return problem(request, reply, 400, [query.message]);
      const found = findTracked(shipments, callerOf(request), query);
      if (found.length === 0) {
        return problem(request, reply, 404, [query.shipmentReference ? `No Shipments Found for ReferenceID | ${query.shipmentReference}` : 'No data found']);
      }
      return { shipments: found.map(({ shipment, pieces }) => trackedShipmentView(shipment, pieces, query.levelOfDetail, query.trackingView)) };
    });

    app.get<{ Params: { awb: string }; Querystring: Record<string, string | string[] | undefined> }>('/shipments/:awb/tracking', async (request, reply) => {
      const query = readTrackingQuery({ ...request.query, shipmentTrackingNumber: request.params.awb });
      if (!query.ok) return problem(request, reply, 400, [query.message]);
      const found = findTracked(shipments, callerOf(request), query);
      if (found.length === 0) return problem(request, reply, 404, ['No data found']);
      return { shipments: found.map(({ shipment, pieces }) => trackedShipmentView(shipment, pieces, query.levelOfDetail, query.trackingView)) };
    });
  };

  return {
    code,
    routes,
    advance: (trackingNumber, to) => {
      route = shipments.parcel(trackingNumber)?.shipment.request.onDemandDelivery?.deliveryOption === 'servicepoint' ? POINT_ROUTE : DHL_TRACKING.codes;
      try {
        return shipments.advance(trackingNumber, to);
      } finally {
        route = DHL_TRACKING.codes;
      }
    },
    shipments: () => shipments.records((s) => ({
      shipmentTrackingNumber: s.id,
      apiKey: s.owner,
      accountNumber: s.request.accounts.find((a) => a.typeCode === 'shipper')?.number ?? null,
      // the account billed when it is not the shipper's (a return's warehouse)
      payerAccountNumber: s.request.accounts.find((a) => a.typeCode === 'payer')?.number ?? null,
      productCode: s.product,
      // MyDHL cannot cancel: a waybill stays created until DHL scans it.
      state: 'Created',
      cashOnDelivery: s.request.valueAddedServices?.find((v) => v.serviceCode === DHL_COD_SERVICE) ?? null,
      customsDeclarable: s.request.content.isCustomsDeclarable,
      paperlessTrade: s.request.valueAddedServices?.some((v) => v.serviceCode === DHL_PAPERLESS_TRADE_SERVICE) ?? false,
      servicePointId: s.request.onDemandDelivery?.servicePointId ?? null,
      customerReferences: s.request.customerReferences ?? [],
      encodingFormat: s.request.outputImageProperties?.encodingFormat ?? 'pdf',
      pieces: s.parcels.map((p) => ({ trackingNumber: p.number, weight: s.request.content.packages[p.index - 1]?.weight ?? null, lastTypeCode: shipments.lastCode(p) })),
      pickup: pickupRecord(pickups.pickupOf(s.id)),
    })),
    // Basic auth has no tokens to expire.
    expireTokens: () => {},
    reset: () => {
      shipments.reset();
      pickups.reset();
    },
    faultResponse: (status, path) => ({
      contentType: 'application/problem+json',
      body: JSON.stringify(problemBody(status, [status === 429 ? 'Too many requests, please retry later' : '999: Process failure occurred.'], `/expressapi${path}`)),
    }),
  };
}

/** MyDHL's error answer (supermodelIoLogisticsExpressErrorResponse): several messages go to `additionalDetails`. */
function problemBody(status: number, messages: readonly string[], instance: string): Record<string, unknown> {
  const [title, message] = TITLES[status] ?? ['Error', 'Error'];
  const detail = messages.length === 1 ? messages[0] : 'Multiple problems found, see Additional Details';
  return { instance, detail, title, message, ...(messages.length > 1 ? { additionalDetails: messages } : {}), status: String(status) };
}

/** A pickup as the emulator's shipment records show it. */
function pickupRecord(p: EmulatedPickup | undefined): Record<string, string> | null {
  return p ? { dispatchConfirmationNumber: p.dispatchConfirmationNumber, date: p.date, readyTime: p.readyTime, closeTime: p.closeTime } : null;
}
