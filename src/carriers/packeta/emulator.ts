/**
 * Packeta's REST API as a local server, following the WSDL Packeta publishes (fixtures/schema) and docs.packetery.com:
 * `POST /api/rest` takes the XML of one operation (createPacket, createPacketClaim for a return, cancelPacket,
 * packetStatus, packetTracking, packetLabelPdf, packetsLabelsPdf, packetLabelZpl, packetCourierNumber,
 * packetCourierLabelPdf/Zpl for a partner carrier's door delivery, senderGetReturnRouting) with the API password in it and answers
 * `<response>` with `ok` and the result or `fault` and the fault's name, text and detail (HTTP 200 either way); the
 * point feed (`GET /v5/<API key>/branch.json`, `box.json`). Packets are single-parcel; a packet's barcode is `Z` and
 * its id. It refuses what Packeta refuses: a wrong password, members PacketAttributes does not have, missing required
 * ones, a point or carrier it does not know, a closed point, a packet over the point's weight, a door address without
 * a known postal code, cash on delivery in another currency than the destination's or over its limit; a return packet
 * (createPacketClaim, Packeta's Claim Assistant) with members ClaimAttributes does not have (such as `cod`), without
 * its required ones, or asked to e-mail its label without an e-mail.
 */
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { mergeLabels } from '../../labels/index.js';
import { isBadCredential } from '../emulator/auth.js';
import type { EmulatorContext, ProviderEmulator } from '../emulator/contract.js';
import { renderLabel, type EmulatedLabel } from '../emulator/labels.js';
import { noSuchPlace } from '../emulator/no-such-place.js';
import { numberSequence } from '../emulator/numbers.js';
import { EmulatedShipments, type EmulatedEvent, type EmulatedShipment } from '../emulator/shipments.js';
import { readXml, xmlContent, xmlObject, xmlString, xmlText, type XmlElement, type XmlNode, type XmlObject } from '../soap.js';
import { PACKETA_TRACKING } from './codes.js';
import { currencyOfCountry, HOME_DELIVERY_CARRIERS, HOME_DELIVERY_MAX_WEIGHT, PacketaPoints, POSTAL_CODES, type EmulatedPoint } from './emulator-points.js';
import { pragueTime } from './response.js';

/** PacketAttributes' members (the WSDL): any other element is refused. */
const MEMBERS = new Set([
  'id', 'affiliateId', 'number', 'name', 'surname', 'company', 'email', 'phone', 'addressId', 'cod', 'currency', 'value', 'weight', 'eshop',
  'adultContent', 'deliverOn', 'note', 'street', 'houseNumber', 'city', 'province', 'zip', 'dispatchOrder', 'customerBarcode', 'carrierPickupPoint',
  'carrierService', 'customsDeclaration', 'size', 'attributes', 'items', 'security', 'services',
]);
/** ClaimAttributes' members (the WSDL): a return packet has no addressee, weight or cash on delivery. */
const CLAIM_MEMBERS = new Set(['id', 'number', 'email', 'phone', 'value', 'currency', 'eshop', 'sendLabelToEmail']);
/** The currencies of ClaimAttributes' `currency` (docs.packeta.com, data structures). */
const CLAIM_CURRENCIES = ['CZK', 'EUR', 'HUF', 'PLN', 'RON'];
/** packetLabelPdf formats Packeta's clients use (Packeta's documents name more: the emulator knows these). */
const PDF_FORMATS = ['A6 on A6', 'A7 on A7', 'A6 on A4', 'A7 on A4', 'A8 on A8', '105x35mm on A4'];
/** The most cash a packet collects, per currency (inferred: Packeta publishes limits per country; these are the emulator's). */
const COD_LIMITS: Readonly<Record<string, number>> = { CZK: 100_000, EUR: 4_000, HUF: 1_500_000, RON: 20_000 };
/** The texts of Packeta's status table (docs.packetery.com "Packet status"). */
const STATUS_TEXTS: Readonly<Record<string, string>> = {
  1: 'We have received the packet data. Freshly created packet.', 2: 'Packet has been accepted at our branch.',
  3: 'Packet is waiting to be dispatched.', 4: 'Packet is on the way.', 5: 'Packet has been delivered to its destination, the customer has been informed via SMS.',
  6: 'Packet has been handed over to an external carrier for delivery.', 7: 'Packet was picked up by the customer.', 9: 'Packet is on the way back to the sender.',
  10: 'Packet has been returned to the sender.', 11: 'Packet has been cancelled.', 12: 'Packet has been collected and is on its way to the depot.',
  14: 'Customs declaration process.', 15: 'Reverse packet has been accepted at our branch.', 16: 'Unsuccessful delivery attempt of packet.',
  17: 'Delivery attempt of packet ended in rejected by recipient response.',
};

/** A packet as the emulator read it. */
interface EmulatedPacket {
  kind: 'packet';
  number: string;
  name: string;
  surname: string;
  company: string | null;
  email: string | null;
  phone: string | null;
  addressId: string;
  cod: string | null;
  currency: string;
  value: string;
  weight: string;
  eshop: string;
  note: string | null;
  street: string | null;
  houseNumber: string | null;
  city: string | null;
  zip: string | null;
  /** The point it waits at, or the country of its home delivery. */
  point: EmulatedPoint | null;
  country: string;
}
/** A return packet (Claim Assistant) as the emulator read it: it goes to the sender `eshop`'s return address. */
interface EmulatedClaim {
  kind: 'claim';
  number: string;
  email: string | null;
  phone: string | null;
  value: string;
  currency: string;
  eshop: string;
  sendLabelToEmail: boolean;
}
type PacketaPacket = EmulatedShipment<EmulatedPacket | EmulatedClaim>;
type AttributeFault = { name: string; fault: string };

function answer(body: string): string {
  return `<?xml version="1.0" encoding="utf-8"?>\n<response>${body}</response>`;
}
const ok = (result?: XmlNode | XmlElement) => answer(`<status>ok</status>${result === undefined ? '' : typeof result === 'string' ? `<result>${xmlText(result)}</result>` : xmlContent({ result: result as XmlElement })}`);
const fault = (name: string, text: string, detail = '') => answer(`<status>fault</status><fault>${name}</fault><string>${xmlText(text)}</string><detail>${detail}</detail>`);
const attributesFault = (faults: readonly AttributeFault[]) =>
  fault('PacketAttributesFault', 'Invalid packet attributes', xmlContent({ attributes: { fault: faults.map((f) => ({ name: f.name, fault: f.fault })) } }));

const text = (node: XmlNode | undefined) => (xmlString(node) ?? '').trim();
const MONEY = /^\d+(\.\d{1,2})?$/;
const WEIGHT = /^\d+(\.\d{1,3})?$/;

export function createPacketaEmulator({ clock }: EmulatorContext): ProviderEmulator {
  const eventView = (event: EmulatedEvent) => ({ dateTime: pragueTime.format(event.at), statusCode: event.code, codeText: PACKETA_TRACKING.codes[event.code]?.name });
  const packets = new EmulatedShipments<EmulatedPacket | EmulatedClaim>(clock, PACKETA_TRACKING, eventView);
  const nextId = numberSequence(clock, { prefix: '4', digits: 10 });
  const points = new PacketaPoints();

  /** What PacketAttributes and ClaimAttributes are checked for alike: their members, the required ones, number, contact, money, sender. */
  function checkAttributes(attributes: XmlObject, members: ReadonlySet<string>, required: readonly string[]) {
    const faults: AttributeFault[] = [];
    const refuse = (name: string, why: string) => faults.push({ name, fault: why });
    for (const member of Object.keys(attributes)) if (!members.has(member)) refuse(member, 'Unknown attribute');
    const get = (name: string) => text(attributes[name]);
    for (const name of required) if (!get(name)) refuse(name, 'Required attribute is missing');
    if (get('number').length > 24) refuse('number', 'At most 24 characters');
    if (get('email') && !/.*@.*\..*/.test(get('email'))) refuse('email', 'Invalid e-mail address');
    if (get('phone').length > 20) refuse('phone', 'Invalid phone number');
    for (const name of ['cod', 'value']) if (get(name) && !MONEY.test(get(name))) refuse(name, 'A decimal number with at most 2 decimal places expected');
    if (isBadCredential(get('eshop'))) refuse('eshop', `Sender ${get('eshop')} does not exist`);
    return { faults, refuse, get };
  }

  /** The packet's attributes checked as Packeta checks them: the packet, or every attribute fault. */
  function readPacket(attributes: XmlObject): EmulatedPacket | AttributeFault[] {
    const { faults, refuse, get } = checkAttributes(attributes, MEMBERS, ['number', 'name', 'surname', 'addressId', 'value', 'weight', 'eshop']);
    for (const name of ['name', 'surname', 'company', 'city']) if (get(name).length > 32) refuse(name, 'At most 32 characters');
    if (!get('email') && !get('phone')) refuse('phone', 'An e-mail or a phone of the recipient is required');
    if (get('weight') && (!WEIGHT.test(get('weight')) || Number(get('weight')) <= 0)) refuse('weight', 'A positive weight in kg with at most 3 decimal places expected');

    const addressId = get('addressId');
    const point = points.get(addressId);
    const carrier = HOME_DELIVERY_CARRIERS[addressId];
    if (addressId && !point && !carrier) refuse('addressId', `Unknown addressId ${addressId}`);
    if (point && !point.open) refuse('addressId', `Pickup point ${addressId} does not accept packets now`);
    if (point && Number(get('weight')) > point.maxWeight) refuse('weight', `Pickup point ${addressId} takes packets up to ${point.maxWeight} kg`);
    if (carrier) {
      for (const name of ['street', 'city', 'zip']) if (!get(name)) refuse(name, 'Required for home delivery');
      if (get('zip') && (!POSTAL_CODES[carrier.country]!.test(get('zip').replace(/\s+/g, '')) || noSuchPlace(get('zip')))) refuse('zip', `Invalid ZIP code ${get('zip')}`);
      if (Number(get('weight')) > HOME_DELIVERY_MAX_WEIGHT) refuse('weight', `Home delivery takes packets up to ${HOME_DELIVERY_MAX_WEIGHT} kg`);
    }
    const country = point?.countryCode ?? carrier?.country ?? '';
    const currency = get('currency') || currencyOfCountry(country) || '';
    if ((point || carrier) && currency !== currencyOfCountry(country)) refuse('currency', `Packets to ${country} are in ${currencyOfCountry(country)}`);
    const cod = get('cod') && Number(get('cod')) > 0 ? get('cod') : null;
    if (cod && COD_LIMITS[currency] !== undefined && Number(cod) > COD_LIMITS[currency]!) refuse('cod', `At most ${COD_LIMITS[currency]} ${currency} of cash on delivery`);
    if (faults.length > 0) return faults;
    const optional = (name: string) => get(name) || null;
    return {
      kind: 'packet', number: get('number'), name: get('name'), surname: get('surname'), company: optional('company'), email: optional('email'), phone: optional('phone'),
      addressId, cod, currency, value: get('value'), weight: get('weight'), eshop: get('eshop'), note: optional('note'),
      street: optional('street'), houseNumber: optional('houseNumber'), city: optional('city'), zip: optional('zip'), point: point ?? null, country,
    };
  }

  /**
   * A return packet's ClaimAttributes checked as Packeta checks them: the claim, or every attribute fault. It names no
   * packet it returns (ClaimAttributes has no such member), so there is no outbound packet to check.
   */
  function readClaim(attributes: XmlObject): EmulatedClaim | AttributeFault[] {
    const { faults, refuse, get } = checkAttributes(attributes, CLAIM_MEMBERS, ['number', 'value', 'currency']);
    if (get('currency') && !CLAIM_CURRENCIES.includes(get('currency'))) refuse('currency', `Unknown currency ${get('currency')}`);
    const sendLabelToEmail = ['true', '1'].includes(get('sendLabelToEmail'));
    if (sendLabelToEmail && !get('email')) refuse('email', 'Required when the label is sent to the e-mail');
    if (faults.length > 0) return faults;
    return {
      kind: 'claim', number: get('number'), email: get('email') || null, phone: get('phone') || null, value: get('value'), currency: get('currency'),
      eshop: get('eshop'), sendLabelToEmail,
    };
  }

  const owned = (owner: string, packetId: string) => packets.byId(owner, packetId);
  const pointOf = (p: PacketaPacket) => (p.request.kind === 'packet' ? p.request.point : null);
  const labelOf = (p: PacketaPacket): EmulatedLabel => {
    const r = p.request;
    // a Claim Assistant label names no sender address (docs.packetery.com "Creating own packet label"): the customer hands it in
    if (r.kind === 'claim') {
      return {
        carrier: 'Packeta', trackingNumber: p.parcels[0]!.number, parcelIndex: 1, parcelCount: 1, reference: r.number,
        product: 'Claim Assistant', sender: ['Claim Assistant'], recipient: [r.eshop],
      };
    }
    return {
      carrier: 'Packeta', trackingNumber: p.parcels[0]!.number, parcelIndex: 1, parcelCount: 1, reference: r.number,
      product: r.point ? `${r.point.type === 'locker' ? 'Z-BOX' : 'Pickup point'} ${r.point.id} ${r.point.city}` : `${HOME_DELIVERY_CARRIERS[r.addressId]!.name}`,
      sender: [r.eshop],
      recipient: [[r.name, r.surname].filter(Boolean).join(' '), ...(r.point ? [] : [`${r.street ?? ''} ${r.houseNumber ?? ''}`.trim(), `${r.zip} ${r.city}`]), r.phone ?? r.email ?? ''].filter(Boolean),
      cod: r.cod ? { amount: Number(r.cod).toFixed(2), currency: r.currency } : undefined,
    };
  };
  /** The partner carrier's number of a packet it delivers, or undefined where Packeta delivers it itself. */
  const courierNumberOf = (p: PacketaPacket) => {
    const prefix = p.request.kind === 'packet' ? HOME_DELIVERY_CARRIERS[p.request.addressId]?.courierPrefix : undefined;
    return prefix ? `${prefix}${p.id}` : undefined;
  };
  /** The partner carrier's label: its name and its number, the door address. */
  const courierLabelOf = (p: PacketaPacket, courierNumber: string): EmulatedLabel => ({
    ...labelOf(p), carrier: HOME_DELIVERY_CARRIERS[(p.request as EmulatedPacket).addressId]!.name, trackingNumber: courierNumber, reference: `Packeta ${p.parcels[0]!.number}`,
  });
  const pdfOf = (p: PacketaPacket) => packets.label(p.parcels[0]!, () => renderLabel('pdf', labelOf(p)));

  /** A new packet of the caller, answered as PacketIdDetail: its id, its barcode (`Z` and the id) and the barcode as printed. */
  const created = (owner: string, request: EmulatedPacket | EmulatedClaim, product: string) => {
    const id = nextId();
    const barcode = `Z${id}`;
    packets.add({ owner, id, referenceId: request.number, product, labelFormat: 'pdf', request, numbers: [barcode] });
    return ok({ id, barcode, barcodeText: `Z ${id.slice(0, 3)} ${id.slice(3, 7)} ${id.slice(7)}` });
  };

  /** One operation of a caller: the answer's XML. */
  async function operate(owner: string, operation: string, body: XmlObject): Promise<string> {
    const packetOf = (): PacketaPacket | string => {
      const id = text(body.packetId);
      const p = owned(owner, id);
      return p ?? fault('PacketIdFault', `Packet ${id} not found`);
    };
    switch (operation) {
      case 'senderGetReturnRouting': {
        const sender = text(body.sender);
        if (!sender || isBadCredential(sender)) return fault('SenderNotExists', `Sender ${sender} does not exist`);
        return ok({ routingSegment: ['S96', `S96-${sender.length}`] });
      }
      case 'createPacket': {
        const read = readPacket(xmlObject(body.packetAttributes));
        return Array.isArray(read) ? attributesFault(read) : created(owner, read, read.point ? 'pickup-point' : 'home-delivery');
      }
      case 'createPacketClaim': {
        const read = readClaim(xmlObject(body.claimAttributes));
        return Array.isArray(read) ? attributesFault(read) : created(owner, read, 'claim-assistant');
      }
      case 'cancelPacket': {
        const p = packetOf();
        if (typeof p === 'string') return p;
        return packets.cancel(p) === 'cancelled' ? ok() : fault('CancelNotAllowedFault', `Packet ${p.id} can no longer be cancelled`);
      }
      case 'packetStatus':
      case 'packetTracking': {
        const p = packetOf();
        if (typeof p === 'string') return p;
        const record = (event: EmulatedEvent) => ({
          dateTime: pragueTime.format(event.at), statusCode: event.code, codeText: PACKETA_TRACKING.codes[event.code]?.name ?? 'unknown',
          statusText: STATUS_TEXTS[event.code] ?? '', branchId: pointOf(p)?.id ?? '0', destinationBranchId: pointOf(p)?.id ?? '0',
        });
        const events = p.parcels[0]!.events;
        if (operation === 'packetTracking') return ok({ record: events.map(record) });
        const last = events[events.length - 1]!;
        return ok({ ...record(last), isReturning: ['9', '10'].includes(last.code) ? 'true' : 'false', storedUntil: '', carrierId: '', carrierName: '' });
      }
      case 'packetLabelPdf': {
        const p = packetOf();
        if (typeof p === 'string') return p;
        if (!PDF_FORMATS.includes(text(body.format))) return fault('UnknownLabelFormatFault', `Unknown label format ${text(body.format)}`);
        return ok((await pdfOf(p)).toString('base64'));
      }
      case 'packetsLabelsPdf': {
        if (!PDF_FORMATS.includes(text(body.format))) return fault('UnknownLabelFormatFault', `Unknown label format ${text(body.format)}`);
        const ids = [xmlObject(body.packetIds).id].flat().map((id) => text(id as XmlNode));
        if (ids.length === 0 || ids[0] === '') return fault('NoPacketIdsFault', 'No packet ids given');
        const found = ids.map((id) => owned(owner, id));
        const missing = ids.filter((_, i) => !found[i] || packets.isCancelled(found[i]!));
        if (missing.length > 0) return fault('PacketIdsFault', 'Packets not found', xmlContent({ ids: { packetId: missing } }));
        const pages = await Promise.all((found as PacketaPacket[]).map(pdfOf));
        return ok((pages.length === 1 ? pages[0]! : (await mergeLabels('pdf', pages)).content).toString('base64'));
      }
      case 'packetLabelZpl': {
        const p = packetOf();
        if (typeof p === 'string') return p;
        if (!['203', '300'].includes(text(body.dpi))) return fault('ArgumentsFault', 'dpi must be 203 or 300');
        return ok((await renderLabel('zpl', labelOf(p))).toString('utf8'));
      }
      case 'packetCourierNumber': {
        const p = packetOf();
        if (typeof p === 'string') return p;
        const courier = courierNumberOf(p);
        return courier ? ok(courier) : fault('NotSupportedFault', `Packet ${p.id} is not delivered by an external carrier`);
      }
      case 'packetCourierLabelPdf':
      case 'packetCourierLabelZpl': {
        const p = packetOf();
        if (typeof p === 'string') return p;
        const courier = courierNumberOf(p);
        if (!courier) return fault('NotSupportedFault', `Packet ${p.id} is not delivered by an external carrier`);
        if (text(body.courierNumber) !== courier) return fault('InvalidCourierNumber', `Courier number ${text(body.courierNumber)} is not the number of packet ${p.id}`);
        if (operation === 'packetCourierLabelPdf') return ok((await renderLabel('pdf', courierLabelOf(p, courier))).toString('base64'));
        if (!['203', '300'].includes(text(body.dpi))) return fault('ArgumentsFault', 'dpi must be 203 or 300');
        return ok((await renderLabel('zpl', courierLabelOf(p, courier))).toString('utf8'));
      }
      default:
        return fault('ArgumentsFault', `Unknown method ${operation}`);
    }
  }

  const routes: FastifyPluginAsync = async (app) => {
    const xml = (reply: FastifyReply, body: string) => reply.type('text/xml; charset=utf-8').send(body);
    app.setNotFoundHandler((request, reply) => reply.code(404).type('text/plain').send(`Not Found: ${request.url.split('?')[0]}`));

    app.post('/api/rest', async (request, reply) => {
      const parsed = typeof request.body === 'string' ? readXml(request.body) : undefined;
      const roots = Object.keys(parsed ?? {}).filter((k) => k !== '?xml');
      if (!parsed || roots.length !== 1) return xml(reply, fault('ArgumentsFault', 'The request is not one operation element'));
      const operation = roots[0]!;
      const body = xmlObject(parsed[operation]);
      const password = text(body.apiPassword);
      if (!/^[0-9a-f]{32}$/.test(password) || isBadCredential(password)) return xml(reply, fault('IncorrectApiPasswordFault', 'Incorrect API password.'));
      return xml(reply, await operate(password, operation, body));
    });

    // the point feed, with the API key (the password's first 16 characters)
    for (const file of ['branch', 'box'] as const) {
      app.get(`/v5/:key/${file}.json`, async (request, reply) => {
        const { key } = request.params as { key: string };
        if (!/^[0-9a-f]{16}$/.test(key)) return reply.code(401).type('application/json').send({ error: 'Invalid API key' });
        return points.feed(file);
      });
    }
  };

  /** Every packet of one of our shipments (Packeta's `number`), in the order made. */
  const byShipment = () => {
    const groups = new Map<string, PacketaPacket[]>();
    for (const p of packets.all()) {
      const key = `${p.owner}\n${p.referenceId}`;
      groups.set(key, [...(groups.get(key) ?? []), p]);
    }
    return [...groups.values()];
  };

  return {
    code: 'packeta',
    routes,
    // a packet to a point waits there (ready for pickup) before it is picked up; one to a door goes through its carrier
    advance: (trackingNumber, to) => {
      const found = packets.parcel(trackingNumber);
      if (!found || !pointOf(found.shipment)) return packets.advance(trackingNumber, to);
      if (to === 'delivered' && packets.lastStatus(found.parcel) !== 'ready_for_pickup') return packets.collectAtPoint(trackingNumber);
      if (to === undefined && packets.lastCode(found.parcel) === '4') return packets.advance(trackingNumber, 'ready_for_pickup');
      return packets.advance(trackingNumber, to);
    },
    shipments: () => byShipment().map((group) => ({
      referenceId: group[0]!.referenceId,
      shipmentNumbers: group.map((p) => p.parcels[0]!.number),
      state: group.every((p) => packets.isCancelled(p)) ? 'Cancelled' : 'Active',
      cancelled: group.every((p) => packets.isCancelled(p)),
      createdAt: new Date(group[0]!.createdAt).toISOString(),
      packets: group.map((p) => {
        const { point, ...attributes } = p.request.kind === 'packet' ? p.request : { ...p.request, point: null };
        return { id: p.id, barcode: p.parcels[0]!.number, code: packets.lastCode(p.parcels[0]!), pointId: point?.id ?? null, ...attributes };
      }),
    })),
    // the API password is the only credential: there are no tokens to expire
    expireTokens: () => {},
    reset: () => packets.reset(),
    faultResponse: (status) => ({
      contentType: 'text/xml; charset=utf-8',
      body: fault(status === 429 ? 'TooManyRequests' : 'InternalServerError', status === 429 ? 'Too many requests' : 'Internal server error'),
    }),
  };
}
