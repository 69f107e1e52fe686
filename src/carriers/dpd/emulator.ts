/**
 * DPD's META-API as a local server, following DPD Group's META-API OpenAPI (github.com/karrioapi/karrio,
 * modules/connectors/dpd_meta/vendor/): `POST /shipping/v1/login` (X-DPD-* headers → X-DPD-TOKEN) and synchronous
 * `POST /shipping/v1/shipment` (Bearer) with one label document for all parcels and Parcel to Shop to generated
 * Pickup points (`receiver.pudoId`), `POST /shipping/v1/pickupscheduling` for a courier; plus DPD's web services for
 * tracking (LoginService, ParcelLifeCycleService). The META-API has no cancel.
 */
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { mergeLabels } from '../../labels/index.js';
import { ANONYMOUS, bearerToken, isBadCredential, requireCaller } from '../emulator/auth.js';
import type { EmulatorContext, ProviderEmulator } from '../emulator/contract.js';
import type { EmulatedLabel } from '../emulator/labels.js';
import { renderLabel } from '../emulator/labels.js';
import { numberSequence } from '../emulator/numbers.js';
import type { EmulatedParcel, EmulatedShipment } from '../emulator/shipments.js';
import { EmulatedShipments } from '../emulator/shipments.js';
import { soapFaultResponse } from '../emulator/soap.js';
import { EmulatedTokens } from '../emulator/tokens.js';
import { DPD_BU_CODES, DPD_PRODUCTS, DPD_TRACKING } from './codes.js';
import { emulatedPickups } from './emulator-pickup.js';
import { DpdPickupPoints } from './emulator-points.js';
import { EMULATED_DEPOT, LIFE_CYCLE_SERVICE, lifeCycleDate, serveWebServices } from './emulator-tracking.js';
import { validateShipmentCall, type SeenParty, type SeenShipment } from './emulator-validation.js';
import type { DpdError } from './response.js';

type DpdShipment = EmulatedShipment<SeenShipment>;

const DAY_SECONDS = 86_400;
/** The last scan before the courier or the Pickup point. */
const DPD_AT_DELIVERY_DEPOT = 'Depot';
const SEUR = '020';

const metaError = (errorCode: string, errorMessage: string): DpdError => ({ errorCode, errorMessage, errorOrigin: 'META-API' });

function partyLines(party: SeenParty): string[] {
  const a = party.address;
  return [a.companyName, a.name1 !== a.companyName ? a.name1 : undefined, [a.street, a.houseNumber].filter(Boolean).join(' '), `${a.zipCode} ${a.city}`, a.country]
    .filter((l): l is string => Boolean(l));
}

/** What DPD prints on a parcel: the parcel number's barcode, the product, the references, the parties and COD. */
function labelContent(s: DpdShipment, parcel: EmulatedParcel): EmulatedLabel {
  const { request } = s;
  const cod = request.parcel.find((p) => p.cod)?.cod;
  return {
    carrier: 'DPD',
    trackingNumber: parcel.number,
    parcelIndex: parcel.index,
    parcelCount: s.parcels.length,
    reference: request.customerReferenceNumbers?.join(' / '),
    product: `${s.product} ${DPD_PRODUCTS[s.product]?.name ?? ''}`.trim(),
    sender: partyLines(request.sender),
    recipient: [
      ...(request.receiver.pudoId ? [`DPD Pickup ${request.receiver.pudoId}`] : []), ...partyLines(request.receiver), request.receiver.contact?.phone1 ?? '',
    ].filter(Boolean),
    ...(cod ? { cod: { amount: cod.amount.amount.toFixed(2), currency: cod.amount.currency } } : {}),
  };
}

export function createDpdEmulator({ code, clock }: EmulatorContext): ProviderEmulator {
  const shipments = new EmulatedShipments<SeenShipment>(clock, DPD_TRACKING, (e) => ({ status: e.code, date: lifeCycleDate(e.at) }));
  // META-API tokens serve 24 hours (SEUR's 30 minutes); the web services' authToken a day.
  const metaTokens = new EmulatedTokens(clock, DAY_SECONDS);
  const seurTokens = new EmulatedTokens(clock, 1800);
  const webServiceTokens = new EmulatedTokens(clock, DAY_SECONDS);
  /** Logins DPD no longer accepts (a password changed in DPD's portal, an account closed): refused with their tokens. */
  const revokedLogins = new Set<string>();
  const pickups = emulatedPickups(clock, shipments);
  const points = new DpdPickupPoints();
  const nextParcel = numberSequence(clock, { prefix: EMULATED_DEPOT, digits: 14 });
  const refuse = (reply: FastifyReply, status: number, errors: DpdError[]) => reply.code(status).type('application/json').send(status === 400 ? errors : errors[0]);
  const label = (s: DpdShipment, p: EmulatedParcel) => shipments.label(p, () => renderLabel(s.labelFormat, labelContent(s, p)));

  const routes: FastifyPluginAsync = async (app) => {
    app.setErrorHandler((err: Error & { statusCode?: number }, _request, reply) =>
      err.statusCode && err.statusCode < 500 ? refuse(reply, 400, [metaError('INVALID_REQUEST', err.message)]) : refuse(reply, 500, [metaError('INTERNAL_ERROR', 'Unexpected error')]));
    app.setNotFoundHandler((request, reply) => refuse(reply, 404, [metaError('NOT_FOUND', `No resource at ${request.url.slice(code.length + 1)}`)]));

    // Bearer token from the login on the META-API; the web services check their SOAP authentication header themselves.
    const callerOf = requireCaller(app, (request, reply) => {
      if (request.url.startsWith(`/${code}/services/`)) return 'web-services';
      const token = bearerToken(request.headers.authorization);
      const owner = token ? metaTokens.ownerOf(token) ?? seurTokens.ownerOf(token) : undefined;
      if (owner && !revokedLogins.has(owner)) return owner;
      void refuse(reply, 401, [metaError('UNAUTHORIZED', 'Authentication information is missing or invalid')]);
      return undefined;
    });

    app.post('/shipping/v1/login', ANONYMOUS, async (request, reply) => {
      const header = (name: string) => { const v = request.headers[name]; return typeof v === 'string' && v !== '' ? v : undefined; };
      const bu = header('x-dpd-bucode');
      if (!bu || !(DPD_BU_CODES as readonly string[]).includes(bu)) return refuse(reply, 400, [metaError('INVALID_BUCODE', `X-DPD-BUCODE ${bu ?? '(missing)'} is not a DPD business unit`)]);
      const login = header('x-dpd-login');
      const password = header('x-dpd-password');
      const clientId = header('x-dpd-clientid');
      const clientSecret = header('x-dpd-clientsecret');
      if (!login || !password || (bu === SEUR && (!clientId || !clientSecret))) {
        return refuse(reply, 401, [metaError('LOGIN_FAILED', bu === SEUR ? 'X-DPD-LOGIN, X-DPD-PASSWORD, X-DPD-CLIENTID and X-DPD-CLIENTSECRET are required' : 'X-DPD-LOGIN and X-DPD-PASSWORD are required')]);
      }
      if (isBadCredential(login, password, clientId, clientSecret) || revokedLogins.has(login)) return refuse(reply, 401, [metaError('LOGIN_FAILED', 'Invalid login or password for this business unit')]);
      return reply.code(200).header('X-DPD-TOKEN', (bu === SEUR ? seurTokens : metaTokens).issue(login)).send();
    });

    app.post<{ Querystring: Record<string, string | undefined> }>('/shipping/v1/shipment', async (request: FastifyRequest<{ Querystring: Record<string, string | undefined> }>, reply) => {
      const businessUnit = request.headers['x-dpd-bucode'];
      const verdict = validateShipmentCall(request.query, request.body, typeof businessUnit === 'string' ? businessUnit : '', points);
      if (!verdict.ok) return refuse(reply, 400, verdict.errors);
      const r = verdict.shipment;
      const s = shipments.add({
        owner: callerOf(request), referenceId: r.customerReferenceNumbers?.[0] ?? '', product: r.shipmentInfos!.productCode,
        labelFormat: verdict.format, request: r, numbers: r.parcel.map(() => nextParcel()),
      });
      const labels = await Promise.all(s.parcels.map((p) => label(s, p)));
      const document = (await mergeLabels(verdict.format, labels)).content;
      return {
        shipmentId: s.id,
        parcelIds: s.parcels.map((p) => p.number),
        parcelBarcodes: s.parcels.map((p) => ({ parcel: p.number, barcode: p.number, reference: r.customerReferenceNumbers?.[0] ?? '' })),
        label: { base64Data: Buffer.from(document).toString('base64'), 'media-type': 'application/octet-stream' },
      };
    });

    app.post('/shipping/v1/pickupscheduling', async (request, reply) => {
      const verdict = pickups.schedule(callerOf(request), request.body);
      return verdict.status === 400 ? refuse(reply, 400, verdict.errors) : verdict.body;
    });

    serveWebServices(app, webServiceTokens, shipments, (delisId) => revokedLogins.has(delisId));
  };

  /** Mounted under `/_emulator/dpd`: what DPD's customer does in DPD's portal. */
  const control: FastifyPluginAsync = async (app) => {
    app.post<{ Params: { login: string } }>('/logins/:login/revoke', async (request) => {
      revokedLogins.add(request.params.login);
      return { login: request.params.login, revoked: true };
    });
  };

  return {
    code,
    routes,
    control,
    // A Parcel to Shop parcel waits at its Pickup point (ParcelShop) on its way to delivered, not with a courier
    advance: (trackingNumber, to) => {
      const found = shipments.parcel(trackingNumber);
      if (!found?.shipment.request.receiver.pudoId || shipments.lastStatus(found.parcel) === 'ready_for_pickup') return shipments.advance(trackingNumber, to);
      if (to === undefined && shipments.lastCode(found.parcel) === DPD_AT_DELIVERY_DEPOT) return shipments.advance(trackingNumber, 'ready_for_pickup');
      return to === 'delivered' ? shipments.collectAtPoint(trackingNumber) : shipments.advance(trackingNumber, to);
    },
    shipments: () => shipments.records((s) => ({
      shipmentId: s.id,
      login: s.owner,
      productCode: s.product,
      // The META-API cannot cancel: a shipment stays created until DPD scans it.
      state: 'Created',
      customerReferenceNumbers: s.request.customerReferenceNumbers ?? [],
      cod: s.request.parcel.find((p) => p.cod)?.cod ?? null,
      parcelStatuses: s.parcels.map((p) => ({ parcelId: p.number, weight: s.request.parcel[p.index - 1]?.parcelInfos?.weight ?? null, status: shipments.lastCode(p), pickup: pickups.of(p.number) })),
    })),
    expireTokens: () => {
      metaTokens.expireAll();
      seurTokens.expireAll();
      webServiceTokens.expireAll();
    },
    reset: () => {
      shipments.reset();
      pickups.reset();
      metaTokens.reset();
      seurTokens.reset();
      webServiceTokens.reset();
      revokedLogins.clear();
    },
    faultResponse: (status, path) => (path.startsWith('/services/')
      ? soapFaultResponse(LIFE_CYCLE_SERVICE, status === 429 ? 'Too many requests' : 'Internal server error')
      : { contentType: 'application/json', body: JSON.stringify(metaError(status === 429 ? 'TOO_MANY_REQUESTS' : 'INTERNAL_ERROR', status === 429 ? 'Too many requests, retry later' : 'Unexpected error')) }),
  };
}
