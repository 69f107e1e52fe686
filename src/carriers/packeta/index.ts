import type { CarrierMappers, ProviderDefinition } from '../types.js';
import { packetaAdapter } from './adapter.js';
import { PACKETA_BASE_URLS } from './client.js';
import { PACKETA_PRODUCTS, PACKETA_TRACKING } from './codes.js';
import demo from './fixtures/contract.json' with { type: 'json' };
import { createPacketClaimRequest, createPacketRequest, packetaClaims, packetaPackets } from './request.js';
import { parseCreated, parseRefusal, parseTracking, readAnswer, type PacketaAnswer } from './response.js';
import { packetaSettings } from './settings.js';

/** A REST answer's text read; what is no Packeta `<response>` reads as a fault without a name. */
const answerOf = (body: unknown): PacketaAnswer => readAnswer(String(body)) ?? { ok: false, fault: '', message: 'no <response>', detail: {} };

const mappers: CarrierMappers = {
  // the first packet's createPacket (a return's createPacketClaim): the others differ in weight and size only, and carry no COD or value
  createRequest: (shipment, settings) => {
    const parsed = packetaSettings.parse(settings);
    if (shipment.returnOf) return createPacketClaimRequest(parsed.apiPassword, packetaClaims(shipment, shipment.returnOf, parsed)[0]!);
    return createPacketRequest(parsed.apiPassword, packetaPackets(shipment, parsed).packets[0]!);
  },
  parseCreated: (body) => {
    const answer = answerOf(body);
    return answer.ok ? parseCreated(answer.result) : undefined;
  },
  parseRefusal: (_status, body) => {
    const answer = answerOf(body);
    return answer.ok ? parseRefusal('', 'answered ok', {}) : parseRefusal(answer.fault, answer.message, answer.detail);
  },
  parseTracking: (body, asked) => parseTracking(body as Record<string, string | undefined>, asked),
};

/**
 * Packeta (Zásilkovna) — its REST API, XML over HTTP (`/api/rest`: the operations of its SOAP WSDL, the API password
 * in every body), and its point feed (JSON, with the API key). Follows the WSDL Packeta publishes (kept as
 * fixtures/schema/create-request.xsd, from the copy in Packeta's own WooCommerce plugin), the API reference and the
 * point feed of docs.packetery.com, and the REST clients Mixit-cz/packeta and Salamek/zasilkovna.
 *
 * Packets are single-parcel: a shipment of N parcels is N packets (createPacket each, the shipment's id as each one's
 * `number`), with one label document (packetsLabelsPdf) cut per parcel, and its cash on delivery and declared value
 * on the first packet. Each packet is tracked and cancelled on its own. A return is made of Claim Assistant packets
 * (createPacketClaim, one per parcel, labelled as any packet): the customer hands them over at a Packeta point and
 * Packeta brings them to the sender's return address. Packeta's own plugin makes such "packet claims" with a password
 * instead (createPacketClaimWithPassword) and prints their labels as any packet's (Zasilkovna/WooCommerce
 * `Module/Order/PacketClaimSubmitter.php`, `Module/Order/LabelPrint.php`); the password has no place in what packdesk keeps.
 */
export const provider: ProviderDefinition = {
  code: 'packeta',
  name: 'Packeta',
  regions: ['CZ', 'SK', 'HU', 'RO'],
  baseUrls: PACKETA_BASE_URLS,
  // no packet count limit is published: 20 packets a shipment is our own cap
  capabilities: { nativeLabelFormats: ['pdf', 'zpl'], cashOnDelivery: true, multiParcel: true, maxParcels: 20, cancel: true, returns: true },
  settings: packetaSettings.specs,
  docs: [
    'https://www.zasilkovna.cz/api/soap-php-bugfix.wsdl',
    'https://github.com/Zasilkovna/WooCommerce',
    'https://docs.packetery.com/03-creating-packets/06-packetery-api-reference.html',
    'https://docs.packetery.com/01-pickup-point-selection/05-branch-export-v5.html',
    'https://github.com/Mixit-cz/packeta',
    'https://github.com/Salamek/zasilkovna',
  ],
  adapter: packetaAdapter,
  trackingCodes: PACKETA_TRACKING,
  products: PACKETA_PRODUCTS,
  mappers,
  demo,
  emulator: () => import('./emulator.js').then((m) => m.createPacketaEmulator),
};
