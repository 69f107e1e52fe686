/**
 * GLS Poland's ADE Plus WebAPI 2 as a local server: the SOAP service at its real path (document/literal, session
 * from adeLogin as every operation's first element, faults with ADE's `err_*` codes), the preparing-box, pickup and
 * courier operations packdesk uses (github.com/kerogos/gls-polska src/Soap/*.php and src/Services/AdePlusClient.php,
 * github.com/dbojdo/gls-ade src/Api/PickupApi.php), and GLS Track & Trace `GET /public/v1/tracking/references/{number}`
 * with HTTP Basic. GLS learns of a consignment only when a pickup (adePickup_Create) takes it out of the preparing
 * box: before that, Track & Trace knows none of its parcels and they cannot be moved along.
 */
import type { FastifyPluginAsync } from 'fastify';
import { basicCredentials, isBadCredential } from '../emulator/auth.js';
import type { EmulatorContext, ProviderEmulator } from '../emulator/contract.js';
import { renderLabel } from '../emulator/labels.js';
import { numberSequence } from '../emulator/numbers.js';
import { EmulatedShipments, type EmulatedEvent, type EmulatedShipment } from '../emulator/shipments.js';
import { EmulatedSoapFault, serveSoap, soapFaultResponse } from '../emulator/soap.js';
import { EmulatedTokens } from '../emulator/tokens.js';
import { warsawTime } from '../local-time.js';
import { xmlList, xmlObject, xmlString, type XmlElement, type XmlNode } from '../soap.js';
import type { LabelFormat } from '../types.js';
import { GLS_PL_LABEL_MODES, GLS_PL_TRACKING, glsPlProduct } from './codes.js';
import { glsParcelCheckDigit } from './numbers.js';
import { RECEIPT_MODES, renderReceipt, type ReceiptMode } from './emulator-receipt.js';
import { glsPlParcelShops, parcelShopView, shopsByZip, shopsOfCountry } from './emulator-points.js';
import { adeFault, checkNames, MAX_COD_PLN, MAX_PARCEL_KG, readConsign, type SeenConsign } from './emulator-validation.js';
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

/** A pickup ("potwierdzenie nadania"): the consignments it took out of the preparing box, for good. */
interface EmulatedPickup {
  id: string;
  owner: string;
  desc: string;
  consignments: Consignment[];
  createdAt: number;
  receipts: Map<ReceiptMode, Promise<Buffer>>;
}

function eventView(e: EmulatedEvent): Record<string, string> {
  return { timestamp: new Date(e.at).toISOString(), description: GLS_PL_TRACKING.codes[e.code]?.name ?? e.code, location: 'Warszawa', country: 'PL', code: e.code };
}

const text = (node: XmlNode | undefined) => (xmlString(node) ?? '').trim();

export function createGlsPlEmulator({ code, clock }: EmulatorContext): ProviderEmulator {
  const sessions = new EmulatedTokens(clock, SESSION_SECONDS);
  const consignments = new EmulatedShipments<SeenConsign>(clock, GLS_PL_TRACKING, eventView);
  const nextParcelNumber = numberSequence(clock, { prefix: '5', digits: 11, checkDigit: glsParcelCheckDigit });
  let nextConsignId = 741290;
  let nextPickupId = 52310;
  // ADE numbers a consignment's parcels when its labels are first fetched
  const numbered = new Set<string>();
  const pickups: EmulatedPickup[] = [];
  const pickupOf = new Map<Consignment, EmulatedPickup>();
  const shops = glsPlParcelShops();
  const isOpenShop = (id: string) => shops.get(id)?.open === true;

  const ownerOf = (body: Record<string, XmlNode>): string => {
    const owner = sessions.ownerOf(text(body.session));
    if (owner === undefined) throw adeFault('err_sess_not_found');
    return owner;
  };
  /** A consignment of the caller's preparing box: deleted ones and those a pickup took are no longer there. */
  const live = (owner: string, id: string): Consignment => {
    const found = consignments.byId(owner, id);
    if (!found || consignments.isCancelled(found) || pickupOf.has(found)) throw adeFault('err_cons_not_found');
    return found;
  };
  const pickupById = (owner: string, id: string): EmulatedPickup => {
    const found = pickups.find((p) => p.owner === owner && p.id === id);
    if (!found) throw adeFault('err_pickup_not_found');
    return found;
  };
  const receipt = (pickup: EmulatedPickup, mode: ReceiptMode): Promise<Buffer> => {
    let rendered = pickup.receipts.get(mode);
    if (!rendered) {
      rendered = renderReceipt({
        pickupId: pickup.id, account: pickup.owner, datetime: warsawTime.format(pickup.createdAt, ' '), desc: pickup.desc,
        parcels: pickup.consignments.flatMap((s) => s.parcels.map((p, i) => ({
          number: p.number, consignId: s.id, recipient: text(s.request.fields.rname1), place: `${text(s.request.fields.rzipcode)} ${text(s.request.fields.rcity)}`,
          weightKg: s.request.parcels[i]!.weightKg, cod: i === 0 ? s.request.cod : null,
        }))),
      }, mode);
      pickup.receipts.set(mode, rendered);
    }
    return rendered;
  };
  const label = (s: Consignment, index: number, format: LabelFormat) => {
    const parcel = s.parcels[index]!;
    const c = s.request.fields;
    return consignments.label(parcel, () => renderLabel(format, {
      carrier: 'GLS Poland', trackingNumber: parcel.number, parcelIndex: parcel.index, parcelCount: s.parcels.length,
      ...(text(c.references) ? { reference: text(c.references) } : {}), product: s.product,
      sender: s.request.returnedBy ?? [`ADE account ${s.owner}`],
      recipient: [s.request.parcelShop ? `GLS ParcelShop ${s.request.parcelShop}` : '', text(c.rname1), text(c.rname2), text(c.rstreet), `${text(c.rzipcode)} ${text(c.rcity)}`, text(c.rcountry)].filter(Boolean),
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
        const seen = readConsign(body.consign_prep_data, isOpenShop);
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
        const ids = consignments.all().filter((s) => s.owner === owner && !consignments.isCancelled(s) && !pickupOf.has(s) && Number(s.id) < below)
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
      adeParcelShop_SearchByZip: ({ body }) => {
        checkNames(body, ['session', 'country', 'zipcode', 'street'], 'adeParcelShop_SearchByZip');
        ownerOf(body);
        return { name: 'adeParcelShop_SearchByZipResponse', content: { return: shopsByZip(shops, text(body.country), text(body.zipcode)) } };
      },
      adeParcelShop_GetByCountry: ({ body }) => {
        checkNames(body, ['session', 'country'], 'adeParcelShop_GetByCountry');
        ownerOf(body);
        return { name: 'adeParcelShop_GetByCountryResponse', content: { return: shopsOfCountry(shops, text(body.country)) } };
      },
      adeParcelShop_SearchByID: ({ body }) => {
        checkNames(body, ['session', 'id'], 'adeParcelShop_SearchByID');
        ownerOf(body);
        const id = text(body.id);
        const shop = shops.get(id);
        if (!shop?.open) throw adeFault('err_parcelshop_not_found');
        return { name: 'adeParcelShop_SearchByIDResponse', content: { return: parcelShopView(id, shop) } };
      },
      // Every consignment must still be in the preparing box: one taken by an earlier pickup is not found there.
      adePickup_Create: ({ body }) => {
        checkNames(body, ['session', 'consigns_ids', 'desc'], 'adePickup_Create');
        checkNames(body.consigns_ids, ['items'], 'cConsignsIDsArray');
        const owner = ownerOf(body);
        const ids = [...new Set(xmlList(xmlObject(body.consigns_ids).items).map((n) => text(n)))];
        if (ids.length === 0) throw adeFault('err_pickup_make_problem');
        const taken = ids.map((id) => live(owner, id));
        const pickup: EmulatedPickup = { id: String(nextPickupId++), owner, desc: text(body.desc), consignments: taken, createdAt: clock.now(), receipts: new Map() };
        pickups.push(pickup);
        // parcels not numbered yet get their numbers now (dbojdo/gls-ade PickupApi::createPickup)
        for (const s of taken) {
          pickupOf.set(s, pickup);
          numbered.add(s.id);
        }
        return { name: 'adePickup_CreateResponse', content: { return: { id: pickup.id } } };
      },
      adePickup_GetIDs: ({ body }) => {
        checkNames(body, ['session', 'id_start'], 'adePickup_GetIDs');
        const owner = ownerOf(body);
        const below = Number(text(body.id_start)) || Infinity;
        const ids = pickups.filter((p) => p.owner === owner && Number(p.id) < below).map((p) => Number(p.id)).sort((a, b) => b - a).slice(0, MAX_IDS);
        return { name: 'adePickup_GetIDsResponse', content: { return: { items: ids } } };
      },
      adePickup_Get: ({ body }) => {
        checkNames(body, ['session', 'id'], 'adePickup_Get');
        const pickup = pickupById(ownerOf(body), text(body.id));
        const parcels = pickup.consignments.flatMap((s) => s.request.parcels);
        return {
          name: 'adePickup_GetResponse',
          content: {
            return: {
              desc: pickup.desc, quantity: parcels.length,
              weight: Math.round(parcels.reduce((sum, p) => sum + p.weightKg, 0) * 100) / 100, datetime: warsawTime.format(pickup.createdAt, ' '),
            },
          },
        };
      },
      adePickup_GetReceipt: async ({ body }) => {
        checkNames(body, ['session', 'id', 'mode'], 'adePickup_GetReceipt');
        const pickup = pickupById(ownerOf(body), text(body.id));
        const mode = RECEIPT_MODES.find((m) => m === text(body.mode));
        // the code is inferred from ADE's err_label_mode_is_invalid for label modes
        if (!mode) throw new EmulatedSoapFault('err_receipt_mode_is_invalid', `Nieprawidłowy tryb wydruku: ${text(body.mode)}`);
        return { name: 'adePickup_GetReceiptResponse', content: { return: { receipt: (await receipt(pickup, mode)).toString('base64') } } };
      },
      // A courier for a day (ADE takes no hours: the courier comes in the account's agreed ones); not before today.
      adeCourier_Order: ({ body }) => {
        checkNames(body, ['session', 'parcelamount', 'date', 'emailnotification'], 'adeCourier_Order');
        ownerOf(body);
        if (!/^\d+$/.test(text(body.parcelamount))) throw new EmulatedSoapFault('Client', 'SOAP-ERROR: Encoding: Violation of encoding rules');
        const date = text(body.date);
        const today = warsawTime.format(clock.now()).slice(0, 10);
        if (!/^\d{4}-\d{2}-\d{2}$/.test(date) || Number.isNaN(Date.parse(`${date}T00:00:00Z`)) || date < today) throw adeFault('err_date_is_invalid');
        return { name: 'adeCourier_OrderResponse', content: { return: { value: true } } };
      },
    });

    app.get<{ Params: { number: string } }>(`${GLS_TRACKING_PATH}:number`, async (request, reply) => {
      const basic = basicCredentials(request.headers.authorization);
      if (!basic || isBadCredential(basic.user, basic.password)) {
        return reply.code(401).header('WWW-Authenticate', 'Basic realm="GLS Track & Trace"').send({ status: 401, title: 'Unauthorized' });
      }
      const found = consignments.parcel(request.params.number);
      if (!found || consignments.isCancelled(found.shipment) || !pickupOf.has(found.shipment)) return reply.code(404).send({ status: 404, title: 'Not Found' });
      const status = SUMMARY[consignments.lastStatus(found.parcel)] ?? 'INTRANSIT';
      return { parcels: [{ status, trackid: found.parcel.number, events: [...found.parcel.events].reverse().map(eventView) }] };
    });
  };

  return {
    code,
    routes,
    advance: (trackingNumber, to) => {
      const found = consignments.parcel(trackingNumber);
      if (found && !consignments.isCancelled(found.shipment) && !pickupOf.has(found.shipment)) {
        return { kind: 'cannot_advance', reason: `parcel ${trackingNumber} is in ADE's preparing box: GLS receives and tracks it only once a pickup (adePickup_Create) takes its consignment ${found.shipment.id}` };
      }
      return consignments.advance(trackingNumber, to);
    },
    shipments: () => consignments.records((s) => ({
      consignId: s.id,
      state: consignments.isCancelled(s) ? 'Deleted' : pickupOf.has(s) ? 'Pickup' : 'PreparingBox',
      pickupId: pickupOf.get(s)?.id ?? null,
      userName: s.owner,
      references: text(s.request.fields.references) || null,
      notes: text(s.request.fields.notes),
      cashOnDelivery: s.request.cod,
      services: s.request.services,
      parcelShop: s.request.parcelShop,
      weights: s.request.parcels.map((p) => p.weightKg),
    })),
    expireTokens: () => sessions.expireAll(),
    reset: () => {
      consignments.reset();
      sessions.reset();
      numbered.clear();
      pickups.length = 0;
      pickupOf.clear();
    },
    faultResponse: (status, path) => (path.startsWith(GLS_TRACKING_PATH)
      ? { contentType: 'application/json', body: JSON.stringify({ status, title: status === 429 ? 'Too Many Requests' : 'Internal Server Error' }) }
      : soapFaultResponse(ADE_SERVICE, status === 429 ? 'Too many requests, try again later' : 'Internal server error')),
  };
}
