/**
 * GLS Poland's ADE Plus WebAPI 2 as a local server: the SOAP service at its real path (document/literal, session
 * from adeLogin as every operation's first element, faults with ADE's `err_*` codes), the preparing-box operations
 * packdesk uses (github.com/kerogos/gls-polska src/Services/AdePlusClient.php, github.com/dbojdo/gls-ade src/Api/),
 * and GLS Track & Trace `GET /public/v1/tracking/references/{number}` with HTTP Basic.
 */
import type { FastifyPluginAsync } from 'fastify';
import { basicCredentials, isBadCredential } from '../emulator/auth.js';
import type { EmulatorContext, ProviderEmulator } from '../emulator/contract.js';
import { renderLabel } from '../emulator/labels.js';
import { numberSequence } from '../emulator/numbers.js';
import { EmulatedShipments, type EmulatedEvent, type EmulatedShipment } from '../emulator/shipments.js';
import { EmulatedSoapFault, serveSoap, soapFaultResponse } from '../emulator/soap.js';
import { EmulatedTokens } from '../emulator/tokens.js';
import { xmlString, type XmlElement, type XmlNode } from '../soap.js';
import type { LabelFormat } from '../types.js';
import { GLS_PL_LABEL_MODES, GLS_PL_TRACKING, glsPlProduct } from './codes.js';
import { glsParcelCheckDigit } from './numbers.js';
import { adeFault, MAX_COD_PLN, MAX_PARCEL_KG, readConsign, type SeenConsign } from './emulator-validation.js';
import { ADE_PATH, ADE_SERVICE, GLS_TRACKING_PATH } from './service.js';

const SESSION_SECONDS = 1800;
const MAX_IDS = 100;
const FORMAT_OF_MODE = new Map<string, LabelFormat>(Object.entries(GLS_PL_LABEL_MODES).map(([format, mode]) => [mode, format as LabelFormat]));
// The Track & Trace summary status of a parcel (GLS Track & Trace status enum), by its last code's standard status.
const SUMMARY: Record<string, string> = {
  created: 'PREADVICE', waiting_for_shipment: 'PREADVICE', in_transit: 'INTRANSIT', out_for_delivery: 'INDELIVERY',
  ready_for_pickup: 'DELIVEREDPS', on_hold: 'NOTDELIVERED', delivered: 'DELIVERED', returned: 'FINAL', error: 'FINAL',
};

type Consignment = EmulatedShipment<SeenConsign>;

function eventView(e: EmulatedEvent): Record<string, string> {
  return { timestamp: new Date(e.at).toISOString(), description: GLS_PL_TRACKING.codes[e.code]?.name ?? e.code, location: 'Warszawa', country: 'PL', code: e.code };
}

const text = (node: XmlNode | undefined) => (xmlString(node) ?? '').trim();

export function createGlsPlEmulator({ code, clock }: EmulatorContext): ProviderEmulator {
  const sessions = new EmulatedTokens(clock, SESSION_SECONDS);
  const consignments = new EmulatedShipments<SeenConsign>(clock, GLS_PL_TRACKING, eventView);
  const nextParcelNumber = numberSequence(clock, { prefix: '5', digits: 11, checkDigit: glsParcelCheckDigit });
  let nextConsignId = 741290;
  // ADE numbers a consignment's parcels when its labels are first fetched
  const numbered = new Set<string>();

  const ownerOf = (body: Record<string, XmlNode>): string => {
    const owner = sessions.ownerOf(text(body.session));
    if (owner === undefined) throw adeFault('err_sess_not_found');
    return owner;
  };
  const live = (owner: string, id: string): Consignment => {
    const found = consignments.byId(owner, id);
    if (!found || consignments.isCancelled(found)) throw new EmulatedSoapFault('err_cons_not_found', 'Przesyłka nie została znaleziona.');
    return found;
  };
  const label = (s: Consignment, index: number, format: LabelFormat) => {
    const parcel = s.parcels[index]!;
    const c = s.request.fields;
    return consignments.label(parcel, () => renderLabel(format, {
      carrier: 'GLS Poland', trackingNumber: parcel.number, parcelIndex: parcel.index, parcelCount: s.parcels.length,
      ...(text(c.references) ? { reference: text(c.references) } : {}), product: s.product,
      sender: [`ADE account ${s.owner}`],
      recipient: [text(c.rname1), text(c.rname2), text(c.rstreet), `${text(c.rzipcode)} ${text(c.rcity)}`, text(c.rcountry)].filter(Boolean),
      ...(s.request.cod !== null ? { cod: { amount: s.request.cod.toFixed(2), currency: 'PLN' } } : {}),
    }));
  };
  const consignView = (s: Consignment): XmlElement => ({
    ...(s.request.fields as XmlElement),
    parcels: { items: s.parcels.map((p, i) => ({ number: numbered.has(s.id) ? p.number : undefined, weight: s.request.parcels[i]!.weightKg })) },
  });

  const routes: FastifyPluginAsync = async (app) => {
    serveSoap(app, ADE_PATH, ADE_SERVICE, {
      adeLogin: ({ body }) => {
        const user = text(body.user_name);
        const password = text(body.user_password);
        if (!user || !password || isBadCredential(user, password)) {
          throw new EmulatedSoapFault('err_user_incorrect_username_password', 'Nieprawidłowa nazwa użytkownika lub hasło.');
        }
        return { name: 'adeLoginResponse', content: { return: { session: sessions.issue(user) } } };
      },
      adeServices_GetMaxParcelWeights: ({ body }) => {
        ownerOf(body);
        return { name: 'adeServices_GetMaxParcelWeightsResponse', content: { return: { weight_max_national: MAX_PARCEL_KG, weight_max_international: MAX_PARCEL_KG } } };
      },
      adeServices_GetMaxCOD: ({ body }) => {
        ownerOf(body);
        return { name: 'adeServices_GetMaxCODResponse', content: { return: { cod_max: MAX_COD_PLN } } };
      },
      adePreparingBox_Insert: ({ body }) => {
        const owner = ownerOf(body);
        const seen = readConsign(body.consign_prep_data);
        const id = String(nextConsignId++);
        consignments.add({
          owner, id, referenceId: text(seen.fields.notes), product: glsPlProduct(seen.services[0] ?? 'standard', seen.cod !== null),
          labelFormat: 'pdf', request: seen, numbers: seen.parcels.map(() => nextParcelNumber()),
        });
        return { name: 'adePreparingBox_InsertResponse', content: { return: { id } } };
      },
      adePreparingBox_GetConsignIDs: ({ body }) => {
        const owner = ownerOf(body);
        const below = Number(text(body.id_start)) || Infinity;
        const ids = consignments.all().filter((s) => s.owner === owner && !consignments.isCancelled(s) && Number(s.id) < below)
          .map((s) => Number(s.id)).sort((a, b) => b - a).slice(0, MAX_IDS);
        return { name: 'adePreparingBox_GetConsignIDsResponse', content: { return: { items: ids } } };
      },
      adePreparingBox_GetConsign: ({ body }) => {
        const s = live(ownerOf(body), text(body.id));
        return { name: 'adePreparingBox_GetConsignResponse', content: { return: consignView(s) } };
      },
      adePreparingBox_GetConsignLabelsExt: async ({ body }) => {
        const s = live(ownerOf(body), text(body.id));
        const format = FORMAT_OF_MODE.get(text(body.mode));
        if (!format) throw new EmulatedSoapFault('err_label_mode_is_invalid', `Nieprawidłowy tryb etykiet: ${text(body.mode)}`);
        numbered.add(s.id);
        s.labelFormat = format;
        const files = await Promise.all(s.parcels.map((_, i) => label(s, i, format)));
        return {
          name: 'adePreparingBox_GetConsignLabelsExtResponse',
          content: { return: { items: s.parcels.map((p, i) => ({ number: p.number, file: files[i]!.toString('base64') })) } },
        };
      },
      adePreparingBox_DeleteConsign: ({ body }) => {
        const s = live(ownerOf(body), text(body.id));
        consignments.cancel(s);
        return { name: 'adePreparingBox_DeleteConsignResponse', content: { return: { id: s.id } } };
      },
    });

    app.get<{ Params: { number: string } }>(`${GLS_TRACKING_PATH}:number`, async (request, reply) => {
      const basic = basicCredentials(request.headers.authorization);
      if (!basic || isBadCredential(basic.user, basic.password)) {
        return reply.code(401).header('WWW-Authenticate', 'Basic realm="GLS Track & Trace"').send({ status: 401, title: 'Unauthorized' });
      }
      const found = consignments.parcel(request.params.number);
      if (!found || consignments.isCancelled(found.shipment)) return reply.code(404).send({ status: 404, title: 'Not Found' });
      const status = SUMMARY[consignments.lastStatus(found.parcel)] ?? 'INTRANSIT';
      return { parcels: [{ status, trackid: found.parcel.number, events: [...found.parcel.events].reverse().map(eventView) }] };
    });
  };

  return {
    code,
    routes,
    advance: (trackingNumber, to) => consignments.advance(trackingNumber, to),
    shipments: () => consignments.records((s) => ({
      consignId: s.id,
      state: consignments.isCancelled(s) ? 'Deleted' : 'PreparingBox',
      userName: s.owner,
      references: text(s.request.fields.references) || null,
      notes: text(s.request.fields.notes),
      cashOnDelivery: s.request.cod,
      services: s.request.services,
      weights: s.request.parcels.map((p) => p.weightKg),
    })),
    expireTokens: () => sessions.expireAll(),
    reset: () => {
      consignments.reset();
      sessions.reset();
      numbered.clear();
    },
    faultResponse: (status, path) => (path.startsWith(GLS_TRACKING_PATH)
      ? { contentType: 'application/json', body: JSON.stringify({ status, title: status === 429 ? 'Too Many Requests' : 'Internal Server Error' }) }
      : soapFaultResponse(ADE_SERVICE, status === 429 ? 'Too many requests, try again later' : 'Internal server error')),
  };
}
