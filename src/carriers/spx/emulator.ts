/**
 * SP Express's REST API as a local server, following sp-express/php-sdk: HTTP Basic (login + API key), JSON POSTs
 * under /V1, the `{result, response}` / `{result: "FAIL", error}` envelope, courier orders with base64 PDF labels,
 * cancel and tracking by package id.
 */
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { basicCredentials, isBadCredential, requireCaller } from '../emulator/auth.js';
import type { EmulatorContext, ProviderEmulator } from '../emulator/contract.js';
import { renderLabel, type EmulatedLabel } from '../emulator/labels.js';
import { numberSequence } from '../emulator/numbers.js';
import { EmulatedShipments, type EmulatedEvent, type EmulatedParcel, type EmulatedShipment } from '../emulator/shipments.js';
import { SPX_TRACKING, type SpxProductCode } from './codes.js';
import { checkOrder, type SpxEmulatedAddress, type SpxEmulatedOrder, type SpxRefusal } from './emulator-validation.js';
import { warsawTime } from '../local-time.js';

/** Our cap on ids per tracking call (SP Express refuses too many with 3002 without publishing the figure). */
const MAX_TRACKED_IDS = 50;

type SpxShipment = EmulatedShipment<SpxEmulatedOrder & { externalIds: string[] }>;

/**
 * HTTP-level failures carry `status` and `message` (sp-express/php-sdk ApiRequest::parseResponse); `name` and `code`
 * complete Yii's REST error format, which that shape matches.
 */
function httpError(status: number, name: string, message: string): Record<string, unknown> {
  return { name, message, code: 0, status };
}

function fail(reply: FastifyReply, error: SpxRefusal): FastifyReply {
  return reply.code(400).send({ result: 'FAIL', error: { ...error, details: Object.keys(error.details).length > 0 ? error.details : null } });
}

function idList(value: unknown): string[] | undefined {
  return Array.isArray(value) && value.every((v) => typeof v === 'string' || typeof v === 'number') ? value.map(String) : undefined;
}

export function createSpxEmulator({ code, clock }: EmulatorContext): ProviderEmulator {
  const eventView = (event: EmulatedEvent) => ({ date: warsawTime.format(event.at, ' '), id: event.code, location: null });
  const shipments = new EmulatedShipments<SpxShipment['request']>(clock, SPX_TRACKING, eventView);
  const nextPackageId = numberSequence(clock, { prefix: '48', digits: 15 });
  const nextExternalId = numberSequence(clock, { prefix: '9', digits: 14 });
  const operatorOf = (s: SpxShipment) => s.request.operator ?? 'SPX';

  const label = (s: SpxShipment, parcel: EmulatedParcel) => shipments.label(parcel, () => renderLabel('pdf', labelContent(s, parcel)));

  const routes: FastifyPluginAsync = async (app) => {
    app.setErrorHandler((err: Error & { statusCode?: number }, _request, reply) => {
      if (err.statusCode && err.statusCode < 500) {
        const message = err.message.startsWith('invalid JSON') ? 'Invalid JSON data in request body: Syntax error.' : err.message;
        return reply.code(400).send(httpError(400, 'Bad Request', message));
      }
      return reply.code(500).send(httpError(500, 'Internal Server Error', 'An internal server error occurred.'));
    });
    app.setNotFoundHandler((_request, reply) => reply.code(404).send(httpError(404, 'Not Found', 'Page not found.')));

    const loginOf = requireCaller(app, (request, reply) => {
      const basic = basicCredentials(request.headers.authorization);
      if (basic && basic.user && basic.password && !isBadCredential(basic.user, basic.password)) return basic.user;
      void reply.code(401).header('WWW-Authenticate', 'Basic realm="api"').send(httpError(401, 'Unauthorized', 'Your request was made with invalid credentials.'));
      return undefined;
    });

    const create = (product: SpxProductCode) => async (request: FastifyRequest, reply: FastifyReply) => {
      const check = checkOrder(request.body, product);
      if (!check.ok) return fail(reply, check.error);
      const { order } = check;
      const numbers = Array.from({ length: order.number }, () => nextPackageId());
      const shipment = shipments.add({
        owner: loginOf(request), referenceId: order.package.note2 ?? order.package.ref ?? '', product, labelFormat: 'pdf',
        request: { ...order, externalIds: numbers.map(() => nextExternalId()) }, numbers,
      });
      const packages = await Promise.all(shipment.parcels.map(async (parcel, i) => ({
        package_id: parcel.number, result: 'OK', log: '', labels_no: 1,
        labels: [(await label(shipment, parcel)).toString('base64')], labels_file_ext: 'pdf',
        external_id: shipment.request.externalIds[i], return: null, operator_name: operatorOf(shipment), operator_url: null,
      })));
      return { result: 'OK', response: { number: packages.length, packages } };
    };
    app.post('/V1/courier/create-pre-routing', create('pre-routing'));
    app.post('/V1/courier/create-non-routing', create('non-routing'));

    app.post('/V1/courier/cancel', async (request, reply) => {
      const ids = idList((request.body as { id?: unknown } | undefined)?.id);
      if (!ids?.length) return fail(reply, { error_code: 3000, desc: 'Incorrect ids format provided. Array of items expected', details: {} });
      const found = ids.map((id) => shipments.parcel(id, loginOf(request))?.shipment);
      const missing = ids.filter((_, i) => !found[i]);
      if (missing.length > 0) return fail(reply, { error_code: 3004, desc: 'Package not found or you are not the owner', details: { id: missing } });
      // an order's packages are cancelled together
      const orders = [...new Set(found as SpxShipment[])];
      if (orders.every((s) => shipments.isCancelled(s))) return fail(reply, { error_code: 5001, desc: 'Package already cancelled', details: {} });
      const moved = (s: SpxShipment) => s.parcels.some((p) => shipments.lastCode(p) !== SPX_TRACKING.created);
      if (orders.some((s) => !shipments.isCancelled(s) && moved(s))) return fail(reply, { error_code: 5000, desc: 'Package cannot be cancelled', details: {} });
      for (const s of orders) shipments.cancel(s);
      // the SDK reads nothing from a successful cancel but `result`
      return { result: 'OK', response: { number: ids.length } };
    });

    app.post('/V1/track/courier', async (request, reply) => {
      const ids = idList((request.body as { ids?: unknown } | undefined)?.ids);
      if (!ids) return fail(reply, { error_code: 3000, desc: 'Incorrect ids format provided. Array of items expected', details: {} });
      if (ids.length === 0) return fail(reply, { error_code: 3001, desc: 'Packages no data', details: {} });
      if (ids.length > MAX_TRACKED_IDS) return fail(reply, { error_code: 3002, desc: `At most ${MAX_TRACKED_IDS} packages at once`, details: {} });
      const login = loginOf(request);
      const tts = Object.fromEntries(ids.map((id) => [id, trackedView(id, shipments.parcel(id, login))]));
      return { result: 'OK', response: { number: ids.length, tts } };
    });
  };

  return {
    code,
    routes,
    advance: (trackingNumber, to) => shipments.advance(trackingNumber, to),
    shipments: () => shipments.records((s) => ({
      login: s.owner,
      state: shipments.isCancelled(s) ? 'CANCELLED' : SPX_TRACKING.codes[shipments.lastCode(s.parcels[0]!)]!.name,
      operator: operatorOf(s),
      ref: s.request.package.ref,
      note1: s.request.package.note1,
      cod: s.request.cod,
      package: { weight: s.request.package.weight, size_l: s.request.package.size_l, size_w: s.request.package.size_w, size_d: s.request.package.size_d },
      sender: s.request.sender,
      receiver: s.request.receiver,
      externalIds: s.request.externalIds,
    })),
    // Basic auth: there are no tokens to expire
    expireTokens: () => {},
    reset: () => shipments.reset(),
    faultResponse: (status) => ({
      contentType: 'application/json; charset=UTF-8',
      body: JSON.stringify(status === 429
        ? httpError(429, 'Too Many Requests', 'Rate limit exceeded.')
        : httpError(500, 'Internal Server Error', 'An internal server error occurred.')),
    }),
  };

  /** One `tts` entry: the worded history and the status ids, both in Warsaw time (TtRespObj). */
  function trackedView(id: string, found: { shipment: SpxShipment; parcel: EmulatedParcel } | undefined): Record<string, unknown> {
    if (!found) {
      return { id, result: 'FAIL', error_code: 3004, code: null, current_stat_id: null, stat_history: [], stat_id_history: [], country_from: null, country_to: null };
    }
    const { shipment, parcel } = found;
    const stat = (e: EmulatedEvent) => SPX_TRACKING.codes[e.code]!;
    return {
      id, result: 'OK', error_code: null, code: null,
      current_stat_id: Number(shipments.lastCode(parcel)),
      stat_history: parcel.events.map((e) => ({ date: warsawTime.format(e.at, ' '), name: stat(e).name, name_full: stat(e).description, location: null })),
      stat_id_history: parcel.events.map(eventView),
      country_from: shipment.request.sender.country,
      country_to: shipment.request.receiver.country,
    };
  }
}

/** What the emulated label prints; the Code 128 of the package id stands in for the operator's own label. */
function labelContent(s: SpxShipment, parcel: EmulatedParcel): EmulatedLabel {
  const { request } = s;
  return {
    carrier: 'SP Express',
    trackingNumber: parcel.number,
    parcelIndex: parcel.index,
    parcelCount: s.parcels.length,
    reference: request.package.ref ?? undefined,
    product: `${s.product} · ${request.operator ?? 'SPX'}`,
    sender: addressLines(request.sender),
    recipient: [...addressLines(request.receiver), request.receiver.tel],
    cod: request.cod ? { amount: request.cod.amount.toFixed(2), currency: request.cod.currency } : undefined,
  };
}

function addressLines(a: SpxEmulatedAddress): string[] {
  return [a.company, a.name, a.address_line_1, a.address_line_2, `${a.zip_code} ${a.city}`, a.country].filter((l): l is string => Boolean(l));
}
