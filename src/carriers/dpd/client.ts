import { resolveBaseUrl } from '../base-url.js';
import { CarrierHttp, jsonOrUndefined, TokenRejected, type TokenAuth, type TokenSource } from '../carrier-http.js';
import { CarrierCredentialsRefusedError, CarrierRefusedError, CarrierTransientError } from '../errors.js';
import type { CarrierResponse } from '../http.js';
import { readSoapBody, soapElement, soapEnvelope, SoapFault, soapHttpHeaders, xmlObject, xmlString, type SoapService } from '../soap.js';
import type { CarrierContext } from '../types.js';
import type { DpdPickupSchedule, DpdShipmentRequest } from './request.js';
import { parseDpdErrors, parsePickupAnswer, type DpdCreatedBody, type DpdError, type DpdPickupAnswer } from './response.js';
import type { DpdSettings } from './settings.js';

/** META-API servers (OpenAPI `servers`); declared here, the provider definition reads them. */
export const DPD_BASE_URLS = {
  production: 'https://api.dpdgroup.com',
  sandbox: 'https://api-preprod.dpsin.dpdgroup.com:8443',
};

/** DPD's public web services (LoginService, ParcelLifeCycleService); with a base URL override both APIs live there. */
const DPD_WEB_SERVICES = { production: 'https://public-ws.dpd.com/services', sandbox: 'https://public-ws-stage.dpd.com/services' };

const SEUR = '020';
const DAY_SECONDS = 86_400;

const dpdService = (name: string, version: string): SoapService => ({
  version: '1.1', namespace: `http://dpd.com/common/service/types/${name}/${version}`, qualified: false,
  action: (operation) => `http://dpd.com/common/service/types/${name}/${version}/${operation}`,
});
const LOGIN_SERVICE = dpdService('LoginService', '2.0');
const LIFE_CYCLE_SERVICE = dpdService('ParcelLifeCycleService', '2.0');
const AUTHENTICATION = dpdService('Authentication', '2.0');

/** DPD refused the login or password (or SEUR's client id and secret): a refusal of the channel's settings. */
export class DpdCredentialsRefused extends CarrierCredentialsRefusedError {
  constructor(reason: string, fields: readonly string[] = ['settings.login', 'settings.password']) {
    super(`DPD refused the credentials: ${reason}`, Object.fromEntries(fields.map((f) => [f, ['refused by DPD']])));
  }
}

/** A web-service fault's `errorCode: errorMessage` (authenticationFault, faults …), else its faultstring. */
function faultText(fault: SoapFault): string {
  const detail = Object.values(fault.detail).map(xmlObject)[0] ?? {};
  const code = xmlString(detail.errorCode) ?? xmlString(detail.faultCode);
  const message = xmlString(detail.errorMessage) ?? xmlString(detail.message) ?? fault.reason;
  return code ? `${code}: ${message}` : message;
}

function errorText(res: CarrierResponse): string {
  const body = jsonOrUndefined<DpdError | DpdError[]>(res);
  const first = Array.isArray(body) ? body[0] : body;
  return [first?.errorCode, first?.errorMessage].filter(Boolean).join(': ') || `HTTP ${res.status}`;
}

/** The only DPD code that does network I/O: META-API login and shipment, web-service login and tracking. */
export class DpdClient {
  private readonly meta: CarrierHttp;
  private readonly webServices: CarrierHttp;
  private readonly metaAuth: TokenAuth;
  private readonly webServicesAuth: TokenSource;
  private readonly secrets: string[];

  constructor(private readonly settings: DpdSettings, ctx: CarrierContext) {
    const secrets = [settings.password, settings.clientSecret ?? ''].filter(Boolean);
    this.secrets = secrets;
    this.meta = new CarrierHttp('dpd', resolveBaseUrl({ name: 'DPD', baseUrls: DPD_BASE_URLS }, settings), ctx, secrets);
    const services = settings.baseUrl ? `${settings.baseUrl.replace(/\/$/, '')}/services` : DPD_WEB_SERVICES[settings.sandboxMode ? 'sandbox' : 'production'];
    this.webServices = new CarrierHttp('dpd', services, ctx, secrets);
    this.metaAuth = {
      credentials: [settings.buCode, settings.login, settings.password, settings.clientId ?? '', settings.clientSecret ?? ''],
      present: (token) => ({ authorization: `Bearer ${token}` }),
      fetchToken: async (http) => {
        const res = await http.call('POST', '/shipping/v1/login', { headers: this.loginHeaders() });
        // 400 is a business unit code DPD does not know; 401 a wrong login, password or SEUR client.
        if (res.status === 400) throw new DpdCredentialsRefused(errorText(res), ['settings.buCode']);
        if (res.status === 401 || res.status === 403) throw new DpdCredentialsRefused(errorText(res));
        const token = res.headers.get('x-dpd-token');
        if (res.status !== 200 || !token) throw new CarrierTransientError(`DPD login answered HTTP ${res.status}${token ? '' : ' without X-DPD-TOKEN'}`);
        // A token serves 24 hours, SEUR's 30 minutes.
        return { token, expiresInSeconds: settings.buCode === SEUR ? 1800 : DAY_SECONDS };
      },
    };
    this.webServicesAuth = {
      credentials: [settings.login, settings.password],
      fetchToken: async (http) => {
        const answer = await this.soap(http, '/LoginService/V2_0', LOGIN_SERVICE, 'getAuth', { delisId: settings.login, password: settings.password, messageLanguage: settings.messageLanguage })
          .catch((err: unknown) => { throw err instanceof SoapFault ? new DpdCredentialsRefused(faultText(err)) : err; });
        const token = xmlString(xmlObject(xmlObject(answer.body.getAuthResponse).return).authToken);
        if (!token) throw new CarrierTransientError('DPD LoginService answered without an authToken');
        return { token, expiresInSeconds: DAY_SECONDS };
      },
    };
  }

  private loginHeaders(): Record<string, string> {
    const { buCode, login, password, clientId, clientSecret } = this.settings;
    return {
      'x-dpd-bucode': buCode, 'x-dpd-login': login, 'x-dpd-password': password,
      ...(clientId ? { 'x-dpd-clientid': clientId } : {}), ...(clientSecret ? { 'x-dpd-clientsecret': clientSecret } : {}),
    };
  }

  /** One SOAP 1.1 operation of DPD's web services, with the `authentication` header when a token is given. */
  private async soap(http: CarrierHttp, path: string, service: SoapService, operation: string, content: Record<string, string>, token?: string) {
    const header = token ? [{ name: 'authentication', content: { delisId: this.settings.login, authToken: token, messageLanguage: this.settings.messageLanguage } }] : [];
    const envelope = soapEnvelope(AUTHENTICATION, soapElement(service, { name: operation, content }), header);
    const res = await http.call('POST', path, { headers: soapHttpHeaders(service, operation), body: envelope, soapFaults: true });
    const xml = res.text();
    const body = readSoapBody(xml);
    if (body instanceof SoapFault) throw body;
    if (body === undefined || res.status >= 300) throw new CarrierTransientError(`DPD ${path} answered HTTP ${res.status} without a SOAP envelope`);
    return { body, xml };
  }

  /** `POST /shipping/v1/login`: the cheap authenticated call (it is the login). */
  async checkCredentials(): Promise<void> {
    await this.meta.withToken(this.metaAuth, async () => undefined);
  }

  /** `POST /shipping/v1/shipment?LabelPrintFormat=…` (synchronous): shipment id, parcel numbers, one label document. */
  async createShipment(request: DpdShipmentRequest, query: URLSearchParams): Promise<DpdCreatedBody> {
    const res = await this.meta.authed(this.metaAuth, 'POST', `/shipping/v1/shipment?${query}`, { json: request, headers: { 'x-dpd-bucode': this.settings.buCode } });
    if (res.status === 401 || res.status === 403) throw new DpdCredentialsRefused(errorText(res));
    if (res.status === 408) throw new CarrierTransientError(`DPD business unit timed out: ${errorText(res)}`);
    if (res.status !== 200) {
      const { message, errors } = parseDpdErrors(jsonOrUndefined(res), res.status);
      throw new CarrierRefusedError(message, errors);
    }
    return res.json<DpdCreatedBody>();
  }

  /** `POST /shipping/v1/pickupscheduling` (meta-api-docs.json `shippingV1PickupschedulingPost`): DPD's pickup reference. */
  async schedulePickup(request: DpdPickupSchedule): Promise<string> {
    const res = await this.meta.authed(this.metaAuth, 'POST', '/shipping/v1/pickupscheduling', { json: request, headers: { 'x-dpd-bucode': this.settings.buCode } });
    if (res.status === 401 || res.status === 403) throw new DpdCredentialsRefused(errorText(res));
    if (res.status === 408) throw new CarrierTransientError(`DPD business unit timed out: ${errorText(res)}`);
    if (res.status !== 200) {
      const { message, errors } = parseDpdErrors(jsonOrUndefined(res), res.status);
      throw new CarrierRefusedError(message, errors);
    }
    return parsePickupAnswer(res.json<DpdPickupAnswer>());
  }

  /** ParcelLifeCycleService `getTrackingData`, one parcel a call: the answer's envelope, for the pure parser. */
  async trackingData(parcelLabelNumber: string): Promise<string | undefined> {
    return this.webServices.withToken(this.webServicesAuth, async (token, retried) => {
      // The token travels in the envelope: the call's traces redact it too.
      const http = new CarrierHttp('dpd', this.webServices.base, this.webServices.ctx, [...this.secrets, token]);
      try {
        return (await this.soap(http, '/ParcelLifeCycleService/V2_0', LIFE_CYCLE_SERVICE, 'getTrackingData', { parcelLabelNumber }, token)).xml;
      } catch (err) {
        if (!(err instanceof SoapFault)) throw err;
        // LOGIN_5 and LOGIN_6 are DPD's expired or unknown token; another authenticationFault (DELICOM_ERR_AUTHENTICATION)
        // refuses the login; any other fault is about the number.
        if (/LOGIN_[56]/.test(faultText(err)) && !retried) throw new TokenRejected();
        if ('authenticationFault' in err.detail) throw new DpdCredentialsRefused(faultText(err));
        return undefined;
      }
    });
  }
}
