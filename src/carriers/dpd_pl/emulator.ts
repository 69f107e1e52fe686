/**
 * DPD Poland's DPDServices as a local server: DPDPackageObjServices (generatePackagesNumbersV4, generateSpedLabelsV4,
 * generateProtocolV2, packagesPickupCallV4, getCourierOrderAvailabilityV1, findPostalCodeV1) and DPD Info Services (getEventsForWaybillV1) at their
 * real paths, SOAP 1.1 with authDataV1 in every call, DPD's schema validation, package statuses with
 * ValidationDetails, document statuses (statusDGREnumV1), courier-order errorDetails, and DPDServiceException faults;
 * and DPD Polska's point API (mypudo) with the DPD Pickup points packages may go to.
 */
import type { FastifyPluginAsync } from 'fastify';
import { mergeLabels } from '../../labels/index.js';
import type { AdvanceOutcome, AdvanceTarget, EmulatorContext, ProviderEmulator } from '../emulator/contract.js';
import { isBadCredential } from '../emulator/auth.js';
import { renderLabel, type EmulatedLabel } from '../emulator/labels.js';
import { numberSequence } from '../emulator/numbers.js';
import { EmulatedShipments, type EmulatedEvent, type EmulatedShipment } from '../emulator/shipments.js';
import { EmulatedSoapFault, serveSoap, soapFaultResponse } from '../emulator/soap.js';
import { xmlList, xmlObject, xmlString, type XmlElement, type XmlObject } from '../soap.js';
import type { LabelFormat } from '../types.js';
import { DPD_PL_AT_POINT, DPD_PL_TRACKING, sessionTypeOf } from './codes.js';
import { checkAgainstSchema } from './emulator-schema.js';
import { renderProtocol } from './emulator-protocol.js';
import { dpdPlPudos, pudoRoutes } from './emulator-pudo.js';
import { checkPackage, checkPickup, readAddress, type EmulatedAddress, type EmulatedPackage, type PudoLookup, type ValidationInfo } from './emulator-validation.js';
import { DPD_INFO_SERVICE, DPD_PACKAGE_SERVICE, INFO_SERVICE_PATH, PACKAGE_SERVICE_PATH } from './services.js';
import { warsawTime } from '../local-time.js';
import { noSuchPlace } from '../emulator/no-such-place.js';

/** A package DPD keeps; a return's holds the outbound waybills its return label was made for. */
type DpdShipment = EmulatedShipment<EmulatedPackage & { sessionId: string; parcelIds: string[]; returnOf?: string[] }>;

const FORMATS: Readonly<Record<string, LabelFormat>> = { PDF: 'pdf', ZPL: 'zpl', EPL: 'epl' };

/** The courier's ranges at a place DPD serves: DPD's documented example (offset 120 minutes) and a morning range ordered an hour ahead. */
const COURIER_RANGES = [
  { offset: 60, range: '10:00-13:00' }, { offset: 120, range: '14:00-16:00' }, { offset: 120, range: '15:00-17:00' }, { offset: 120, range: '17:00-19:00' },
];

/** findPostalCodeV1's status of a place: a Polish code has five digits, and DPD's post code base has no code of zeros. */
function postalCodeStatus(countryCode: string | undefined, zip: string): string {
  if (countryCode === 'PL' && !/^\d{5}$/.test(zip)) return 'WRONG_POSTAL_PATTERN';
  return noSuchPlace(zip) ? 'NONEXISTING_POSTAL_CODE' : 'OK';
}

/** DPD's business faults: DPDServiceException with its message (customer documentation 2.87: "Login failed"). */
function serviceFault(message: string, exception = 'DPDServiceException'): EmulatedSoapFault {
  return new EmulatedSoapFault('Server', message, { name: exception, content: { message } });
}

/** The caller of a package-services call: authDataV1 {login, masterFid, password}. */
function packageCaller(body: XmlObject): { login: string; masterFid: string } {
  const auth = xmlObject(body.authDataV1);
  if (!('authDataV1' in body)) throw serviceFault('AuthData is null');
  const login = xmlString(auth.login) ?? '';
  const password = xmlString(auth.password) ?? '';
  if (!login || !password || isBadCredential(login, password)) throw serviceFault('Login failed');
  return { login, masterFid: xmlString(auth.masterFid) ?? '' };
}

function validationDetails(errors: readonly ValidationInfo[]): XmlElement | undefined {
  return errors.length > 0 ? { ValidationInfo: errors.map((e) => ({ ...e })) } : undefined;
}

export function createDpdPlEmulator({ code, clock }: EmulatorContext): ProviderEmulator {
  const eventView = (event: EmulatedEvent) => ({
    businessCode: event.code, description: DPD_PL_TRACKING.codes[event.code]?.name ?? null, eventTime: warsawTime.format(event.at),
  });
  const shipments = new EmulatedShipments<DpdShipment['request']>(clock, DPD_PL_TRACKING, eventView);
  const nextWaybill = numberSequence(clock, { prefix: '1305', digits: 14 });
  const nextPackageId = numberSequence(clock, { prefix: '64', digits: 9 });
  const nextParcelId = numberSequence(clock, { prefix: '109', digits: 10 });
  const nextSessionId = numberSequence(clock, { prefix: '61', digits: 9 });
  const nextDocumentId = numberSequence(clock, { prefix: '27', digits: 8 });
  const nextOrderNumber = numberSequence(clock, { prefix: '20', digits: 10 });
  const nextCheckSum = numberSequence(clock, { prefix: '6', digits: 8 });
  const pudos = dpdPlPudos();
  const pudoOf: PudoLookup = (id) => {
    const found = pudos.get(id.trim().toUpperCase());
    return found && { open: found.point.open, cashOnDelivery: found.point.cashOnDelivery };
  };
  /** Protocols by documentId, and the protocol each waybill is in: a parcel goes into one protocol only. */
  const protocols = new Map<string, { owner: string; document: Buffer }>();
  const protocolOfWaybill = new Map<string, string>();
  /** One document for the package's parcels in the asked format, the same bytes every time. */
  const documentOf = (s: DpdShipment, format: LabelFormat): Promise<Buffer> =>
    shipments.document(s, format, (p) => renderLabel(format, labelContent(s, p.number, p.index)));

  const generatePackagesNumbers = (body: XmlObject) => {
    const caller = packageCaller(body);
    if (!('openUMLFeV3' in body)) throw serviceFault('Parameter openUMLV cannot be null');
    const packages = xmlList(xmlObject(body.openUMLFeV3).packages).map(xmlObject);
    if (packages.length === 0) throw serviceFault('One of \'(Package)\' is expected.');
    const begin = new Date(clock.now()).toISOString();
    const answer = (Status: string, Packages: XmlElement[], SessionId?: string) => ({
      name: 'generatePackagesNumbersV4Response',
      content: { return: { Status, SessionId, BeginTime: begin, EndTime: new Date(clock.now()).toISOString(), Packages: { Package: Packages } } },
    });
    if (xmlString(body.langCode) !== 'PL') {
      return answer('UNSUPPORTED_LANG_CODE', packages.map((p) => ({ Status: 'UNSUPPORTED_LANG_CODE', Reference: xmlString(p.reference) })));
    }
    const checks = packages.map((p) => checkPackage(p, caller.masterFid, pudoOf));
    const duplicate = (p: EmulatedPackage) => p.reference !== null && shipments.byReference(caller.login, p.reference).length > 0;
    const views = checks.map((check, i): XmlElement => {
      const Reference = xmlString(packages[i]!.reference);
      if (!check.ok) {
        return {
          Status: check.status, Reference, ValidationDetails: validationDetails(check.errors),
          Parcels: { Parcel: check.parcelErrors.map((errors) => ({ Status: errors.length > 0 ? 'INCORRECT_DATA' : 'OK', ValidationDetails: validationDetails(errors) })) },
        };
      }
      return duplicate(check.pkg) ? { Status: 'DUPLICATED_PACKAGE_REFERENCE', Reference } : { Status: 'OK', Reference };
    });
    const failed = views.find((v) => v.Status !== 'OK');
    // ALL_OR_NOTHING (packdesk's policy) and STOP_ON_FIRST_ERROR create nothing when one package fails
    if (failed) return answer(String(failed.Status), views);
    const sessionId = nextSessionId();
    const created = checks.map((check) => {
      const pkg = (check as { ok: true; pkg: EmulatedPackage }).pkg;
      const s = shipments.add({
        owner: caller.login, referenceId: pkg.reference ?? '', product: pkg.sessionType, labelFormat: 'pdf', id: nextPackageId(),
        request: { ...pkg, sessionId, parcelIds: pkg.parcels.map(() => nextParcelId()) }, numbers: pkg.parcels.map(() => nextWaybill()),
      });
      return {
        Status: 'OK', PackageId: s.id, Reference: pkg.reference ?? undefined,
        Parcels: { Parcel: s.parcels.map((p, i) => ({ Status: 'OK', ParcelId: s.request.parcelIds[i], Reference: pkg.parcels[i]!.reference ?? undefined, Waybill: p.number })) },
      };
    });
    return answer('OK', created, sessionId);
  };

  const generateSpedLabels = async (body: XmlObject) => {
    const caller = packageCaller(body);
    if (!('dpdServicesParamsV1' in body)) throw serviceFault('Parameter dpdServicesParamsV1 cannot be null');
    const session = xmlObject(xmlObject(body.dpdServicesParamsV1).session);
    const sessionType = xmlString(session.sessionType);
    const answer = (content: XmlElement) => ({ name: 'generateSpedLabelsV4Response', content: { return: content } });
    const format = labelFormatOf(body);
    if (typeof format !== 'string') return answer({ session: { statusInfo: format } });
    const asked = xmlList(session.packages).map(xmlObject);
    const found = asked.map((p) => {
      const id = xmlString(p.packageId);
      const reference = xmlString(p.reference);
      return id ? shipments.byId(caller.login, id) : reference ? shipments.byReference(caller.login, reference)[0] : undefined;
    });
    if (asked.length === 0 || found.some((s) => !s)) {
      return answer({ session: { packages: asked.map((p, i) => ({ packageId: xmlString(p.packageId), reference: xmlString(p.reference), statusInfo: statusInfo(found[i] ? 'OK' : 'NOT_FOUND') })), statusInfo: statusInfo('NOT_FOUND') } });
    }
    const packages = found as DpdShipment[];
    if (packages.some((s) => s.product !== sessionType)) return answer({ session: { statusInfo: statusInfo('INCORRECT_PKGS_FOR_SESSION_TYPE') } });
    for (const s of packages) s.labelFormat = format;
    const documents = await Promise.all(packages.map((s) => documentOf(s, format)));
    const document = documents.length === 1 ? documents[0]! : Buffer.from((await mergeLabels(format, documents)).content);
    return answer({
      documentData: document.toString('base64'),
      session: {
        packages: packages.map((s) => ({
          packageId: s.id,
          parcels: s.parcels.map((p, i) => ({ parcelId: s.request.parcelIds[i], reference: s.request.parcels[i]!.reference ?? undefined, statusInfo: statusInfo('OK'), waybill: p.number })),
          reference: s.referenceId || undefined, statusInfo: statusInfo('OK'),
        })),
        sessionId: packages[0]!.request.sessionId,
        statusInfo: statusInfo('OK'),
      },
    });
  };

  /** Return packages by the outbound waybills they return: asked again, DPD prints the same return label (inferred). */
  const returnsByWaybills = new Map<string, DpdShipment>();
  /**
   * generateDomesticReturnLabelV1 / generateReturnLabelV1: a return package of one new waybill per returned waybill,
   * from the outbound's receiver to `receiver`, and its labels. Refused in the session's statusInfo (inferred, as
   * generateSpedLabelsV4 refuses): a waybill of none of the caller's packages is NOT_FOUND; the domestic operation
   * takes a receiver in Poland only, and a receiver without a name or company, street, city or post code is
   * NOT_PROCESSED.
   */
  const generateReturnLabel = (operation: string) => async (body: XmlObject) => {
    const caller = packageCaller(body);
    const answer = (content: XmlElement) => ({ name: `${operation}Response`, content: { return: content } });
    const format = labelFormatOf(body);
    if (typeof format !== 'string') return answer({ session: { statusInfo: format } });
    const waybills = xmlList(xmlObject(body.returnedWaybillsV1).waybill).map((w) => (xmlString(w) ?? '').trim());
    const outbound = waybills.map((w) => shipments.parcel(w)).map((found) => (found?.shipment.owner === caller.login ? found : undefined));
    const unknown = waybills.filter((_, i) => !outbound[i]);
    if (waybills.length === 0 || unknown.length > 0) {
      return answer({ session: { statusInfo: statusInfo('NOT_FOUND', `Waybill not found: ${unknown.join(', ') || '(none given)'}`) } });
    }
    const receiver = readAddress(xmlObject(body.receiver));
    if (!(receiver.name || receiver.company) || !receiver.address || !receiver.city || !receiver.postalCode) {
      return answer({ session: { statusInfo: statusInfo('NOT_PROCESSED', 'Return receiver: name or company, address, city and postal code are required') } });
    }
    if (operation === 'generateDomesticReturnLabelV1' && receiver.countryCode !== 'PL') {
      return answer({ session: { statusInfo: statusInfo('NOT_PROCESSED', `Return receiver in ${receiver.countryCode}: domestic return labels go to Poland, use generateReturnLabelV1`) } });
    }
    const key = [...waybills].sort().join(' ');
    let s = returnsByWaybills.get(key);
    if (!s) {
      const first = outbound[0]!.shipment;
      const parcels = outbound.map((found) => found!.shipment.request.parcels[found!.parcel.index - 1]!);
      s = shipments.add({
        owner: caller.login, referenceId: '', product: 'RETURN', labelFormat: format, id: nextPackageId(), numbers: waybills.map(() => nextWaybill()),
        request: {
          reference: null, ref1: null, sender: first.request.receiver, receiver, parcels, cod: null, sessionType: sessionTypeOf(receiver.countryCode), pudo: null,
          sessionId: nextSessionId(), parcelIds: waybills.map(() => nextParcelId()), returnOf: waybills,
        },
      });
      returnsByWaybills.set(key, s);
    }
    const returned = s;
    return answer({
      documentData: (await documentOf(returned, format)).toString('base64'),
      session: {
        packages: [{
          packageId: returned.id,
          parcels: returned.parcels.map((p, i) => ({ parcelId: returned.request.parcelIds[i], statusInfo: statusInfo('OK'), waybill: p.number })),
          statusInfo: statusInfo('OK'),
        }],
        sessionId: returned.request.sessionId,
        statusInfo: statusInfo('OK'),
      },
    });
  };

  /**
   * generateProtocolV2: the protocol of the asked packages' parcels (all of a package's parcels when it names none),
   * or with `documentId` the duplicate of an earlier one. Refused per parcel and package in statusDGREnumV1: unknown
   * (NOT_FOUND), of the other session type (INCORRECT_PKGS_FOR_SESSION_TYPE), in a protocol already (ALREADY_ADVICED,
   * "the parcel has already been advised"), and a pickup address unlike the packages' sender (INCORRECT_PICKUP_ADDRESS_*).
   */
  const generateProtocol = async (body: XmlObject) => {
    const caller = packageCaller(body);
    if (!('dpdServicesParamsV1' in body)) throw serviceFault('Parameter dpdServicesParamsV1 cannot be null');
    const params = xmlObject(body.dpdServicesParamsV1);
    const session = xmlObject(params.session);
    const answer = (content: XmlElement) => ({ name: 'generateProtocolV2Response', content: { return: content } });
    const refused = (s: string, description?: string, packages?: XmlElement[]) => answer({ session: { packages, statusInfo: statusInfo(s, description) } });
    if (xmlString(body.outputDocFormatV1) !== 'PDF') return refused('NOT_PROCESSED', `${xmlString(body.outputDocFormatV1) ?? 'no format'}: the emulator makes protocols as PDF`);
    const duplicateOf = xmlString(params.documentId);
    if (duplicateOf) {
      const made = protocols.get(duplicateOf);
      if (!made || made.owner !== caller.login) return refused('NOT_FOUND', `No protocol ${duplicateOf}`);
      return answer({ documentData: made.document.toString('base64'), documentId: duplicateOf, session: { statusInfo: statusInfo('OK') } });
    }
    if (!('pickupAddress' in params)) return refused('NOT_PROCESSED', 'pickupAddress is required for a protocol');
    const sessionType = xmlString(session.sessionType);
    const asked = xmlList(session.packages).map(xmlObject).map((p) => {
      const id = xmlString(p.packageId);
      const reference = xmlString(p.reference);
      const found = id ? shipments.byId(caller.login, id) : reference ? shipments.byReference(caller.login, reference)[0] : undefined;
      const named = xmlList(p.parcels).map((parcel) => xmlString(xmlObject(parcel).waybill) ?? '');
      const parcels = (named.length > 0 ? named : found?.parcels.map((parcel) => parcel.number) ?? []).map((waybill) => {
        const index = found?.parcels.findIndex((parcel) => parcel.number === waybill) ?? -1;
        return { waybill, index, status: index < 0 ? 'NOT_FOUND' : protocolOfWaybill.has(waybill) ? 'ALREADY_ADVICED' : 'OK' };
      });
      const own = !found ? 'NOT_FOUND' : found.product !== sessionType ? 'INCORRECT_PKGS_FOR_SESSION_TYPE' : parcels.find((parcel) => parcel.status !== 'OK')?.status ?? 'OK';
      return { id, reference, found, parcels, status: own };
    });
    const views = asked.map((p): XmlElement => ({
      packageId: p.found?.id ?? p.id,
      parcels: p.parcels.map((parcel) => ({ parcelId: p.found?.request.parcelIds[parcel.index], statusInfo: statusInfo(parcel.status), waybill: parcel.waybill })),
      reference: p.found?.referenceId || p.reference, statusInfo: statusInfo(p.status),
    }));
    const failed = asked.find((p) => p.status !== 'OK');
    if (asked.length === 0 || failed) return refused(failed?.status ?? 'NOT_FOUND', failed ? undefined : 'No packages in the session', views);
    const packages = asked.map((p) => ({ ...p, found: p.found! }));
    const senderProblem = pickupAddressProblem(readAddress(xmlObject(params.pickupAddress)), caller.masterFid, packages.map((p) => p.found.request.sender));
    if (senderProblem) return refused(senderProblem, 'The pickup address must be the one the packages were created with', views);
    const documentId = nextDocumentId();
    const document = await renderProtocol({
      documentId, date: warsawTime.format(clock.now()).slice(0, 10), sender: addressLines(packages[0]!.found.request.sender),
      parcels: packages.flatMap(({ found, parcels }) => parcels.map(({ waybill, index }) => ({
        waybill, packageId: found.id, weight: found.request.parcels[index]!.weight,
        cod: index === 0 && found.request.cod ? `${found.request.cod.amount} ${found.request.cod.currency}` : null,
      }))),
    });
    protocols.set(documentId, { owner: caller.login, document });
    for (const p of asked) for (const { waybill } of p.parcels) protocolOfWaybill.set(waybill, documentId);
    return answer({ documentData: document.toString('base64'), documentId, session: { packages: views, statusInfo: statusInfo('OK') } });
  };

  /** packagesPickupCallV4: a new courier order (INSERT) gets an order number and checksum, or DPD's errorDetails. */
  const packagesPickupCall = (body: XmlObject) => {
    const caller = packageCaller(body);
    if (!('dpdPickupParamsV3' in body)) throw serviceFault('Parameter dpdPickupCallParamsV3 cannot be null');
    const params = xmlObject(body.dpdPickupParamsV3);
    const answer = (content: XmlElement) => ({ name: 'packagesPickupCallV4Response', content: { return: content } });
    const errors = xmlString(params.operationType) === 'INSERT'
      ? checkPickup(params, caller.masterFid, warsawTime.format(clock.now()).slice(0, 10))
      : [{ code: 'NOT_PROCESSED', description: 'The emulator takes new courier orders (INSERT) only', fields: 'operationType' }];
    if (errors.length > 0) return answer({ statusInfo: { errorDetails: errors.map((e) => ({ ...e })), status: 'INCORRECT_DATA' } });
    return answer({ checkSum: Number(nextCheckSum()), orderNumber: nextOrderNumber(), statusInfo: { status: 'OK' } });
  };

  const findPostalCode = (body: XmlObject) => {
    packageCaller(body);
    const asked = xmlObject(body.postalCodeV1);
    return { name: 'findPostalCodeV1Response', content: { return: { status: postalCodeStatus(xmlString(asked.countryCode), xmlString(asked.zipCode) ?? '') } } };
  };

  /**
   * getCourierOrderAvailabilityV1: the courier's ranges at a place DPD serves, the same whatever the day (the
   * operation takes none), with an empty `<ranges/>` first as DPD's own example answers. DPD documents the status OK
   * only: a place it does not know answers findPostalCodeV1's statuses and no ranges (inferred); DPD Polska's
   * couriers come in Poland only.
   */
  const courierOrderAvailability = (body: XmlObject) => {
    packageCaller(body);
    if (!('senderPlaceV1' in body)) throw serviceFault('Parameter senderPlaceV1 cannot be null');
    const place = xmlObject(body.senderPlaceV1);
    const country = xmlString(place.countryCode);
    const status = country === 'PL' ? postalCodeStatus(country, xmlString(place.zipCode) ?? '') : 'NONEXISTING_COUNTRY_CODE';
    const ranges = status === 'OK' ? [{}, ...COURIER_RANGES] : undefined;
    return { name: 'getCourierOrderAvailabilityV1Response', content: { return: { ranges, status } } };
  };

  /** Info Services: authDataV1 {channel, login, password}; newest event first, as DPD lists them. */
  const eventsForWaybill = (body: XmlObject) => {
    const auth = xmlObject(body.authDataV1);
    const login = xmlString(auth.login) ?? '';
    const password = xmlString(auth.password) ?? '';
    if (!login || !password || !xmlString(auth.channel) || isBadCredential(login, password)) throw serviceFault('Login failed', 'Exception');
    const waybill = xmlString(body.waybill) ?? '';
    const found = shipments.parcel(waybill, login);
    const only = xmlString(body.eventsSelectType) === 'ONLY_LAST';
    const events = found ? [...found.parcel.events].reverse().slice(0, only ? 1 : undefined) : [];
    return {
      name: 'getEventsForWaybillV1Response',
      content: {
        return: {
          confirmId: '0',
          eventsList: events.map((e, i) => ({
            businessCode: e.code, country: 'PL', depot: '1357', depotName: 'WARSZAWA',
            description: DPD_PL_TRACKING.codes[e.code]?.name, eventTime: warsawTime.format(e.at), objectId: `${found!.parcel.number}${i}`,
            packageReference: found!.shipment.referenceId || undefined, waybill,
          })),
        },
      },
    };
  };

  const withSchema = <T>(operation: string, handler: (body: XmlObject) => T) => ({ body }: { body: XmlObject }) => {
    checkAgainstSchema(operation, body);
    return handler(body);
  };

  const routes: FastifyPluginAsync = async (app) => {
    serveSoap(app, PACKAGE_SERVICE_PATH, DPD_PACKAGE_SERVICE, {
      generatePackagesNumbersV4: withSchema('generatePackagesNumbersV4', generatePackagesNumbers),
      generateSpedLabelsV4: withSchema('generateSpedLabelsV4', generateSpedLabels),
      generateDomesticReturnLabelV1: withSchema('generateDomesticReturnLabelV1', generateReturnLabel('generateDomesticReturnLabelV1')),
      generateReturnLabelV1: withSchema('generateReturnLabelV1', generateReturnLabel('generateReturnLabelV1')),
      generateProtocolV2: withSchema('generateProtocolV2', generateProtocol),
      packagesPickupCallV4: withSchema('packagesPickupCallV4', packagesPickupCall),
      findPostalCodeV1: withSchema('findPostalCodeV1', findPostalCode),
      getCourierOrderAvailabilityV1: withSchema('getCourierOrderAvailabilityV1', courierOrderAvailability),
    });
    serveSoap(app, INFO_SERVICE_PATH, DPD_INFO_SERVICE, { getEventsForWaybillV1: withSchema('getEventsForWaybillV1', eventsForWaybill) });
    await app.register(pudoRoutes(pudos));
  };

  /**
   * A parcel for a DPD Pickup point is delivered only once collected there: out of the van its next step is the point,
   * and on its way to `delivered` it waits there.
   */
  const advance = (trackingNumber: string, to?: AdvanceTarget): AdvanceOutcome => {
    const found = shipments.parcel(trackingNumber);
    if (!found?.shipment.request.pudo) return shipments.advance(trackingNumber, to);
    if (to === undefined && DPD_PL_TRACKING.codes[shipments.lastCode(found.parcel)]?.next?.includes(DPD_PL_AT_POINT.code)) {
      return shipments.advance(trackingNumber, 'ready_for_pickup');
    }
    if (to !== 'delivered' || found.parcel.events.some((e) => e.code === DPD_PL_AT_POINT.code)) return shipments.advance(trackingNumber, to);
    return shipments.collectAtPoint(trackingNumber);
  };

  return {
    code,
    routes,
    advance,
    shipments: () => shipments.records((s) => ({
      state: DPD_PL_TRACKING.codes[shipments.lastCode(s.parcels[0]!)]!.name,
      login: s.owner,
      packageId: s.id,
      sessionId: s.request.sessionId,
      parcelIds: s.request.parcelIds,
      protocols: s.parcels.map((p) => protocolOfWaybill.get(p.number) ?? null),
      ref1: s.request.ref1,
      cod: s.request.cod,
      pudo: s.request.pudo,
      weights: s.request.parcels.map((p) => p.weight),
      sender: s.request.sender,
      receiver: s.request.receiver,
      returnOf: s.request.returnOf ?? null,
    })),
    // authDataV1 travels in every call: there are no tokens to expire
    expireTokens: () => {},
    reset: () => {
      shipments.reset();
      returnsByWaybills.clear();
      protocols.clear();
      protocolOfWaybill.clear();
    },
    faultResponse: (status, path) => soapFaultResponse(
      path.startsWith(INFO_SERVICE_PATH) ? DPD_INFO_SERVICE : DPD_PACKAGE_SERVICE,
      status === 429 ? 'Too many requests, try again later' : 'Unexpected error during executing webserwice. Try again later',
    ),
  };
}

/** What the emulated label prints; the Code 128 of the waybill stands in for DPD's 28-character barcode. */
function labelContent(s: DpdShipment, waybill: string, index: number): EmulatedLabel {
  const { request } = s;
  return {
    carrier: 'DPD Poland',
    trackingNumber: waybill,
    parcelIndex: index,
    parcelCount: s.parcels.length,
    reference: request.ref1 ?? undefined,
    product: `${s.product}${request.returnOf ? ` · zwrot ${request.returnOf.join(', ')}` : ''}${request.pudo ? ' · Pickup' : ''}${request.cod ? ' · COD' : ''}`,
    sender: addressLines(request.sender),
    // a parcel for a point is addressed to the point first
    recipient: [request.pudo ? `DPD Pickup ${request.pudo}` : '', ...addressLines(request.receiver), request.receiver.phone ?? ''].filter(Boolean),
    cod: request.cod ? { amount: request.cod.amount, currency: request.cod.currency } : undefined,
  };
}

const statusInfo = (status: string, description?: string) => ({ description, status });

/** The label format asked for, or the statusInfo refusing it: ZPL and EPL come on LBL_PRINTER only ("Note 1" of generateSpedLabelsV4). */
function labelFormatOf(body: XmlObject): LabelFormat | ReturnType<typeof statusInfo> {
  const format = FORMATS[xmlString(body.outputDocFormatV1) ?? 'PDF'];
  const page = xmlString(body.outputDocPageFormatV1) ?? 'A4';
  if (!format || (format !== 'pdf' && page !== 'LBL_PRINTER')) {
    return statusInfo('NOT_PROCESSED', `${xmlString(body.outputDocFormatV1)} on ${page} is not available: ZPL and EPL need LBL_PRINTER`);
  }
  return format;
}

/** DPD compares the pickup address with the packages' sender character by character, field by field. */
function pickupAddressProblem(pickup: EmulatedAddress, masterFid: string, senders: readonly EmulatedAddress[]): string | undefined {
  if (pickup.fid !== null && pickup.fid !== masterFid) return 'INCORRECT_PICKUP_ADDRESS_FID';
  const fields = [['company', 'COMPANY'], ['name', 'NAME'], ['address', 'ADDRESS'], ['city', 'CITY'], ['postalCode', 'POSTAL_CODE']] as const;
  for (const [field, code] of fields) {
    const given = pickup[field];
    if (given && senders.some((s) => s[field] !== given)) return `INCORRECT_PICKUP_ADDRESS_${code}`;
  }
  return undefined;
}

function addressLines(a: EmulatedAddress): string[] {
  return [a.company, a.name, a.address, `${a.postalCode} ${a.city}`, a.countryCode].filter((l): l is string => Boolean(l));
}
