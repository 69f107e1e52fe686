/**
 * Poste Delivery Business as a local server, following mlocati/MLPosteDeliveryExpress: a session from
 * `POST user/sessions` (`{error, error_description}` for a refused login), the `POSTE_ClientID` header and the raw
 * session token in `Authorization` on every business call, waybills answered with signed label links, tracking by
 * waybill number (GET with query parameters, or the manual's POST with `arg0`), courier bookings and their report
 * (emulator-pickup.ts), delivery points and waybills to them (emulator-points.ts). Poste has no waybill cancel.
 */
import { randomBytes } from 'node:crypto';
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { ANONYMOUS, isBadCredential, requireCaller } from '../emulator/auth.js';
import type { EmulatorContext, ProviderEmulator } from '../emulator/contract.js';
import { renderLabel, type EmulatedLabel } from '../emulator/labels.js';
import { numberSequence } from '../emulator/numbers.js';
import { EmulatedShipments, type EmulatedParcel, type EmulatedShipment } from '../emulator/shipments.js';
import { EmulatedTokens } from '../emulator/tokens.js';
import { POSTE_PRODUCTS, POSTE_TRACKING, POSTE_ZPL_FORMAT, type PosteProductCode } from './codes.js';
import { checkWaybillRequest, type EmulatedPosteAddress, type EmulatedWaybill, type PosteRefusal } from './emulator-validation.js';
import { emulatedPickups } from './emulator-pickup.js';
import { PosteDeliveryPoints } from './emulator-points.js';
import { trackingAnswer, trackingEvent } from './emulator-tracking.js';

/** Sessions live 3599 s (`expires_in` of Poste's documented session answer). */
const SESSION_SECONDS = 3599;

type PosteShipment = EmulatedShipment<EmulatedWaybill>;

/** Poste's gateway answers what never reaches the service (a missing or dead token, a malformed body) this way. */
function gatewayError(reply: FastifyReply, statusCode: number, message: string): FastifyReply {
  return reply.code(statusCode).send({ statusCode, message });
}

const envelope = (costCenterCode: string, paperless: boolean, result: PosteRefusal, waybills: unknown[] | null) => ({
  channel: 'WEBSERVICES', contractCode: `0000${costCenterCode.replace(/\D/g, '')}`.slice(-11), costCenterCode, Paperless: paperless, result, waybills,
});

const NATIONS = [
  { iso4: 'ITA1', iso2: 'IT', active: true, name: 'Italia', intName: 'Italy', extraue: false, states: [], news: null, products: ['APT000901', 'APT000902'] },
  { iso4: 'GER1', iso2: 'DE', active: true, name: 'Germania', intName: 'Germany', extraue: false, states: [], news: null, products: ['APT000903', 'APT000904'] },
  { iso4: 'USA1', iso2: 'US', active: true, name: 'Stati Uniti', intName: 'United States', extraue: true, states: [], news: null, products: ['APT000903', 'APT001013'] },
];

export function createPosteItalianeEmulator({ code, clock }: EmulatorContext): ProviderEmulator {
  const tokens = new EmulatedTokens(clock, SESSION_SECONDS);
  const shipments = new EmulatedShipments<EmulatedWaybill>(clock, POSTE_TRACKING, (event) => trackingEvent(event));
  const nextWaybill = numberSequence(clock, { prefix: '30', digits: 13 });
  /** The signature of each label link, as a storage service signs its download links. */
  const signatures = new Map<string, string>();
  const pickups = emulatedPickups(clock, (owner, waybill) => shipments.parcel(waybill, owner) !== undefined);
  const points = new PosteDeliveryPoints();

  const label = (s: PosteShipment, parcel: EmulatedParcel) =>
    shipments.label(parcel, () => renderLabel(s.request.printFormat === POSTE_ZPL_FORMAT ? 'zpl' : 'pdf', labelContent(s, parcel)));

  const routes: FastifyPluginAsync = async (app) => {
    app.setErrorHandler((err: Error & { statusCode?: number }, _request, reply) =>
      err.statusCode && err.statusCode < 500 ? gatewayError(reply, 400, `Bad request: ${err.message}`) : gatewayError(reply, 500, 'Internal server error'));
    app.setNotFoundHandler((_request, reply) => gatewayError(reply, 404, 'Resource not found'));

    const clientOf = requireCaller(app, (request, reply) => {
      const header = request.headers.authorization ?? '';
      // the manual's clients send the token bare (JsonHttpClient.cs) or after "Bearer" (post-it-sdk): both pass
      const owner = tokens.ownerOf(header.replace(/^Bearer\s+/i, ''));
      if (owner !== undefined && request.headers.poste_clientid === owner) return owner;
      void gatewayError(reply, 401, 'Unauthorized. Access token is missing or invalid.');
      return undefined;
    });

    app.post('/user/sessions', ANONYMOUS, async (request, reply) => {
      const body = (request.body ?? {}) as Record<string, unknown>;
      const absent = ['clientId', 'secretId', 'scope', 'grantType'].filter((k) => typeof body[k] !== 'string' || body[k] === '');
      if (absent.length > 0) {
        return reply.code(400).send({ error: 'invalid_request', error_description: `AADSTS900144: The request body must contain the following parameter: '${absent[0]}'.` });
      }
      if (body.grantType !== 'client_credentials') return reply.code(400).send({ error: 'unsupported_grant_type', error_description: 'AADSTS70003: The app requested an unsupported grant type.' });
      const clientId = body.clientId as string;
      // a refused login is an answer without a token, as JsonHttpClient.cs reads it
      if (isBadCredential(clientId)) return { error: 'unauthorized_client', error_description: `AADSTS700016: Application with identifier '${clientId}' was not found in the directory.` };
      if (isBadCredential(body.secretId as string)) return { error: 'unauthorized_client', error_description: 'AADSTS7000215: Invalid client secret provided.' };
      return { token_type: 'Bearer', expires_in: SESSION_SECONDS, ext_expires_in: SESSION_SECONDS, access_token: tokens.issue(clientId) };
    });

    const nations = async () => ({ channel: 'WEBSERVICES', contractCode: '', result: { errorCode: 0, errorDescription: 'OK' }, countries: NATIONS });
    app.get('/postalandlogistics/parcel/international/nations', nations);
    app.post('/postalandlogistics/parcel/international/nations', nations);

    app.post('/postalandlogistics/parcel/waybill', async (request) => {
      const check = checkWaybillRequest(request.body, points);
      const root = (request.body ?? {}) as { costCenterCode?: unknown; paperless?: unknown };
      if (!check.ok) return envelope(String(root.costCenterCode ?? ''), root.paperless === 'true', check.refusal, null);
      const { waybill } = check;
      const shipment = shipments.add({
        owner: clientOf(request), referenceId: waybill.clientReferenceId, product: waybill.product,
        labelFormat: waybill.printFormat === POSTE_ZPL_FORMAT ? 'zpl' : 'pdf', request: waybill,
        numbers: waybill.weightsGrams.map(() => nextWaybill()),
      });
      const origin = `${request.protocol}://${request.headers.host}${app.prefix}`;
      const waybills = shipment.parcels.map((parcel) => {
        const signature = randomBytes(16).toString('base64url');
        signatures.set(parcel.number, signature);
        const ext = waybill.printFormat === POSTE_ZPL_FORMAT ? 'zpl' : 'pdf';
        return {
          errorCode: 0, errorDescription: 'OK', code: parcel.number, internationalCode: null, internationalCode2: null,
          downloadURL: waybill.paperless ? null : `${origin}/ldv/${parcel.number}.${ext}?sv=2021-08-06&sr=b&sp=r&sig=${signature}`,
          downloadUrlImg: null,
        };
      });
      return envelope(waybill.costCenterCode, waybill.paperless, { errorCode: 0, errorDescription: 'OK' }, waybills);
    });

    app.get('/ldv/:file', ANONYMOUS, async (request, reply) => {
      const number = (request.params as { file: string }).file.replace(/\.(pdf|zpl)$/, '');
      const found = shipments.parcel(number);
      if (!found || signatures.get(number) !== (request.query as { sig?: string }).sig) {
        return reply.code(403).type('application/xml')
          .send('<?xml version="1.0" encoding="utf-8"?><Error><Code>AuthenticationFailed</Code><Message>Server failed to authenticate the request.</Message></Error>');
      }
      const zpl = found.shipment.request.printFormat === POSTE_ZPL_FORMAT;
      return reply.type(zpl ? 'application/octet-stream' : 'application/pdf').send(await label(found.shipment, found.parcel));
    });

    // GET with query parameters as DeliveryPoint/Finder.cs sends it, or the manual's POST with `arg0` (post-it-sdk)
    app.get<{ Querystring: Record<string, string | undefined> }>('/postalandlogistics/parcel/deliveryPoint', async (request) =>
      points.search(request.query.zipCode, request.query.serviceType));
    app.post('/postalandlogistics/parcel/deliveryPoint', async (request) => {
      const arg0 = ((request.body ?? {}) as { arg0?: { zipCode?: string; serviceType?: string } }).arg0;
      return points.search(arg0?.zipCode, arg0?.serviceType);
    });

    app.post('/postalandlogistics/parcel/pickup', async (request) => pickups.book(clientOf(request), request.body));
    app.post('/postalandlogistics/parcel/pickupReport', async (request) => pickups.report(clientOf(request), request.body));

    app.get<{ Querystring: Record<string, string | undefined> }>('/postalandlogistics/parcel/tracking', async (request) => {
      const { waybillNumber, lastTracingState } = request.query;
      return trackingAnswer(shipments, clientOf(request), waybillNumber ? [waybillNumber] : [], lastTracingState !== 'N');
    });
    app.post('/postalandlogistics/parcel/tracking', async (request) => {
      const arg0 = ((request.body ?? {}) as { arg0?: { shipmentsData?: { waybillNumber?: string; lastTracingState?: string }[] } }).arg0;
      const asked = (arg0?.shipmentsData ?? []).flatMap((d) => (typeof d.waybillNumber === 'string' ? [d.waybillNumber] : []));
      return trackingAnswer(shipments, clientOf(request), asked, arg0?.shipmentsData?.[0]?.lastTracingState !== 'N');
    });
  };

  /** Mounted under `/_emulator/poste_italiane`: the courier bookings, as Poste's portal lists them. */
  const control: FastifyPluginAsync = async (app) => {
    app.get('/pickups', async () => ({ pickups: pickups.list() }));
  };

  return {
    code,
    routes,
    control,
    advance: (trackingNumber, to) => shipments.advance(trackingNumber, to),
    shipments: () => shipments.records((s) => ({
      clientId: s.owner,
      // Poste has no cancel: the state is the phase of the first waybill
      state: POSTE_TRACKING.codes[shipments.lastCode(s.parcels[0]!)]!.phase,
      costCenterCode: s.request.costCenterCode,
      printFormat: s.request.printFormat,
      services: s.request.services,
      weightsGrams: s.request.weightsGrams,
      cod: s.request.cod,
      sender: s.request.sender,
      receiver: s.request.receiver,
    })),
    expireTokens: () => tokens.expireAll(),
    reset: () => {
      shipments.reset();
      tokens.reset();
      signatures.clear();
      pickups.reset();
    },
    faultResponse: (status) => ({
      contentType: 'application/json',
      body: JSON.stringify(status === 429
        ? { statusCode: 429, message: 'Rate limit is exceeded. Try again in 1 seconds.' }
        : { statusCode: 500, message: 'Internal server error' }),
    }),
  };
}

/** What the emulated label prints; the Code 128 of the waybill code stands in for Poste's own label. */
function labelContent(s: PosteShipment, parcel: EmulatedParcel): EmulatedLabel {
  const { request } = s;
  return {
    carrier: 'Poste Italiane',
    trackingNumber: parcel.number,
    parcelIndex: parcel.index,
    parcelCount: s.parcels.length,
    reference: request.sender.note1 || undefined,
    product: POSTE_PRODUCTS[s.product as PosteProductCode]?.name ?? s.product,
    sender: addressLines(request.sender),
    recipient: [...addressLines(request.receiver), request.receiver.phone ?? ''].filter(Boolean),
    cod: request.cod ? { amount: request.cod.amount, currency: 'EUR' } : undefined,
  };
}

function addressLines(a: EmulatedPosteAddress): string[] {
  return [a.nameSurname, a.contactName, `${a.address} ${a.streetNumber ?? ''}`.trim(), `${a.zipCode} ${a.city} ${a.province ?? ''}`.trim(), a.country]
    .filter((l): l is string => Boolean(l));
}
