import { resolveBaseUrl } from '../base-url.js';
import type { FieldErrors } from '../../domain/errors.js';
import { CarrierHttp } from '../carrier-http.js';
import { CarrierCredentialsRefusedError, CarrierRefusedError, CarrierTransientError } from '../errors.js';
import { soapCall, SoapFault, type SoapPart, type SoapService, type XmlObject } from '../soap.js';
import type { CarrierContext, LabelFormat, PickupPoint, PickupRequest, ShipmentForCarrier, TrackResult } from '../types.js';
import {
  bookCourierPart, createPart, deleteShipmentsPart, dhlPostalCode, getLabelsPart, getPieceIdPart, labelsDataPart, myShipmentsCountPart,
  myShipmentsPart, nearestServicepointsPart, pnpPart, postalCodeServicesPart, trackAndTracePart,
} from './request.js';
import {
  dispatchFaultRefusal, faultRefusal, isCredentialFault, isServerTrouble, parseBookedBody, parseCreatedBody, parseDeletedBody, parseLabelsBody,
  parseLabelsDataBody, parseMyShipmentsBody, parsePieceIdsBody, parsePnpBody, parsePostalCodeServicesBody, parseServicepointsBody, parseTrackingBody, postalCodeServicesFaultRefusal,
  servicepointsFaultRefusal,
  type DhlPlCreated, type DhlPlPickupKind, type DhlPlPostalCodeServices, type DhlPlTrackingAsked,
} from './response.js';
import { DHL_PL_BASE_URLS, dhlPlService, SERVICE_PATH } from './service.js';
import type { DhlPlSettings } from './settings.js';

export { DHL_PL_BASE_URLS };

/** Shipments a getLabelsData call is asked for: DHL publishes no limit, 10 is our own pace. */
export const LABELS_DATA_BATCH = 10;

/** DHL24 refused the user name or password (fault 100). */
export class DhlPlCredentialsRefused extends CarrierCredentialsRefusedError {
  constructor(readonly reason: string) {
    super(`DHL Parcel Poland refused the credentials: ${reason}`, { shipping_channel_id: [`DHL Parcel Poland refused the channel's credentials: ${reason}`] });
  }
}

/**
 * The only DHL Parcel Poland code that does network I/O: one method per WebAPI2 operation. A Fault with DHL's own
 * code is DHL's answer (a refusal); a plain Server fault is the service's trouble, worth another try.
 */
export class DhlPlClient {
  private readonly http: CarrierHttp;
  private readonly service: SoapService;

  constructor(private readonly settings: DhlPlSettings, ctx: CarrierContext) {
    this.http = new CarrierHttp('dhl_pl', resolveBaseUrl({ name: 'DHL Parcel Poland', baseUrls: DHL_PL_BASE_URLS }, settings), ctx, [settings.password]);
    this.service = dhlPlService(settings.sandboxMode);
  }

  /** One operation; DHL's refusal becomes CarrierRefusedError through `refusal` (the shipment's field paths unless told). */
  private async call(part: SoapPart, refusal: (fault: SoapFault) => { message: string; errors: FieldErrors } = faultRefusal): Promise<XmlObject> {
    try {
      return await soapCall(this.http, SERVICE_PATH, this.service, part);
    } catch (err) {
      if (!(err instanceof SoapFault)) throw err;
      if (isCredentialFault(err)) throw new DhlPlCredentialsRefused(err.reason);
      if (isServerTrouble(err)) throw new CarrierTransientError(`DHL Parcel Poland could not answer ${part.name} now: ${err.reason}`);
      const { message, errors } = refusal(err);
      throw new CarrierRefusedError(message, errors);
    }
  }

  /** getMyShipmentsCount for one day answers any valid login. */
  async checkCredentials(day: string): Promise<void> {
    await this.call(myShipmentsCountPart(day, day, this.settings));
  }

  /** createShipments to a door, createShipment to a DHL point: the waybill DHL gave the shipment, or its refusal. */
  async create(s: ShipmentForCarrier): Promise<DhlPlCreated> {
    return parseCreatedBody(await this.call(createPart(s, this.settings)));
  }

  /** getNearestServicepoints: DHL's points near a post code or in a city. */
  async nearestServicepoints(query: Parameters<typeof nearestServicepointsPart>[0]): Promise<PickupPoint[]> {
    return parseServicepointsBody(await this.call(nearestServicepointsPart(query, this.settings), servicepointsFaultRefusal));
  }

  async pieceIds(shipmentId: string): Promise<string[]> {
    return parsePieceIdsBody(await this.call(getPieceIdPart(shipmentId, this.settings)), shipmentId);
  }

  async labels(shipmentId: string, format: LabelFormat): Promise<Buffer | undefined> {
    return parseLabelsBody(await this.call(getLabelsPart(shipmentId, format, this.settings)), shipmentId);
  }

  async deleteShipments(shipmentIds: readonly string[]): Promise<ReturnType<typeof parseDeletedBody>> {
    return parseDeletedBody(await this.call(deleteShipmentsPart(shipmentIds, this.settings)));
  }

  async myShipments(from: string, to: string, offset: number): Promise<ReturnType<typeof parseMyShipmentsBody>> {
    return parseMyShipmentsBody(await this.call(myShipmentsPart(from, to, offset, this.settings)));
  }

  async labelsData(shipmentIds: readonly string[]): Promise<ReturnType<typeof parseLabelsDataBody>> {
    return parseLabelsDataBody(await this.call(labelsDataPart(shipmentIds, this.settings)));
  }

  /** bookCourier: DHL's courier order numbers for the shipments; a refusal lands on the dispatch's fields. */
  async bookCourier(shipmentIds: readonly string[], pickup: PickupRequest): Promise<string[]> {
    return parseBookedBody(await this.call(bookCourierPart(shipmentIds, pickup, this.settings), (fault) => dispatchFaultRefusal(fault, 'the courier booking')));
  }

  /** getPnp: the PNP report of the shipments sent on `day`, a PDF. */
  async pnp(day: string): Promise<Buffer | undefined> {
    return parsePnpBody(await this.call(pnpPart(day, this.settings), (fault) => dispatchFaultRefusal(fault, `the PNP report of ${day}`)));
  }

  /** getPostalCodeServices: DHL's courier hours for the `kind` of shipments at a post code on a day. */
  async postalCodeServices(postalCode: string, date: string, kind: DhlPlPickupKind): Promise<DhlPlPostalCodeServices> {
    const body = await this.call(postalCodeServicesPart(postalCode, date, this.settings), postalCodeServicesFaultRefusal);
    return parsePostalCodeServicesBody(body, kind, dhlPostalCode(postalCode));
  }

  /** getTrackAndTraceInfo for one shipment, whose events its parcels share; DHL's fault for a number it does not know is "not found". */
  async track(asked: DhlPlTrackingAsked): Promise<TrackResult[]> {
    try {
      return parseTrackingBody(await this.call(trackAndTracePart(asked.shipmentId, this.settings)), asked);
    } catch (err) {
      if (err instanceof CarrierRefusedError && !(err instanceof DhlPlCredentialsRefused)) return asked.trackingNumbers.map((trackingNumber) => ({ trackingNumber, found: false }));
      throw err;
    }
  }
}
