/**
 * DPD's web services in the emulator: LoginService 2.0 `getAuth` and ParcelLifeCycleService 2.0 `getTrackingData`
 * (SOAP 1.1; types as the ParcelLifecycleServiceV20.xsd in github.com/karrioapi/karrio, modules/connectors/dpd/schemas/).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { XMLParser } from 'fast-xml-parser';
import { isBadCredential } from '../emulator/auth.js';
import { EmulatedSoapFault, serveSoap } from '../emulator/soap.js';
import type { EmulatedTokens } from '../emulator/tokens.js';
import type { EmulatedEvent, EmulatedShipments } from '../emulator/shipments.js';
import type { SoapService, XmlElement, XmlObject } from '../soap.js';
import { DPD_TRACKING } from './codes.js';
import type { SeenShipment } from './emulator-validation.js';

const dpdService = (name: string, version: string): SoapService => ({
  version: '1.1', namespace: `http://dpd.com/common/service/types/${name}/${version}`, qualified: false,
  action: (operation) => `http://dpd.com/common/service/types/${name}/${version}/${operation}`,
});
export const LOGIN_SERVICE = dpdService('LoginService', '2.0');
export const LIFE_CYCLE_SERVICE = dpdService('ParcelLifeCycleService', '2.0');

/** The sending depot the emulated accounts belong to (the depot of DPD's own examples, 0530). */
export const EMULATED_DEPOT = '0530';

const headerParser = new XMLParser({ removeNSPrefix: true, ignoreAttributes: true, parseTagValue: false, trimValues: true });

/** The `authentication` header block (namespace Authentication/2.0), which the service's own reader leaves out. */
function authenticationOf(request: FastifyRequest): { delisId?: string; authToken?: string } {
  try {
    const parsed = headerParser.parse(String(request.body)) as { Envelope?: { Header?: { authentication?: { delisId?: string; authToken?: string } } } };
    return parsed.Envelope?.Header?.authentication ?? {};
  } catch {
    return {};
  }
}

/** A ParcelLifeCycleService date: `8/17/2021 7:11:26 PM` (the emulator's clock, UTC). */
export function lifeCycleDate(at: number): string {
  const d = new Date(at);
  const h = d.getUTCHours();
  const two = (n: number) => String(n).padStart(2, '0');
  return `${d.getUTCMonth() + 1}/${d.getUTCDate()}/${d.getUTCFullYear()} ${h % 12 || 12}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())} ${h < 12 ? 'AM' : 'PM'}`;
}

const ORIGIN_CODES = new Set(['SHIPMENT', 'PickedUp', 'BetweenDepots']);

const line = (content: string): XmlElement => ({ content, bold: false, paragraph: false });

/** One reached step of a parcel's life cycle, as `statusInfo`. */
export function statusInfo(event: EmulatedEvent, current: boolean, location?: string): XmlElement {
  const name = DPD_TRACKING.codes[event.code]?.name ?? event.code;
  return {
    status: event.code, label: line(name), description: { content: [line(name)] },
    statusHasBeenReached: true, isCurrentStatus: current, showContactInfo: false,
    ...(location ? { location: line(location) } : {}), date: line(lifeCycleDate(event.at)),
  };
}

function authFault(errorCode: string, errorMessage: string): EmulatedSoapFault {
  return new EmulatedSoapFault('Server', 'Fault occured', { name: 'authenticationFault', content: { errorCode, errorMessage } });
}

/**
 * DPD's answer to a login it refuses, at getAuth and on a call with a token of it (karrio, modules/connectors/dpd/tests/dpd/
 * test_authentication.py and test_tracking.py `ErrorResponse`).
 */
const refusedLogin = () => authFault('DELICOM_ERR_AUTHENTICATION', 'Authentication failure, check delisId and password.');

/** `refused` tells a login DPD no longer accepts (its password changed, the account closed) from one it does. */
export function serveWebServices(
  app: FastifyInstance, tokens: EmulatedTokens, shipments: EmulatedShipments<SeenShipment>, refused: (delisId: string) => boolean,
): void {
  serveSoap(app, '/services/LoginService/V2_0', LOGIN_SERVICE, {
    getAuth: ({ body }: { body: XmlObject }) => {
      const delisId = typeof body.delisId === 'string' ? body.delisId : '';
      const password = typeof body.password === 'string' ? body.password : '';
      if (!delisId || !password || isBadCredential(delisId, password) || refused(delisId)) throw refusedLogin();
      return {
        name: 'getAuthResponse',
        content: { return: { delisId, customerUid: delisId, authToken: tokens.issue(delisId), depot: EMULATED_DEPOT } },
      };
    },
  });

  serveSoap(app, '/services/ParcelLifeCycleService/V2_0', LIFE_CYCLE_SERVICE, {
    getTrackingData: ({ body }, request) => {
      const { delisId, authToken } = authenticationOf(request);
      const owner = authToken ? tokens.ownerOf(authToken) : undefined;
      if (!owner || owner !== delisId) throw authFault('LOGIN_5', 'The authToken is invalid or has expired.');
      if (refused(owner)) throw refusedLogin();
      const number = typeof body.parcelLabelNumber === 'string' ? body.parcelLabelNumber : '';
      const found = shipments.parcel(number, owner);
      // An unknown number gets an empty result: every element of `trackingresult` is optional.
      if (!found) return { name: 'getTrackingDataResponse', content: { trackingresult: '' } };
      const { shipment, parcel } = found;
      // Scans before the line haul happen at the sender's depot, the others at the receiver's.
      const placeOf = (e: EmulatedEvent) => {
        const { address } = ORIGIN_CODES.has(e.code) ? shipment.request.sender : shipment.request.receiver;
        return `${address.city} (${address.country})`;
      };
      const events = parcel.events.map((e, i) => statusInfo(e, i === parcel.events.length - 1, placeOf(e)));
      return { name: 'getTrackingDataResponse', content: { trackingresult: { statusInfo: events } } };
    },
  });
}
