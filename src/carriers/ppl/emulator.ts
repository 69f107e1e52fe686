/**
 * PPL CZ's CPL API ("MyAPI2") as a local server, following https://ppl-cpl-api-en.apidog.io: OAuth2 client
 * credentials, asynchronous shipment batches, per-parcel and whole-batch labels, cancel, tracking and access points.
 */
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { ANONYMOUS, bearerToken, basicCredentials, isBadCredential, requireCaller } from '../emulator/auth.js';
import type { EmulatorContext, ProviderEmulator } from '../emulator/contract.js';
import { PPL_PRODUCTS, PPL_TRACKING } from './codes.js';
import type { LabelFormat } from '../../domain/labels.js';
import type { EmulatedParcel } from '../emulator/shipments.js';
import { eventView, parcelState, PplEmulatorState, TOKEN_LIFETIME_SECONDS, type ParcelInShipment, type PplBatch } from './emulator-state.js';
import { accessPointRefusals, accessPointView, PPL_ACCESS_POINT_TYPE_NAMES, PplAccessPoints, type PplAccessPointType } from './emulator-points.js';
import { validateBatchRequest, validateOrderBatch, type FieldErrors, type PplOrder } from './emulator-validation.js';
import { randomUUID } from 'node:crypto';

interface PlacedOrder extends PplOrder {
  clientId: string;
  batchId: string;
  orderNumber: string;
  orderState: 'Ordered' | 'Canceled';
  statusReads: number;
}

/** Today in Prague, where PPL's send dates are. */
const localDay = (now: number) => new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Prague' }).format(new Date(now));

// PPL's example shows title "BadRequest"; the other titles follow the same status-name pattern (inferred, https://ppl-cpl-api-en.apidog.io).
const PROBLEM_TITLES: Record<number, string> = {
  400: 'BadRequest', 401: 'Unauthorized', 404: 'NotFound', 429: 'TooManyRequests', 500: 'InternalServerError',
};
const MAX_TRACKED_NUMBERS = 100;
const COMPLETE_LABEL_PAGE = 200;
const PAGE_SIZES = ['default', 'a4', 'a6'];
// Public tracking page for a parcel (inferred, https://ppl-cpl-api-en.apidog.io).
const PARTNER_URL = 'https://www.ppl.cz/vyhledat-zasilku?shipmentId=';

export function createPplEmulator({ code, clock }: EmulatorContext): ProviderEmulator {
  const state = new PplEmulatorState(clock);
  const accessPoints = new PplAccessPoints();
  const orders: PlacedOrder[] = [];
  let lastOrderNumber = 40_000_000;
  const pathOf = (request: FastifyRequest) => request.url.split('?')[0]!.slice(code.length + 1) || '/';
  const baseUrl = (request: FastifyRequest) => `${request.protocol}://${request.host}/${code}`;
  const problem = (request: FastifyRequest, reply: FastifyReply, status: number, detail: string, errors?: FieldErrors) =>
    reply.code(status).type('application/problem+json').send(problemBody(status, detail, pathOf(request), errors));

  const routes: FastifyPluginAsync = async (app) => {
    app.setErrorHandler((err: Error & { statusCode?: number }, request, reply) => {
      if (err.statusCode && err.statusCode < 500) return problem(request, reply, 400, 'Please refer to the errors property for additional details.', { $: [err.message] });
      return problem(request, reply, 500, 'An unexpected error occurred.');
    });
    app.setNotFoundHandler((request, reply) => problem(request, reply, 404, `No resource at ${pathOf(request)}.`));

    // Every call but the token request and /info needs a live bearer token.
    const clientOf = requireCaller(app, (request, reply) => {
      const token = bearerToken(request.headers.authorization);
      const clientId = token ? state.tokens.ownerOf(token) : undefined;
      if (clientId) return clientId;
      reply.header('WWW-Authenticate', token ? 'Bearer error="invalid_token"' : 'Bearer');
      void problem(request, reply, 401, token ? 'The access token is invalid or has expired.' : 'An access token is required.');
      return undefined;
    });

    app.post('/login/getAccessToken', ANONYMOUS, async (request, reply) => {
      const form = request.body;
      if (!String(request.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded') || !isStringRecord(form)) {
        return reply.code(400).send({ error: 'invalid_request', error_description: 'Send the token request as application/x-www-form-urlencoded.' });
      }
      const basic = basicCredentials(request.headers.authorization);
      const clientId = form.client_id ?? basic?.user;
      const clientSecret = form.client_secret ?? basic?.password;
      if (form.grant_type !== 'client_credentials') {
        return reply.code(400).send({ error: 'unsupported_grant_type', error_description: 'Only grant_type=client_credentials is supported.' });
      }
      if (!clientId || !clientSecret) return reply.code(400).send({ error: 'invalid_request', error_description: 'client_id and client_secret are required.' });
      const verdict = state.tokens.countRequest(clientId);
      // The 12-per-minute limit is documented; its 429 body shape is inferred (https://ppl-cpl-api-en.apidog.io).
      if (!verdict.allowed) {
        reply.header('Retry-After', String(verdict.retryAfterSeconds));
        return problem(request, reply, 429, 'At most 12 token requests per minute are allowed; cache the access token (it lives 30 minutes).');
      }
      if (isBadCredential(clientId, clientSecret)) {
        return reply.code(401).send({ error: 'invalid_client', error_description: 'Client authentication failed: unknown client_id or wrong client_secret.' });
      }
      reply.header('Cache-Control', 'no-store');
      return { access_token: state.tokens.issue(clientId), token_type: 'Bearer', expires_in: TOKEN_LIFETIME_SECONDS, scope: form.scope || 'myapi2' };
    });

    // Shape inferred (https://ppl-cpl-api-en.apidog.io): the API answers /info without a token.
    app.get('/info', ANONYMOUS, async () => ({ version: 'myapi2 (packdesk emulator)', currentTime: new Date(clock.now()).toISOString() }));

    app.get('/codelist/product', async (request, reply) => {
      const page = paging(request.query, 1000);
      if (page.errors) return problem(request, reply, 400, 'Please refer to the errors property for additional details.', page.errors);
      return Object.entries(PPL_PRODUCTS).map(([productCode, p]) => ({ code: productCode, name: p.name })).slice(page.offset, page.offset + page.limit);
    });
    app.get('/codelist/status', async () => Object.entries(PPL_TRACKING.codes).map(([id, s]) => ({ code: id, name: s.name })));
    app.get('/codelist/shipmentPhase', async () => [...new Set(Object.values(PPL_TRACKING.codes).map((s) => s.phase))].map((phase) => ({ code: phase, name: phase })));

    app.post('/shipment/batch', async (request, reply) => {
      const result = validateBatchRequest(request.body);
      if (!result.ok) return problem(request, reply, 400, 'Please refer to the errors property for additional details.', result.errors);
      const pointErrors = accessPointRefusals(result.batch.shipments, accessPoints);
      if (Object.keys(pointErrors).length > 0) return problem(request, reply, 400, 'Please refer to the errors property for additional details.', pointErrors);
      const batch = state.createBatch(clientOf(request), result.batch);
      return reply.code(201).header('Location', `${baseUrl(request)}/shipment/batch/${batch.id}`).send();
    });

    app.get<{ Params: { batchId: string } }>('/shipment/batch/:batchId', async (request, reply) => {
      const batch = state.readBatchStatus(clientOf(request), request.params.batchId);
      if (!batch) return problem(request, reply, 404, `Batch ${request.params.batchId} was not found.`);
      return batchView(state, batch, baseUrl(request));
    });

    app.get<{ Params: { batchId: string } }>('/shipment/batch/:batchId/label', async (request, reply) => {
      const batch = state.batch(clientOf(request), request.params.batchId);
      if (!batch) return problem(request, reply, 404, `Batch ${request.params.batchId} was not found.`);
      const page = paging(request.query, COMPLETE_LABEL_PAGE);
      const pageSize = queryValues(request.query, 'pagesize')[0] ?? 'Default';
      // Every page size prints 10×15 cm labels here; A4 sheets of four are not emulated.
      if (!PAGE_SIZES.includes(pageSize.toLowerCase())) page.errors = { ...page.errors, PageSize: [`Unknown page size ${pageSize}.`] };
      if (page.errors) return problem(request, reply, 400, 'Please refer to the errors property for additional details.', page.errors);
      return sendLabel(reply, batch.labelFormat === 'Zpl' ? 'zpl' : 'pdf', await state.completeLabel(batch, page.offset, page.limit));
    });

    app.get<{ Params: { guid: string } }>('/data/:guid', async (request, reply) => {
      const found = state.parcelByLabelGuid(clientOf(request), request.params.guid);
      if (!found) return problem(request, reply, 404, `Label ${request.params.guid} was not found.`);
      return sendLabel(reply, found.shipment.labelFormat, await state.label(found));
    });

    app.post<{ Params: { shipmentNumber: string } }>('/shipment/:shipmentNumber/cancel', async (request, reply) => {
      const found = state.shipments.parcel(request.params.shipmentNumber, clientOf(request));
      const outcome = found ? state.shipments.cancel(found.shipment) : 'unknown';
      if (outcome === 'unknown') return problem(request, reply, 404, `Shipment ${request.params.shipmentNumber} was not found.`);
      if (outcome === 'not_cancellable') return problem(request, reply, 400, 'Shipment cannot be cancelled', { ShipmentNumber: ['Shipment cannot be cancelled'] });
      return reply.code(202).send({});
    });

    // Orders (create-an-order-13601481e0, get-order-status-13601482e0, order-tracking-13601480e0): a courier for a parcel count.
    app.post('/order/batch', async (request, reply) => {
      const checked = validateOrderBatch(request.body, localDay(clock.now()));
      const clientId = clientOf(request);
      const errors: FieldErrors = checked.ok ? {} : checked.errors;
      if (checked.ok) {
        checked.orders.forEach((o, i) => {
          // a second order under the same reference is refused (inferred: the reference is how PPL's order list finds it)
          if (orders.some((placed) => placed.clientId === clientId && placed.referenceId === o.referenceId && placed.orderState !== 'Canceled')) {
            errors[`Orders[${i}].ReferenceId`] = [`An order with reference ${o.referenceId} already exists.`];
          }
        });
      }
      if (!checked.ok || Object.keys(errors).length > 0) return problem(request, reply, 400, 'Please refer to the errors property for additional details.', errors);
      const batchId = randomUUID();
      for (const o of checked.orders) {
        orders.push({ ...o, clientId, batchId, orderNumber: String(++lastOrderNumber), orderState: 'Ordered', statusReads: 0 });
      }
      return reply.code(201).header('Location', `${baseUrl(request)}/order/batch/${batchId}`).send();
    });

    app.get<{ Params: { batchId: string } }>('/order/batch/:batchId', async (request, reply) => {
      const clientId = clientOf(request);
      const mine = orders.filter((o) => o.clientId === clientId && o.batchId === request.params.batchId);
      if (mine.length === 0) return problem(request, reply, 404, `Batch ${request.params.batchId} was not found.`);
      // the first read still sees the import in process, as with shipment batches
      return { items: mine.map((o) => ({ referenceId: o.referenceId, importState: o.statusReads++ === 0 ? 'InProcess' : 'Complete' })) };
    });

    app.get('/order', async (request, reply) => {
      const page = paging(request.query, 1000);
      if (page.errors) return problem(request, reply, 400, 'Please refer to the errors property for additional details.', page.errors);
      const clientId = clientOf(request);
      const references = queryValues(request.query, 'orderreferences');
      const found = orders.filter((o) => o.clientId === clientId && (references.length === 0 || references.includes(o.referenceId)));
      return found.slice(page.offset, page.offset + page.limit).map((o) => ({
        orderNumber: o.orderNumber, referenceId: o.referenceId, orderType: o.orderType, orderState: o.orderState,
        shipmentCount: o.shipmentCount, sendDate: o.sendDate, sendTimeFrom: o.sendTimeFrom, sendTimeTo: o.sendTimeTo,
      }));
    });

    // list-of-access-points-13601458e0: Limit and Offset are required, AccessPointTypes repeats, Radius is in km
    app.get('/accessPoint', async (request, reply) => {
      const page = paging(request.query, 'required');
      const errors: FieldErrors = { ...page.errors };
      const types = queryValues(request.query, 'accesspointtypes');
      for (const t of types) if (!PPL_ACCESS_POINT_TYPE_NAMES.includes(t as PplAccessPointType)) (errors.AccessPointTypes ??= []).push(`The value '${t}' is not valid.`);
      const number = (name: string) => {
        const raw = queryValues(request.query, name.toLowerCase())[0];
        if (raw === undefined) return undefined;
        if (raw.trim() !== '' && Number.isFinite(Number(raw))) return Number(raw);
        errors[name] = [`The value '${raw}' is not valid.`];
        return undefined;
      };
      const lat = number('Latitude');
      const lon = number('Longitude');
      const radiusKm = number('Radius');
      if ((lat === undefined) !== (lon === undefined) && !errors.Latitude && !errors.Longitude) errors.Latitude = ['Latitude and Longitude go together.'];
      if (Object.keys(errors).length > 0) return problem(request, reply, 400, 'Please refer to the errors property for additional details.', errors);
      const first = (name: string) => queryValues(request.query, name)[0];
      const found = accessPoints.list({
        code: first('accesspointcode'), countryCode: first('countrycode'), types: types as PplAccessPointType[],
        zipCode: first('zipcode'), city: first('city'),
        ...(lat !== undefined && lon !== undefined ? { near: { lat, lon, ...(radiusKm !== undefined ? { radiusKm } : {}) } } : {}),
      });
      reply.header('X-Paging-Total-Items-Count', String(found.length)).header('X-Paging-Offset', String(page.offset)).header('X-Paging-Limit', String(page.limit));
      return found.slice(page.offset, page.offset + page.limit).map(accessPointView);
    });

    app.get('/shipment', async (request, reply) => {
      const numbers = queryValues(request.query, 'shipmentnumbers');
      const references = queryValues(request.query, 'customerreferences');
      const page = paging(request.query, 1000);
      if (numbers.length > MAX_TRACKED_NUMBERS) page.errors = { ...page.errors, ShipmentNumbers: [`At most ${MAX_TRACKED_NUMBERS} shipment numbers can be asked for at once.`] };
      if (page.errors) return problem(request, reply, 400, 'Please refer to the errors property for additional details.', page.errors);
      const clientId = clientOf(request);
      const found = [
        ...numbers.map((n) => state.shipments.parcel(n, clientId)).filter((p): p is ParcelInShipment => p !== undefined),
        ...references.flatMap((r) => state.parcelsByCustomerReference(clientId, r)),
      ];
      const unique = [...new Map(found.map((p) => [p.parcel.number, p])).values()];
      return unique.slice(page.offset, page.offset + page.limit).map((p) => trackingView(state, p));
    });
  };

  return {
    code,
    routes,
    advance: (trackingNumber, to) => state.advance(trackingNumber, to),
    shipments: () => state.shipments.records((s) => ({
      batchId: s.request.batchId,
      clientId: s.owner,
      productType: s.product,
      state: state.shipments.isCancelled(s) ? 'Canceled' : 'Active',
      cashOnDelivery: s.request.cashOnDelivery,
      sender: s.request.sender,
      recipient: s.request.recipient,
      externalNumbers: s.request.externalNumbers,
      note: s.request.note ?? null,
      parcelShopCode: s.request.parcelShopCode ?? null,
      labelFormat: s.labelFormat === 'zpl' ? 'Zpl' : 'Pdf',
      parcels: s.parcels.map((p) => ({
        shipmentNumber: p.number, weight: s.request.parcelWeights[p.index - 1] ?? null, shipmentState: parcelState(state, p), lastStatusId: Number(state.shipments.lastCode(p)),
      })),
    })),
    expireTokens: () => state.tokens.expireAll(),
    reset: () => {
      state.reset();
      orders.length = 0;
    },
    faultResponse: (status, path) => ({
      contentType: 'application/problem+json',
      body: JSON.stringify(problemBody(status, status === 429 ? 'Too many requests.' : 'An unexpected error occurred.', path)),
    }),
  };
}

/** RFC 7807 problem details in the shape PPL's ASP.NET service answers with. */
function problemBody(status: number, detail: string, instance: string, errors?: FieldErrors): Record<string, unknown> {
  return { type: 'https://asp.net/core', title: PROBLEM_TITLES[status] ?? 'Error', status, detail, instance, ...(errors ? { errors } : {}) };
}

/** Numbers are only visible once the import is Complete (the first status read still sees InProcess); the whole-batch label only when asked for. */
function batchView(state: PplEmulatorState, batch: PplBatch, base: string): Record<string, unknown> {
  if (batch.statusReads <= 1) {
    return { items: batch.shipments.map((s) => ({ referenceId: s.referenceId, importState: 'InProcess', relatedItems: [] })) };
  }
  const labelUrl = (parcel: EmulatedParcel) => `${base}/data/${state.labelGuidOf(parcel)}`;
  const parcelCount = batch.shipments.reduce((sum, s) => sum + s.parcels.length, 0);
  const pages = Math.max(1, Math.ceil(parcelCount / COMPLETE_LABEL_PAGE));
  return {
    items: batch.shipments.map((s) => ({
      referenceId: s.referenceId,
      shipmentNumber: s.parcels[0]!.number,
      labelUrl: labelUrl(s.parcels[0]!),
      importState: 'Complete',
      relatedItems: s.parcels.slice(1).map((p) => ({ shipmentNumber: p.number, labelUrl: labelUrl(p) })),
    })),
    ...(batch.completeLabelRequested ? {
      completeLabel: {
        labelUrls: Array.from({ length: pages }, (_, i) =>
          `${base}/shipment/batch/${batch.id}/label?pageSize=Default&position=1&limit=${COMPLETE_LABEL_PAGE}&offset=${i * COMPLETE_LABEL_PAGE}`),
      },
    } : {}),
  };
}

function trackingView(state: PplEmulatorState, { shipment, parcel }: ParcelInShipment): Record<string, unknown> {
  const events = parcel.events.map(eventView);
  const last = events[events.length - 1]!;
  const weight = shipment.request.parcelWeights[parcel.index - 1];
  return {
    shipmentNumber: parcel.number,
    productType: shipment.product,
    lastUpdateDate: last.eventDate,
    shipmentState: parcelState(state, parcel),
    shipmentSet: { masterShipmentNumber: shipment.parcels[0]!.number, shipmentsInSet: shipment.parcels.length, shipmentInSetNumber: parcel.index },
    trackAndTrace: {
      lastEventCode: last.code, lastEventDate: last.eventDate, lastEventName: last.name,
      partnerUrl: `${PARTNER_URL}${parcel.number}`, events,
    },
    ...(weight !== undefined ? { shipmentWeightInfo: { weight } } : {}),
  };
}

/** Label bytes as downloaded from `labelUrl`; the ZPL media type is inferred (https://ppl-cpl-api-en.apidog.io). */
function sendLabel(reply: FastifyReply, format: LabelFormat, bytes: Buffer): FastifyReply {
  return reply.type(format === 'zpl' ? 'application/zpl' : 'application/pdf').send(bytes);
}

/** Query values by case-insensitive name (ASP.NET binds query parameters regardless of case). */
function queryValues(query: unknown, lowerCaseName: string): string[] {
  const values = Object.entries((query ?? {}) as Record<string, unknown>)
    .filter(([key]) => key.toLowerCase() === lowerCaseName)
    .flatMap(([, value]) => (Array.isArray(value) ? value : [value]));
  return values.filter((v): v is string => typeof v === 'string' && v !== '');
}

/** Limit and Offset as the CPL API binds them; `required` (GET /accessPoint) has no defaults and a Limit of at most 1000. */
function paging(query: unknown, defaultLimit: number | 'required'): { limit: number; offset: number; errors?: FieldErrors } {
  const errors: FieldErrors = {};
  const required = defaultLimit === 'required';
  const read = (name: 'Limit' | 'Offset', fallback: number, min: number, max: number) => {
    const raw = queryValues(query, name.toLowerCase())[0];
    if (raw === undefined) {
      if (required) errors[name] = [`The ${name} field is required.`];
      return fallback;
    }
    const n = Number(raw);
    if (Number.isInteger(n) && n >= min && n <= max) return n;
    errors[name] = [`The value '${raw}' is not valid for ${name}.`];
    return fallback;
  };
  const page = { limit: read('Limit', required ? 1 : defaultLimit, 1, required ? 1000 : Infinity), offset: read('Offset', 0, 0, Infinity) };
  return Object.keys(errors).length > 0 ? { ...page, errors } : page;
}

function isStringRecord(value: unknown): value is Record<string, string | undefined> {
  return typeof value === 'object' && value !== null && Object.values(value).every((v) => typeof v === 'string');
}
