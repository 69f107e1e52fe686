import { resolveBaseUrl } from '../base-url.js';
import { CarrierHttp } from '../carrier-http.js';
import { CarrierCredentialsRefusedError, CarrierRefusedError, CarrierTransientError } from '../errors.js';
import { soapCall, SoapFault, type SoapPart, type SoapService, type XmlObject } from '../soap.js';
import type { CarrierContext, ShipmentForCarrier } from '../types.js';
import { authInfoHeader, cancelarEnvioPart, etiquetaEnvioPart, getEnviosPart, transmEnvioPart, type MrwTrackingFilter } from './request.js';
import {
  faultRefusal, parseCancelarBody, parseEtiquetaBody, parseGetEnviosBody, parseTransmEnvioBody,
  type MrwCancelled, type MrwCreated, type MrwLabel, type MrwTracking,
} from './response.js';
import { SAGEC_PATH, SAGEC_SERVICE, TRACKING_PATH, TRACKING_SERVICE } from './services.js';
import type { MrwSettings } from './settings.js';

/** SAGEC hosts (MRW's WSDLs: sagec.mrw.es, sagec-test.mrw.es); the service is `/MRWEnvio.asmx` below each. */
export const MRW_BASE_URLS = { production: 'https://sagec.mrw.es', sandbox: 'https://sagec-test.mrw.es' };

/** TrackingService is a host of its own (its WSDL's soap:address; the test host as MRW's PrestaShop module names it). */
const TRACKING_HOSTS = { production: 'https://trackingservice.mrw.es', sandbox: 'https://trackingservice-test.mrw.es' };

/** MRW refused the franchise, subscriber, user or password ("El usuario especificado no dispone de acceso al sistema …"). */
export class MrwCredentialsRefused extends CarrierCredentialsRefusedError {
  constructor(readonly reason: string) {
    super(`MRW refused the credentials: ${reason}`, { shipping_channel_id: [`MRW refused the channel's credentials: ${reason}`] });
  }
}

/**
 * The only MRW code that does network I/O: one method per operation. SAGEC answers its refusals in the result
 * (`Estado` 0); a SOAP Fault is .NET's answer to a request it could not read (Client: ours to fix) or its own
 * trouble (Server: worth another try).
 */
export class MrwClient {
  private readonly http: CarrierHttp;
  private readonly trackingUrl: string;

  constructor(private readonly settings: MrwSettings, ctx: CarrierContext) {
    const secrets = [settings.password, settings.trackingPassword].filter((s): s is string => Boolean(s));
    this.http = new CarrierHttp('mrw', resolveBaseUrl({ name: 'MRW', baseUrls: MRW_BASE_URLS }, settings), ctx, secrets);
    // an overridden base URL (an emulator, a proxy) serves both services
    this.trackingUrl = settings.baseUrl ? TRACKING_PATH : `${settings.sandboxMode ? TRACKING_HOSTS.sandbox : TRACKING_HOSTS.production}${TRACKING_PATH}`;
  }

  private async call(service: SoapService, path: string, part: SoapPart, headers: readonly SoapPart[] = []): Promise<XmlObject> {
    try {
      return await soapCall(this.http, path, service, part, headers);
    } catch (err) {
      if (!(err instanceof SoapFault)) throw err;
      if (err.code !== 'Client') throw new CarrierTransientError(`MRW could not answer ${part.name} now: ${err.reason}`);
      const { message, errors } = faultRefusal(err);
      throw new CarrierRefusedError(message, errors);
    }
  }

  private sagec(part: SoapPart): Promise<XmlObject> {
    return this.call(SAGEC_SERVICE, SAGEC_PATH, part, [authInfoHeader(this.settings)]);
  }

  async transmEnvio(s: ShipmentForCarrier): Promise<MrwCreated> {
    return parseTransmEnvioBody(await this.sagec(transmEnvioPart(s, this.settings)));
  }

  async etiquetaEnvio(numeroEnvio: string): Promise<MrwLabel> {
    return parseEtiquetaBody(await this.sagec(etiquetaEnvioPart(numeroEnvio)));
  }

  async cancelarEnvio(numeroEnvio: string): Promise<MrwCancelled> {
    return parseCancelarBody(await this.sagec(cancelarEnvioPart(numeroEnvio)));
  }

  /** TrackingService GetEnvios, by albarán or by the shipment's reference. */
  async getEnvios(filter: MrwTrackingFilter): Promise<MrwTracking> {
    const tracking = parseGetEnviosBody(await this.call(TRACKING_SERVICE, this.trackingUrl, getEnviosPart(filter, this.settings)));
    if (tracking.state === 'credentials_refused') throw new MrwCredentialsRefused(tracking.reason);
    return tracking;
  }
}
