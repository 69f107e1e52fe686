import { customsTerritory } from '../../domain/customs.js';
import { formatMinorUnits } from '../../domain/money.js';
import { CarrierRefusedError } from '../errors.js';
import { soapElement, type SoapPart, type XmlElement } from '../soap.js';
import type { CarrierParty, CustomsForCarrier, ShipmentForCarrier } from '../types.js';
import { MRW_TIPOS_MERCANCIA } from './codes.js';
import { SAGEC_SERVICE } from './services.js';
import type { MrwSettings } from './settings.js';

/**
 * Our shipment → the operations of MRW's SAGEC and TrackingService. Pure. Element names and order: the `sequence`s
 * of MRW's WSDL (TransmEnvioRequest, DatosRemitenteRequest, DatosDestinatarioRequest, DireccionRequest,
 * DatosServicioRequest, BultoRequest, EtiquetaEnvioRequest, CancelaEnvioRequest; GetEnvios of TrackingService).
 * Numbers are text with a decimal comma ("1,5"), as MRW's WSDL types them all as strings and integrations send them
 * (OCA/l10n-spain delivery_mrw: "El separador decimal debe de ser la coma").
 */

/** The SOAP header of every SAGEC call. */
export function authInfoHeader(settings: MrwSettings): SoapPart {
  return {
    name: 'AuthInfo',
    content: {
      CodigoFranquicia: settings.franchiseCode,
      CodigoAbonado: settings.subscriberCode,
      CodigoDepartamento: settings.departmentCode || undefined,
      UserName: settings.username,
      Password: settings.password,
    },
  };
}

/** `1249,5` → MRW's decimal comma, at most two decimals. */
export function mrwDecimal(value: number): string {
  return String(Math.round(value * 100) / 100).replace('.', ',');
}

/** `2026-11-23` → `23/11/2026`, the `Fecha` format of MRW's examples. */
export function mrwDate(isoDate: string): string {
  const [year, month, day] = isoDate.split('-');
  return `${day}/${month}/${year}`;
}

/**
 * MRW's national service takes Portugal's NNNN-NNN by its first four digits and Andorra's AD500 as five digits, zero
 * first (00500): MRW's SAGEC manual (v2.7 §2.3, CodigoPostal) and MRW's PrestaShop module.
 */
export function mrwPostalCode(party: Pick<CarrierParty, 'postalCode' | 'countryCode'>): string {
  const digits = party.postalCode.replace(/[\s-]/g, '');
  if (party.countryCode === 'PT') return digits.slice(0, 4);
  return party.countryCode === 'AD' ? digits.replace(/^AD/i, '').padStart(5, '0') : digits;
}

const CALLING_CODES: Readonly<Record<string, string>> = { ES: '+34', PT: '+351', AD: '+376' };

/** Domestic numbers without their country's calling code (Spanish phones go as 9 digits); others as given. */
export function mrwPhone(party: Pick<CarrierParty, 'phone' | 'countryCode'>): string {
  const prefix = CALLING_CODES[party.countryCode];
  return prefix && party.phone.startsWith(prefix) ? party.phone.slice(prefix.length) : party.phone;
}

/** DireccionRequest: street, house number and the rest (flat) apart; no country (the national service infers it). */
function address(party: CarrierParty): XmlElement {
  return { Via: party.street, Numero: party.houseNumber, Resto: party.apartmentNumber ?? undefined, CodigoPostal: mrwPostalCode(party), Poblacion: party.city };
}

/** Who the label names: the firm, or the person; a person at a firm goes in `ALaAtencionDe`. */
function names(party: CarrierParty): { Nombre: string; ALaAtencionDe?: string } {
  return party.companyName
    ? { Nombre: party.companyName, ALaAtencionDe: party.personName ?? undefined }
    : { Nombre: party.personName ?? '' };
}

/**
 * A franchise-office shipment's point: the franchise's code as the office the recipient collects at, in the WSDL's
 * `DireccionRequest.CodigoFranquiciaAsociadaPuntoEntrega`. MRW's points are its franchise offices here, so a shop or a
 * locker is refused before MRW is asked.
 */
function franchiseOffice(s: ShipmentForCarrier): XmlElement {
  const point = s.pickupPoint;
  if (!point) return {};
  if (point.type !== null && point.type !== 'post_office') {
    throw new CarrierRefusedError(`MRW delivers to its franchise offices, not to a ${point.type}`, {
      pickup_point: [`MRW delivers to its franchise offices only (type post_office), not to a ${point.type}: choose an MRW office`],
    });
  }
  return { CodigoFranquiciaAsociadaPuntoEntrega: point.id };
}

/**
 * The recipient's notices: at a franchise office the "aviso de entrega en franquicia" (tipo 3), which MRW requires
 * there, by e-mail (canal 1) or else by SMS (canal 2); at a door the e-mail notice of the delivery day (tipo 4). Codes:
 * OCA/l10n-spain delivery_mrw (14.0) `mrw_notification_type`.
 */
function notices(s: ShipmentForCarrier): XmlElement | undefined {
  const email = s.recipient.email;
  if (s.pickupPoint) return { NotificacionRequest: [email ? { CanalNotificacion: '1', TipoNotificacion: '3', MailSMS: email } : { CanalNotificacion: '2', TipoNotificacion: '3', MailSMS: mrwPhone(s.recipient) }] };
  return email ? { NotificacionRequest: [{ CanalNotificacion: '1', TipoNotificacion: '4', MailSMS: email }] } : undefined;
}

/** MRW collects cash on delivery in euros only. */
function cashOnDelivery(s: ShipmentForCarrier, settings: MrwSettings): XmlElement {
  const cod = s.cashOnDelivery;
  if (!cod) return { Reembolso: 'N' };
  if (cod.currency !== 'EUR') {
    throw new CarrierRefusedError(`MRW cannot collect cash on delivery in ${cod.currency}`, { cash_on_delivery_currency: ['MRW collects cash on delivery in EUR only'] });
  }
  return { Reembolso: settings.codCommission, ImporteReembolso: formatMinorUnits(cod.amountMinor).replace('.', ',') };
}

/**
 * Where MRW's franchise holds a shipment for review ("Revisar en Franquicia") that lacks the recipient's NIF, the
 * observations, the kind of goods or their declared value: to the Canary Islands, Andorra and Gibraltar (SAGEC manual
 * v2.7 §3.2), as src/domain/customs.ts names those territories.
 */
const REVIEWED_WITHOUT_DECLARATION: Readonly<Record<string, string>> = { 'ES-CN': 'the Canary Islands', AD: 'Andorra', GI: 'Gibraltar' };

/**
 * Goods of low value ("bajo valor") are worth at most 150 €, the limit of Spanish customs' low-value declarations (the
 * AEAT's H7, the Canary Islands' included); MRW publishes no limit of its own for BJV and ATV.
 */
const LOW_VALUE_LIMIT_MINOR = 150_00;

function tipoMercancia(contentsType: CustomsForCarrier['contentsType'], valueMinor: number): string {
  if (contentsType === 'documents') return MRW_TIPOS_MERCANCIA.documents;
  if (contentsType === 'sample') return valueMinor > 0 ? MRW_TIPOS_MERCANCIA.sampleWithValue : MRW_TIPOS_MERCANCIA.sampleWithoutValue;
  return valueMinor > LOW_VALUE_LIMIT_MINOR ? MRW_TIPOS_MERCANCIA.highValue : MRW_TIPOS_MERCANCIA.lowValue;
}

/** What a shipment across a customs border adds to TransmEnvio: MRW takes no item lines, only these. */
interface MrwDeclaration {
  senderNif?: string;
  recipientNif?: string;
  /** `DatosEntrega.Observaciones`: the label comment and the contents, which MRW wants described for customs. */
  observaciones: string;
  service: { TipoMercancia: string; ValorDeclarado: string };
}

/**
 * SAGEC's customs fields ("información de tránsito aduanero", SAGEC manual v2.7 §2.3 and §3.2): `TipoMercancia`,
 * `ValorDeclarado` (the items' quantity × unit value), the recipient's NIF (`DatosEntrega.Nif`), the exporter's
 * (`DatosRecogida.Nif`), and the contents in `Observaciones`. SAGEC's amounts are euros (`ValorAsegurado`,
 * `ImporteReembolso`) and it has no currency for `ValorDeclarado`: another currency is refused before MRW is asked.
 */
function declaration(s: ShipmentForCarrier, customs: CustomsForCarrier): MrwDeclaration {
  if (customs.currency !== 'EUR') {
    throw new CarrierRefusedError(`MRW takes the declared value in EUR only, not ${customs.currency}`, { 'customs.currency': ['MRW takes the declared value (ValorDeclarado) in EUR only'] });
  }
  const reviewedIn = REVIEWED_WITHOUT_DECLARATION[customsTerritory(s.recipient)];
  if (!customs.importerTaxId && reviewedIn) {
    throw new CarrierRefusedError(`MRW needs the recipient's NIF for a shipment to ${reviewedIn}`, {
      'customs.importer_tax_id': [`MRW needs the recipient's NIF (or equivalent) for a shipment to ${reviewedIn}: without it MRW's franchise holds the shipment for review`],
    });
  }
  const valueMinor = customs.items.reduce((sum, item) => sum + item.quantity * item.unitValueMinor, 0);
  const contents = customs.items.map((item) => `${item.quantity} x ${item.description}`).join(', ');
  return {
    senderNif: customs.exporterVatNumber ?? undefined,
    recipientNif: customs.importerTaxId ?? undefined,
    observaciones: [s.labelComment, contents].filter(Boolean).join('; '),
    service: { TipoMercancia: tipoMercancia(customs.contentsType, valueMinor), ValorDeclarado: formatMinorUnits(valueMinor).replace('.', ',') },
  };
}

/**
 * TransmEnvio: one MRW shipment (albarán) of every parcel (bulto) in our order. Our shipment id is the shipment's
 * `Referencia`, which TrackingService finds shipments by (GetEnvios `tipoFiltro` 1); the user's reference is each
 * bulto's `Referencia`; the label comment goes to the courier as `Observaciones`, with the contents where the route
 * crosses a customs border.
 */
export function transmEnvioPart(s: ShipmentForCarrier, settings: MrwSettings): SoapPart {
  const { Nombre, ALaAtencionDe } = names(s.recipient);
  const sender = names(s.sender);
  const totalKg = s.parcels.reduce((sum, p) => sum + p.weightKg, 0);
  const declared = s.customs ? declaration(s, s.customs) : undefined;
  return {
    name: 'TransmEnvio',
    content: {
      request: {
        DatosRecogida: { Direccion: address(s.sender), Nif: declared?.senderNif, Nombre: sender.Nombre, Telefono: mrwPhone(s.sender) },
        DatosEntrega: {
          Direccion: { ...address(s.recipient), ...franchiseOffice(s) }, Nif: declared?.recipientNif, Nombre, Telefono: mrwPhone(s.recipient), ALaAtencionDe,
          Observaciones: declared?.observaciones ?? s.labelComment ?? undefined,
        },
        DatosServicio: {
          Fecha: mrwDate(s.shippingDate),
          Referencia: s.id,
          // E: "con entrega en franquicia", the recipient collects at the office (OCA/l10n-spain delivery_mrw `mrw_en_franquicia`)
          EnFranquicia: s.pickupPoint ? 'E' : 'N',
          CodigoServicio: settings.serviceCode,
          Bultos: {
            BultoRequest: s.parcels.map((p, i) => ({
              Alto: Math.ceil(p.heightCm), Largo: Math.ceil(p.lengthCm), Ancho: Math.ceil(p.widthCm),
              Referencia: s.reference ?? undefined, Peso: mrwDecimal(p.weightKg), NumeroBulto: i + 1,
            })),
          },
          NumeroBultos: s.parcels.length,
          Peso: mrwDecimal(totalKg),
          EntregaSabado: 'N',
          Retorno: 'N',
          ...cashOnDelivery(s, settings),
          ...declared?.service,
          Notificaciones: notices(s),
        },
      },
    },
  };
}

/** The create request exactly as sent: the operation element's XML. */
export function mrwCreateRequest(s: ShipmentForCarrier, settings: MrwSettings): string {
  return soapElement(SAGEC_SERVICE, transmEnvioPart(s, settings));
}

/** GetEtiquetaEnvio of one shipment: type 0, the margins MRW's own examples use (pysagec `GetLabel`, 1100/650). */
export function etiquetaEnvioPart(numeroEnvio: string): SoapPart {
  return {
    name: 'GetEtiquetaEnvio',
    content: { request: { NumeroEnvio: numeroEnvio, SeparadorNumerosEnvio: ',', TipoEtiquetaEnvio: '0', ReportTopMargin: 1100, ReportLeftMargin: 650 } },
  };
}

export function cancelarEnvioPart(numeroEnvio: string): SoapPart {
  return { name: 'CancelarEnvio', content: { request: { CancelaEnvio: { NumeroEnvioOriginal: numeroEnvio } } } };
}

/** GetEnvios `tipoFiltro`: 0 by albarán ("Busqueda correcta por Número de Albarán"), 1 by the shipment's reference (OCA/l10n-spain delivery_mrw). */
export type MrwTrackingFilter = { byAlbaran: string } | { byReference: string };

/** TrackingService GetEnvios in detail (`tipoInformacion` 1: every event), in Spanish (`codigoIdioma` 3082). */
export function getEnviosPart(filter: MrwTrackingFilter, settings: MrwSettings): SoapPart {
  const value = 'byAlbaran' in filter ? filter.byAlbaran : filter.byReference;
  return {
    name: 'GetEnvios',
    content: {
      login: settings.trackingUsername || settings.username,
      pass: settings.trackingPassword || settings.password,
      codigoIdioma: 3082,
      tipoFiltro: 'byAlbaran' in filter ? '0' : '1',
      valorFiltroDesde: value,
      valorFiltroHasta: value,
      tipoInformacion: '1',
      codigoAbonado: settings.subscriberCode,
      codigoFranquicia: settings.franchiseCode,
    },
  };
}
