import type { FieldErrors } from '../../domain/errors.js';
import { resolveBaseUrl } from '../base-url.js';
import { CarrierHttp, jsonOrUndefined } from '../carrier-http.js';
import { CarrierCredentialsRefusedError, CarrierRefusedError, CarrierTransientError } from '../errors.js';
import { KeptPointLists } from '../point-lists.js';
import { xmlString, type XmlElement, type XmlNode } from '../soap.js';
import type { CarrierContext, ChannelSettings, PickupPoint } from '../types.js';
import { pickupPointsOf, type PacketaFeedPoint } from './points.js';
import { createPacketClaimRequest, createPacketRequest, restRequest, type PacketaClaimAttributes, type PacketaPacketAttributes } from './request.js';
import { CLAIM_FIELDS, parseCreated, parseRefusal, readAnswer, type PacketaCreatedPacket } from './response.js';
import type { PacketaSettings } from './settings.js';

/** Packeta's API host: the REST API is `/api/rest` on it (docs.packetery.com; Salamek/zasilkovna `ApiRest.php`). Packeta has no sandbox. */
export const PACKETA_BASE_URLS = { production: 'https://www.zasilkovna.cz' };
const REST_PATH = 'api/rest';
/** The point feed's host (docs.packetery.com "Branch export version 5"); under `baseUrl` where the channel sets one. */
const FEED_HOST = 'https://pickup-point.api.packeta.com';
/** A PDF label per page, 105 × 148 mm (a `format` of packetLabelPdf; Packeta's clients also use "A6 on A4", "A7 on A4"). */
const PACKETA_PDF_FORMAT = 'A6 on A6';
/** The printer resolution packetLabelZpl is asked for (its `dpi` part): 203 dpi, the usual thermal printer. */
const ZPL_DPI = 203;

/** A fault Packeta answered, with its name for the callers that tell faults apart. */
export class PacketaRefusedError extends CarrierRefusedError {
  constructor(message: string, errors: FieldErrors, readonly fault: string) {
    super(message, errors);
  }
}

/** IncorrectApiPasswordFault: the channel's API password is wrong, whatever the call. */
export class PacketaCredentialsRefused extends CarrierCredentialsRefusedError {
  constructor(readonly reason: string) {
    super(`Packeta refused the API password: ${reason}`, { shipping_channel_id: [`Packeta refused the channel's API password: ${reason}`] });
  }
}

/** The API key: the API password's first 16 characters, as Packeta's own plugin derives it (Zasilkovna/WooCommerce `Module/Options/Page.php`). */
export const apiKeyOf = (apiPassword: string) => apiPassword.slice(0, 16);

/** Downloaded point feeds, kept 10 minutes: Packeta asks for a daily update, 10 minutes keeps closures fresh. */
const feeds = new KeptPointLists(10 * 60_000);

/**
 * The only Packeta code that does network I/O: one method per operation of the REST API (XML in, `<response>` out,
 * HTTP 200 for faults too), the API password in every body; and the point feed, downloaded with the API key.
 */
export class PacketaClient {
  private readonly http: CarrierHttp;
  private readonly apiPassword: string;

  constructor(settings: Pick<PacketaSettings, 'apiPassword' | 'sandboxMode' | 'baseUrl'>, ctx: CarrierContext) {
    this.apiPassword = settings.apiPassword;
    this.http = new CarrierHttp('packeta', resolveBaseUrl({ name: 'Packeta', baseUrls: PACKETA_BASE_URLS }, settings), ctx, [settings.apiPassword, apiKeyOf(settings.apiPassword)]);
  }

  /** One operation: its `result`, or its fault thrown (a wrong password as PacketaCredentialsRefused). */
  async call(operation: string, parts: XmlElement): Promise<XmlNode | undefined> {
    return this.send(operation, restRequest(operation, this.apiPassword, parts));
  }

  private async send(operation: string, body: string, fields?: Readonly<Record<string, string>>): Promise<XmlNode | undefined> {
    return (await this.answer(operation, body, fields)).result;
  }

  /** The call's `result` and the answer's text; a fault thrown, its attributes on `fields` (parseRefusal). */
  private async answer(operation: string, body: string, fields?: Readonly<Record<string, string>>): Promise<{ result: XmlNode | undefined; text: string }> {
    const res = await this.http.call('POST', REST_PATH, { headers: { 'content-type': 'text/xml; charset=utf-8' }, body });
    const text = res.text();
    const answer = readAnswer(text);
    if (answer === undefined) {
      if (res.status >= 400 && res.status < 500) {
        throw new CarrierRefusedError(`Packeta answered ${operation} with HTTP ${res.status} and no <response>`, { 'settings.baseUrl': [`HTTP ${res.status} from Packeta's REST API`] });
      }
      throw new CarrierTransientError(`Packeta answered ${operation} with HTTP ${res.status} and no <response>`, undefined, res.status);
    }
    if (answer.ok) return { result: answer.result, text };
    if (answer.fault === 'IncorrectApiPasswordFault') throw new PacketaCredentialsRefused(answer.message || answer.fault);
    const { message, errors } = parseRefusal(answer.fault, answer.message, answer.detail, fields);
    throw new PacketaRefusedError(message, errors, answer.fault);
  }

  /** `createPacket`: one packet, Packeta's id and barcode of it. */
  async createPacket(attributes: PacketaPacketAttributes): Promise<PacketaCreatedPacket> {
    return parseCreated(await this.send('createPacket', createPacketRequest(this.apiPassword, attributes)));
  }

  /** `createPacketClaim`: one return packet (Claim Assistant), Packeta's id and barcode of it (PacketIdDetail). */
  async createPacketClaim(attributes: PacketaClaimAttributes): Promise<PacketaCreatedPacket> {
    return parseCreated(await this.send('createPacketClaim', createPacketClaimRequest(this.apiPassword, attributes), CLAIM_FIELDS));
  }

  /** `cancelPacket`; a packet Packeta does not know (PacketIdFault) has nothing left to cancel. */
  async cancelPacket(packetId: string): Promise<void> {
    try {
      await this.call('cancelPacket', { packetId });
    } catch (err) {
      if (!(err instanceof PacketaRefusedError && err.fault === 'PacketIdFault')) throw err;
    }
  }

  /** `packetsLabelsPdf`: the packets' labels in one PDF, a page each in the asked order. */
  async labelsPdf(packetIds: readonly string[]): Promise<Buffer> {
    const result = await this.call('packetsLabelsPdf', { packetIds: { id: packetIds }, format: PACKETA_PDF_FORMAT, offset: 0 });
    return Buffer.from(xmlString(result) ?? '', 'base64');
  }

  /** `packetLabelZpl`: one packet's label as ZPL text. */
  async labelZpl(packetId: string): Promise<Buffer> {
    return Buffer.from(xmlString(await this.call('packetLabelZpl', { packetId, dpi: ZPL_DPI })) ?? '', 'utf8');
  }

  /**
   * `packetCourierNumber`: the number the partner carrier that delivers the packet to the door gave it; undefined
   * where Packeta delivers the packet itself (NotSupportedFault: no partner carrier, Packeta's own label serves).
   */
  async courierNumber(packetId: string): Promise<string | undefined> {
    try {
      return xmlString(await this.call('packetCourierNumber', { packetId })) || undefined;
    } catch (err) {
      if (err instanceof PacketaRefusedError && err.fault === 'NotSupportedFault') return undefined;
      throw err;
    }
  }

  /** The partner carrier's label of a packet: `packetCourierLabelPdf` (its own page size), or `packetCourierLabelZpl`. */
  async courierLabel(packetId: string, courierNumber: string, format: 'pdf' | 'zpl'): Promise<Buffer> {
    if (format === 'zpl') return Buffer.from(xmlString(await this.call('packetCourierLabelZpl', { packetId, courierNumber, dpi: ZPL_DPI })) ?? '', 'utf8');
    return Buffer.from(xmlString(await this.call('packetCourierLabelPdf', { packetId, courierNumber })) ?? '', 'base64');
  }

  /** `packetTracking` as the REST `<response>` text; undefined where Packeta knows no such packet (PacketIdFault). */
  async tracking(packetId: string): Promise<string | undefined> {
    try {
      return (await this.answer('packetTracking', restRequest('packetTracking', this.apiPassword, { packetId }))).text;
    } catch (err) {
      if (err instanceof PacketaRefusedError && err.fault === 'PacketIdFault') return undefined;
      throw err;
    }
  }

  /** `senderGetReturnRouting`: a cheap authenticated read that also checks the sender indication. */
  async returnRouting(sender: string): Promise<void> {
    await this.call('senderGetReturnRouting', { sender });
  }

  /**
   * Every pickup point and Z-BOX of the point feed (`/v5/<API key>/branch.json` and `box.json`, docs.packetery.com
   * "Branch export version 5"), under `baseUrl` where the channel sets one. Kept for a while and shared by the calls
   * that ask meanwhile; a failed download is not kept.
   */
  static points(settings: ChannelSettings, ctx: CarrierContext): Promise<PickupPoint[]> {
    const apiPassword = typeof settings.apiPassword === 'string' ? settings.apiPassword : '';
    const key = apiKeyOf(apiPassword);
    const base = typeof settings.baseUrl === 'string' && settings.baseUrl ? settings.baseUrl : FEED_HOST;
    const http = new CarrierHttp('packeta', base, ctx, [apiPassword, key]);
    const feed = async (file: string, type: 'parcelshop' | 'locker') => {
      const res = await http.call('GET', `v5/${encodeURIComponent(key)}/${file}?lang=en`);
      const list = res.status === 200 ? jsonOrUndefined<PacketaFeedPoint[]>(res) : undefined;
      if (res.status === 401 || res.status === 403) throw new PacketaCredentialsRefused(`the point feed refused the API key (HTTP ${res.status})`);
      if (!Array.isArray(list)) throw new CarrierTransientError(`Packeta's point feed ${file} could not be read (HTTP ${res.status})`, undefined, res.status);
      return pickupPointsOf(list, type);
    };
    return feeds.get(`${http.url('v5')}\n${key}`, ctx.clock, async () => {
      const [branches, boxes] = await Promise.all([feed('branch.json', 'parcelshop'), feed('box.json', 'locker')]);
      return [...branches, ...boxes];
    });
  }
}
