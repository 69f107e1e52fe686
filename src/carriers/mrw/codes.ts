import type { TrackingCode, TrackingCodeList } from '../codes.js';

/** MRW's code lists, read by the adapter and the emulator. */

export interface MrwService {
  name: string;
  /** The heaviest parcel (bulto) the service takes, where its name states a limit; none known otherwise. */
  maxParcelKg?: number;
}

/**
 * `DatosServicio.CodigoServicio` values: MRW offers no operation that lists them (which an account may use is set by
 * its franchise); codes and names as OCA/l10n-spain `delivery_mrw/models/delivery_carrier.py` and MRW's PrestaShop
 * module list them. The 40 kg limit is inferred from MRW selling "+40 kg" twins of Urgente 19 and Económico (0210,
 * 0310); 2 and 3 kg are in the names of 0450, 0480 and EURO2, 25 kg in BOX25 (ECOBOX25).
 */
export const MRW_SERVICES: Readonly<Record<string, MrwService>> = {
  '0000': { name: 'Urgente 10', maxParcelKg: 40 },
  '0005': { name: 'Urgente Hoy', maxParcelKg: 40 },
  '0010': { name: 'Promociones', maxParcelKg: 40 },
  '0015': { name: 'Urgente 10 Expedición', maxParcelKg: 40 },
  '0100': { name: 'Urgente 12', maxParcelKg: 40 },
  '0105': { name: 'Urgente 12 Expedición', maxParcelKg: 40 },
  '0110': { name: 'Urgente 14', maxParcelKg: 40 },
  '0115': { name: 'Urgente 14 Expedición', maxParcelKg: 40 },
  '0120': { name: 'Urgente 22', maxParcelKg: 40 },
  '0200': { name: 'Urgente 19', maxParcelKg: 40 },
  '0205': { name: 'Urgente 19 Expedición', maxParcelKg: 40 },
  '0210': { name: 'Urgente 19 Más 40 Kilos' },
  '0220': { name: '48 Horas Portugal', maxParcelKg: 40 },
  '0230': { name: 'Bag 19', maxParcelKg: 40 },
  '0235': { name: 'Bag 14', maxParcelKg: 40 },
  '0300': { name: 'Económico', maxParcelKg: 40 },
  '0310': { name: 'Económico Más 40 Kilos' },
  '0350': { name: 'Económico Interinsular', maxParcelKg: 40 },
  '0370': { name: 'Marítimo Baleares', maxParcelKg: 40 },
  '0385': { name: 'Marítimo Canarias', maxParcelKg: 40 },
  '0390': { name: 'Marítimo Interinsular', maxParcelKg: 40 },
  '0400': { name: 'Express Documentos', maxParcelKg: 40 },
  '0450': { name: 'Express 2 Kilos', maxParcelKg: 2 },
  '0480': { name: 'Caja Express 3 Kilos', maxParcelKg: 3 },
  '0490': { name: 'Documentos 14', maxParcelKg: 40 },
  '0800': { name: 'Ecommerce', maxParcelKg: 40 },
  '0810': { name: 'Ecommerce Canje', maxParcelKg: 40 },
  BOX25: { name: 'EcoBox25', maxParcelKg: 25 },
  DOC: { name: 'Documentos' },
  ECOMM: { name: 'Ecommerce internacional' },
  ECOP: { name: 'Económico internacional' },
  EURO2: { name: 'Euro 2 kg', maxParcelKg: 2 },
  PAC: { name: 'Paquetes' },
  SC: { name: 'SuperCity' },
};

/** `DatosServicio.Reembolso`: N none; cash on delivery with the commission paid at origin (O) or destination (D). */
export const MRW_COD_COMMISSIONS = ['O', 'D'] as const;

/**
 * `DatosServicio.TipoMercancia`, the kind of goods for customs ("información de tránsito aduanero", MRW's SAGEC manual
 * v2.7 §2.3): documents, samples with and without commercial value, goods of high and of low value.
 */
export const MRW_TIPOS_MERCANCIA = { documents: 'DOC', sampleWithValue: 'MCV', sampleWithoutValue: 'MSV', highValue: 'ATV', lowValue: 'BJV' } as const;

/**
 * `Estado` of TrackingService GetEnvios, two digits, with MRW's wording (the table of MRW's TrackingServices manual
 * §2.6 as public integrations copy it, e.g. the one the fact sheet cites; 91 and 93 read "Pendiente de recibir datos
 * de entrega" there). A parcel starts at 40: MRW has its data but not the parcel. 44 is the sender's cancellation.
 */
export const MRW_TRACKING: TrackingCodeList & { codes: Readonly<Record<string, TrackingCode>> } = {
  created: '40',
  cancelled: '44',
  codes: {
    '40': { name: 'Pendiente de recibir en MRW', status: 'created', next: ['17', '46'] },
    '39': { name: 'Pendiente de recibir datos de recogida', status: 'waiting_for_shipment', next: ['40'] },
    '46': { name: 'Pendiente de recoger', status: 'waiting_for_shipment', next: ['17', '41'] },
    '47': { name: 'Pendiente de recoger', status: 'waiting_for_shipment', next: ['17'] },
    '48': { name: 'Pendiente de recoger', status: 'waiting_for_shipment', next: ['17'] },
    '19': { name: 'Pendiente de recibir datos de entrega', status: 'waiting_for_shipment', next: ['11'] },
    '61': { name: 'Pendiente de recibir datos de entrega', status: 'waiting_for_shipment', next: ['11'] },
    '91': { name: 'Pendiente de recibir datos de entrega', status: 'waiting_for_shipment', next: ['11'] },
    '93': { name: 'Pendiente de recibir datos de entrega', status: 'waiting_for_shipment', next: ['11'] },
    '95': { name: 'Pendiente de recibir datos de entrega', status: 'waiting_for_shipment', next: ['11'] },
    '41': { name: 'Remitente ausente o cerrado', status: 'on_hold', next: ['17', '44'] },
    '42': { name: 'Remitente desconocido', status: 'on_hold', next: ['17', '44'] },
    '43': { name: 'Dirección de recogida incorrecta', status: 'on_hold', next: ['17', '44'] },
    '45': { name: 'Emisor aplaza la recogida', status: 'on_hold', next: ['17', '44'] },
    '53': { name: 'Dirección de recogida incompleta', status: 'on_hold', next: ['17', '44'] },
    '44': { name: 'Emisor anula la recogida', status: 'cancelled' },
    '17': { name: 'Envío recogido en origen', status: 'in_transit', next: ['11', '72'] },
    '49': { name: 'Recogido en origen', status: 'in_transit', next: ['11'] },
    '11': { name: 'En tránsito', status: 'in_transit', next: ['13', '79'] },
    '15': { name: 'En tránsito', status: 'in_transit', next: ['13'] },
    '57': { name: 'En tránsito', status: 'in_transit', next: ['13'] },
    '58': { name: 'En tránsito', status: 'in_transit', next: ['13'] },
    '59': { name: 'En tránsito', status: 'in_transit', next: ['13'] },
    '68': { name: 'En tránsito', status: 'in_transit', next: ['13'] },
    '69': { name: 'En tránsito', status: 'in_transit', next: ['13'] },
    '71': { name: 'En tránsito', status: 'in_transit', next: ['13'] },
    '72': { name: 'En tránsito', status: 'in_transit', next: ['13'] },
    '75': { name: 'En tránsito', status: 'in_transit', next: ['13'] },
    '77': { name: 'En tránsito', status: 'in_transit', next: ['13'] },
    '78': { name: 'En tránsito', status: 'in_transit', next: ['13'] },
    '79': { name: 'En tránsito', status: 'in_transit', next: ['13', '92'] },
    '90': { name: 'En tránsito', status: 'in_transit', next: ['13'] },
    // a delay on the route
    '96': { name: 'En tránsito', status: 'in_transit', next: ['13'] },
    '92': { name: 'Retenido en aduana', status: 'on_hold', next: ['11'] },
    '13': { name: 'Recibido en franquicia destino', status: 'in_transit', next: ['16', '07', '70', '14'] },
    '16': { name: 'En reparto', status: 'out_for_delivery', next: ['00', '01', '02', '03', '04', '05', '06', '09', '33'] },
    '73': { name: 'En reparto', status: 'out_for_delivery', next: ['00', '01'] },
    '00': { name: 'Entregado', status: 'delivered' },
    '01': { name: 'Destinatario ausente o cerrado', status: 'on_hold', next: ['16', '07', '08'] },
    '02': { name: 'Destinatario desconocido', status: 'on_hold', next: ['16', '08'] },
    '03': { name: 'Dirección de entrega incompleta', status: 'on_hold', next: ['16', '08'] },
    '04': { name: 'Dirección de entrega incorrecta', status: 'on_hold', next: ['16', '08'] },
    '05': { name: 'No acepta el envío', status: 'on_hold', next: ['08'] },
    '06': { name: 'No acepta el reembolso', status: 'on_hold', next: ['16', '08'] },
    '09': { name: 'Destinatario aplaza la entrega', status: 'on_hold', next: ['16'] },
    '10': { name: 'Emisor aplaza la entrega', status: 'on_hold', next: ['16'] },
    '12': { name: 'Fiesta local', status: 'on_hold', next: ['16'] },
    '14': { name: 'Retenido en franquicia por orden del cliente', status: 'on_hold', next: ['16', '08'] },
    '18': { name: 'Retorno no preparado', status: 'on_hold', next: ['08'] },
    '31': { name: 'Envío rechazado por embalaje dañado', status: 'on_hold', next: ['08'] },
    '33': { name: 'Concertada próxima entrega', status: 'on_hold', next: ['16'] },
    '35': { name: 'Entrega aplazada pendiente de cobro o cita previa', status: 'on_hold', next: ['16'] },
    '36': { name: 'Contactado con el destinatario', status: 'on_hold', next: ['16'] },
    '07': { name: 'Pendiente de recoger en franquicia', status: 'ready_for_pickup', next: ['00', '08'] },
    '70': { name: 'Pendiente de recoger en MRW Point', status: 'ready_for_pickup', next: ['76', '08'] },
    '76': { name: 'Retirado de MRW Point', status: 'delivered' },
    '08': { name: 'Devuelto al remitente', status: 'returned' },
    '32': { name: 'Devuelto a origen por rotura del contenido', status: 'returned' },
    '60': { name: 'Información no disponible, contacta con tu franquicia', status: 'not_recognized' },
    '94': { name: 'Cliente ordena destruir el envío', status: 'error' },
  },
};
