import { resolveBaseUrl } from '../base-url.js';
import { CarrierHttp } from '../carrier-http.js';
import { CarrierCredentialsRefusedError, CarrierRefusedError, CarrierTransientError } from '../errors.js';
import { soapCall, SoapFault, type SoapPart, type SoapService, type XmlObject } from '../soap.js';
import type { CarrierContext, CarrierParty, LabelFormat, PickupRequest, ShipmentForCarrier, ShipmentToDispatch } from '../types.js';
import type { DpdPlSessionType } from './codes.js';
import {
  courierOrderAvailabilityPart, dpdPostalCode, eventsForWaybillPart, findPostalCodePart, generatePackagesNumbersPart, generateProtocolPart,
  generateSpedLabelsPart, packagesPickupCallPart, returnLabelPart, type DpdPackageLookup,
} from './request.js';
import {
  faultDetail, faultRefusal, isCredentialFault, parseAvailabilityBody, parseCreatedBody, parseLabelsBody, parsePickupBody, parseProtocolBody,
  parseReturnLabelBody, type DpdPlAvailability, type DpdPlCreated, type DpdPlLabels, type DpdPlPickup, type DpdPlProtocol, type DpdPlReturnLabel,
} from './response.js';
import { DPD_INFO_SERVICE, DPD_PACKAGE_SERVICE, INFO_SERVICE_PATH, PACKAGE_SERVICE_PATH } from './services.js';
import type { DpdPlSettings } from './settings.js';

/** DPDServices hosts (t3ko/dpd-pl-api-php `Api::PACKAGESERVICE_*_WSDL_URL`); the service path is below each. */
export const DPD_PL_BASE_URLS = { production: 'https://dpdservices.dpd.com.pl', sandbox: 'https://dpdservicesdemo.dpd.com.pl' };

/** Info Services has one host and no sandbox (t3ko/dpd-pl-api-php `Api::INFOSERVICE_PRODUCTION_WSDL_URL`). */
const INFO_SERVICES_URL = `https://dpdinfoservices.dpd.com.pl${INFO_SERVICE_PATH}`;

/** DPD refused the login, password or master FID ("Login failed"). */
export class DpdPlCredentialsRefused extends CarrierCredentialsRefusedError {
  constructor(readonly reason: string) {
    super(`DPD Poland refused the credentials: ${reason}`, { shipping_channel_id: [`DPD Poland refused the channel's credentials: ${reason}`] });
  }
}

/**
 * DPD's server answered with a Fault of its own (no DPD exception in it, e.g. "Unexpected error during executing
 * webserwice"): the operation failed there and carried nothing out, so it may be sent again. A lost answer (timeout,
 * dropped connection) is a plain CarrierTransientError: the operation may have been carried out.
 */
export class DpdPlServerFault extends CarrierTransientError {}

/**
 * The only DPD Poland code that does network I/O: one method per operation. A Fault with DPD's exception in its
 * detail is DPD's answer (a refusal); a Fault without one is the server's trouble, worth another try.
 */
export class DpdPlClient {
  private readonly http: CarrierHttp;
  private readonly infoUrl: string;

  constructor(private readonly settings: DpdPlSettings, ctx: CarrierContext) {
    this.http = new CarrierHttp('dpd_pl', resolveBaseUrl({ name: 'DPD Poland', baseUrls: DPD_PL_BASE_URLS }, settings), ctx, [settings.password]);
    // an overridden base URL (an emulator, a proxy) serves both services
    this.infoUrl = settings.baseUrl ? INFO_SERVICE_PATH : INFO_SERVICES_URL;
  }

  private async call(service: SoapService, path: string, part: SoapPart): Promise<XmlObject> {
    try {
      return await soapCall(this.http, path, service, part);
    } catch (err) {
      if (!(err instanceof SoapFault)) throw err;
      if (isCredentialFault(err)) throw new DpdPlCredentialsRefused(faultDetail(err)!.message);
      if (!faultDetail(err)) throw new DpdPlServerFault(`DPD Poland could not answer ${part.name} now: ${err.reason}`);
      const { message, errors } = faultRefusal(err);
      throw new CarrierRefusedError(message, errors);
    }
  }

  /** findPostalCodeV1 answers any valid login, whatever the code's status. */
  async checkCredentials(): Promise<void> {
    await this.call(DPD_PACKAGE_SERVICE, PACKAGE_SERVICE_PATH, findPostalCodePart(this.settings));
  }

  async generatePackagesNumbers(s: ShipmentForCarrier): Promise<DpdPlCreated> {
    return parseCreatedBody(await this.call(DPD_PACKAGE_SERVICE, PACKAGE_SERVICE_PATH, generatePackagesNumbersPart(s, this.settings)));
  }

  async generateSpedLabels(lookup: DpdPackageLookup, sessionType: DpdPlSessionType, format: LabelFormat): Promise<DpdPlLabels> {
    const part = generateSpedLabelsPart(lookup, sessionType, format, this.settings);
    return parseLabelsBody(await this.call(DPD_PACKAGE_SERVICE, PACKAGE_SERVICE_PATH, part));
  }

  /** The return label of a return (`returnOf` set): generateDomesticReturnLabelV1 or generateReturnLabelV1. */
  async generateReturnLabel(s: ShipmentForCarrier, returnOf: NonNullable<ShipmentForCarrier['returnOf']>): Promise<DpdPlReturnLabel> {
    const part = returnLabelPart(s, returnOf, this.settings);
    return parseReturnLabelBody(await this.call(DPD_PACKAGE_SERVICE, PACKAGE_SERVICE_PATH, part), part.name);
  }

  /** generateProtocolV2 of the shipments' parcels, or the duplicate of protocol `documentId`. */
  async generateProtocol(shipments: readonly ShipmentToDispatch[], sessionType: DpdPlSessionType, sender: CarrierParty, documentId?: string): Promise<DpdPlProtocol> {
    const part = generateProtocolPart(shipments, sessionType, sender, this.settings, documentId);
    return parseProtocolBody(await this.call(DPD_PACKAGE_SERVICE, PACKAGE_SERVICE_PATH, part));
  }

  async packagesPickupCall(pickup: PickupRequest, sender: CarrierParty, shipments: readonly ShipmentToDispatch[]): Promise<DpdPlPickup> {
    return parsePickupBody(await this.call(DPD_PACKAGE_SERVICE, PACKAGE_SERVICE_PATH, packagesPickupCallPart(pickup, sender, shipments, this.settings)));
  }

  /** getCourierOrderAvailabilityV1: the courier's ranges at the sender's place. */
  async courierOrderAvailability(sender: CarrierParty): Promise<DpdPlAvailability> {
    const body = await this.call(DPD_PACKAGE_SERVICE, PACKAGE_SERVICE_PATH, courierOrderAvailabilityPart(sender, this.settings));
    return parseAvailabilityBody(body, dpdPostalCode(sender.postalCode));
  }

  /** getEventsForWaybillV1: the raw answer's Body, one waybill per call. */
  async eventsForWaybill(waybill: string): Promise<XmlObject> {
    return this.call(DPD_INFO_SERVICE, this.infoUrl, eventsForWaybillPart(waybill, this.settings));
  }
}
