/**
 * SAGEC's business checks of one TransmEnvio, answered the way SAGEC answers them: `Estado` 0 and a numbered list of
 * sentences in `Mensaje`. "Se debe indicar el teléfono de contacto del destinatario" and "Debe indicar el número de
 * bultos del envío" are MRW's own (OCA/l10n-spain pull request 3713, answers of sagec-test.mrw.es); MRW publishes no
 * catalogue of the others, whose wording here is inferred in the same style.
 */
import { xmlList, xmlObject, xmlString, type XmlObject } from '../soap.js';
import { MRW_SERVICES, MRW_TIPOS_MERCANCIA } from './codes.js';
import { noSuchPlace } from '../emulator/no-such-place.js';

export interface EmulatedParty {
  name: string | null;
  phone: string | null;
  street: string | null;
  postalCode: string | null;
  city: string | null;
  attentionOf: string | null;
}

export interface EmulatedTransmEnvio {
  reference: string | null;
  service: string;
  sender: EmulatedParty;
  recipient: EmulatedParty;
  bultos: { weightKg: number; reference: string | null }[];
  cod: { commission: string; amount: string } | null;
  /** `EnFranquicia` E or A: the recipient collects at a franchise office; its code where the request names one. */
  franchiseOffice: { code: string | null } | null;
  /** The customs data, where the request gives the kind of goods or their value. */
  customs: EmulatedCustoms | null;
}

export interface EmulatedCustoms {
  tipoMercancia: string | null;
  valorDeclarado: string | null;
  recipientNif: string | null;
}

/** A franchise office as the emulator's network holds it. */
export interface EmulatedOffice {
  open: boolean;
}

export type TransmEnvioCheck = { ok: true; shipment: EmulatedTransmEnvio } | { ok: false; problems: string[] };

function text(node: XmlObject, key: string): string | null {
  const value = xmlString(node[key])?.trim();
  return value ? value : null;
}

function readParty(node: XmlObject): EmulatedParty {
  const address = xmlObject(node.Direccion);
  return {
    name: text(node, 'Nombre'), phone: text(node, 'Telefono'), street: text(address, 'Via'), postalCode: text(address, 'CodigoPostal'),
    city: text(address, 'Poblacion'), attentionOf: text(node, 'ALaAtencionDe'),
  };
}

/** Spain and Andorra have five digits, Portugal's national service four; MRW's post code base has no place for some (noSuchPlace). */
function postalCodeValid(code: string): boolean {
  return /^\d{4,5}$/.test(code) && !noSuchPlace(code);
}

/** `1,5` (MRW's decimal comma) → 1.5; anything else → NaN. */
function mrwNumber(value: string | null): number {
  return value !== null && /^\d+(,\d+)?$/.test(value) ? Number(value.replace(',', '.')) : NaN;
}

function checkRecipient(p: EmulatedParty, problems: string[]): void {
  if (!p.name) problems.push('Se debe indicar el nombre del destinatario');
  if (!p.phone) problems.push('Se debe indicar el teléfono de contacto del destinatario');
  if (!p.street) problems.push('Se debe indicar la dirección de entrega');
  if (!p.city) problems.push('Se debe indicar la población de entrega');
  if (!p.postalCode) problems.push('Se debe indicar el código postal de entrega');
  else if (!postalCodeValid(p.postalCode)) problems.push(`El código postal de entrega ${p.postalCode} no es válido.`);
}

function checkBultos(service: XmlObject, code: string, problems: string[]): EmulatedTransmEnvio['bultos'] {
  const listed = xmlList(xmlObject(service.Bultos).BultoRequest).map(xmlObject);
  const count = text(service, 'NumeroBultos');
  if (listed.length === 0 && !/^[1-9]\d*$/.test(count ?? '')) {
    problems.push('Debe indicar el número de bultos del envío');
    return [];
  }
  if (listed.length > 0 && count !== null && Number(count) !== listed.length) problems.push(`El número de bultos (${count}) no coincide con el desglose de bultos (${listed.length}).`);
  const limit = MRW_SERVICES[code]?.maxParcelKg;
  const bultos = listed.length > 0
    ? listed.map((b) => ({ weightKg: mrwNumber(text(b, 'Peso')), reference: text(b, 'Referencia') }))
    : Array.from({ length: Number(count) }, () => ({ weightKg: mrwNumber(text(service, 'Peso')) / Number(count), reference: null }));
  bultos.forEach((b, i) => {
    if (Number.isNaN(b.weightKg) || b.weightKg <= 0) problems.push(`El peso del bulto ${i + 1} no es válido.`);
    else if (limit !== undefined && b.weightKg > limit) problems.push(`El peso del bulto ${i + 1} (${String(b.weightKg).replace('.', ',')} kg) supera el máximo de ${limit} kg del servicio ${code}.`);
  });
  return bultos;
}

function checkCod(service: XmlObject, problems: string[]): EmulatedTransmEnvio['cod'] {
  const commission = text(service, 'Reembolso') ?? 'N';
  if (commission === 'N') return null;
  if (commission !== 'O' && commission !== 'D') {
    problems.push(`El indicador de reembolso ${commission} no es válido.`);
    return null;
  }
  const amount = text(service, 'ImporteReembolso') ?? '';
  if (!/^\d+(,\d{1,2})?$/.test(amount) || mrwNumber(amount) <= 0) problems.push('Debe indicar el importe del reembolso');
  return { commission, amount };
}

/**
 * `EnFranquicia` (N none, R pickup at, E delivery at, A both: OCA/l10n-spain delivery_mrw `mrw_en_franquicia`). At a
 * franchise office the office named must be MRW's and take parcels, and the "aviso de entrega en franquicia" (tipo 3)
 * is required (OCA's help text of `mrw_notification_type`); without an office named MRW uses the address's franchise.
 */
function checkFranchiseOffice(
  service: XmlObject, address: XmlObject, officeOf: (code: string) => EmulatedOffice | undefined, problems: string[],
): EmulatedTransmEnvio['franchiseOffice'] {
  const flag = text(service, 'EnFranquicia') ?? 'N';
  if (!['N', 'R', 'E', 'A'].includes(flag)) {
    problems.push(`El indicador de entrega en franquicia ${flag} no es válido.`);
    return null;
  }
  if (flag !== 'E' && flag !== 'A') return null;
  const code = text(address, 'CodigoFranquiciaAsociadaPuntoEntrega');
  const office = code === null ? undefined : officeOf(code);
  if (code !== null && !office) problems.push(`La franquicia de entrega ${code} no existe.`);
  else if (office && !office.open) problems.push(`La franquicia de entrega ${code} no admite envíos en este momento.`);
  const notices = xmlList(xmlObject(service.Notificaciones).NotificacionRequest).map(xmlObject);
  if (!notices.some((n) => text(n, 'TipoNotificacion') === '3' && text(n, 'MailSMS'))) problems.push('Debe indicar la notificación de aviso de entrega en franquicia al destinatario');
  return { code };
}

/**
 * Where MRW's SAGEC manual (v2.7 §3.2) wants the recipient's NIF, observations, the kind of goods and their declared
 * value, by the post code SAGEC reads (no country is sent): the Canary Islands (Las Palmas 35, Santa Cruz de Tenerife
 * 38) and Andorra, written 00 and its three digits (the manual's "00500 para Andorra la Vella"). MRW makes such a
 * shipment without them but prints its label "RF" for the franchise to complete; the emulator refuses it instead, so
 * the missing data shows at creation. Gibraltar's post code at MRW is unpublished: not recognised here.
 */
const CUSTOMS_DESTINATIONS: readonly { name: string; postalCode: RegExp }[] = [
  { name: 'Canarias', postalCode: /^(35|38)\d{3}$/ },
  { name: 'Andorra', postalCode: /^00\d{3}$/ },
];

const TIPOS_MERCANCIA: readonly string[] = Object.values(MRW_TIPOS_MERCANCIA);

function checkCustoms(request: XmlObject, recipient: EmulatedParty, problems: string[]): EmulatedCustoms | null {
  const service = xmlObject(request.DatosServicio);
  const delivery = xmlObject(request.DatosEntrega);
  const declared = { tipoMercancia: text(service, 'TipoMercancia'), valorDeclarado: text(service, 'ValorDeclarado'), recipientNif: text(delivery, 'Nif') };
  if (declared.tipoMercancia !== null && !TIPOS_MERCANCIA.includes(declared.tipoMercancia)) problems.push(`El tipo de mercancía ${declared.tipoMercancia} no es válido.`);
  if (declared.valorDeclarado !== null && Number.isNaN(mrwNumber(declared.valorDeclarado))) problems.push(`El valor declarado ${declared.valorDeclarado} no es válido.`);
  const destination = CUSTOMS_DESTINATIONS.find((d) => d.postalCode.test(recipient.postalCode ?? ''));
  if (destination) {
    if (!declared.recipientNif) problems.push(`Envío a ${destination.name}: falta el NIF del destinatario.`);
    if (!text(delivery, 'Observaciones')) problems.push(`Envío a ${destination.name}: faltan las observaciones con el contenido del envío.`);
    if (!declared.tipoMercancia) problems.push(`Envío a ${destination.name}: falta el tipo de mercancía.`);
    if (!declared.valorDeclarado) problems.push(`Envío a ${destination.name}: falta el valor declarado.`);
  }
  return declared.tipoMercancia !== null || declared.valorDeclarado !== null ? declared : null;
}

/** One TransmEnvio request as SAGEC would take it, or its sentences of refusal. */
export function checkTransmEnvio(request: XmlObject, officeOf: (code: string) => EmulatedOffice | undefined): TransmEnvioCheck {
  const problems: string[] = [];
  const service = xmlObject(request.DatosServicio);
  const sender = readParty(xmlObject(request.DatosRecogida));
  const recipient = readParty(xmlObject(request.DatosEntrega));
  checkRecipient(recipient, problems);
  if (sender.postalCode && !postalCodeValid(sender.postalCode)) problems.push(`El código postal de recogida ${sender.postalCode} no es válido.`);
  const code = text(service, 'CodigoServicio') ?? '';
  if (!Object.hasOwn(MRW_SERVICES, code)) problems.push(`El servicio ${code || '(vacío)'} no es válido para el abonado.`);
  const date = text(service, 'Fecha');
  if (date !== null && !/^\d{2}\/\d{2}\/\d{4}$/.test(date)) problems.push(`La fecha ${date} no tiene el formato dd/mm/aaaa.`);
  const bultos = checkBultos(service, code, problems);
  const cod = checkCod(service, problems);
  const franchiseOffice = checkFranchiseOffice(service, xmlObject(xmlObject(request.DatosEntrega).Direccion), officeOf, problems);
  const customs = checkCustoms(request, recipient, problems);
  if (problems.length > 0) return { ok: false, problems };
  return { ok: true, shipment: { reference: text(service, 'Referencia'), service: code, sender, recipient, bultos, cod, franchiseOffice, customs } };
}
