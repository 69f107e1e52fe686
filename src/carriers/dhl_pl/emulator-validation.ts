/**
 * DHL24's business checks of one createShipments item, createShipment request (to a DHL point) or createShipmentReturn
 * request, as the emulator applies them: required fields of the documentation (createShipments, addressData,
 * definicjaPaczki, paymentData, serviceDefinition, createShipmentReturn), Polish postal codes, the product's weight
 * limit and the cash-on-delivery rules. DHL answers a refusal as a SOAP Fault whose faultstring
 * names the elements; the element names are the WSDL's, the Polish wording and the fault code 101 are inferred.
 */
import { xmlList, xmlObject, xmlString, type XmlObject } from '../soap.js';
import { DHL_PL_PRODUCTS, DHL_PL_RETURN_SERVICES, type DhlPlProduct, type DhlPlReturnService } from './codes.js';
import { noSuchPlace } from '../emulator/no-such-place.js';

export interface EmulatedParty {
  name: string;
  postalCode: string;
  city: string;
  street: string;
  houseNumber: string;
  apartmentNumber: string | null;
  country: string;
  contactPerson: string | null;
  contactPhone: string | null;
  contactEmail: string | null;
}

export interface EmulatedDhlShipment {
  reference: string | null;
  comment: string | null;
  content: string;
  shipmentDate: string;
  /** The product, or a return's service (ZK, ZC). */
  product: DhlPlProduct | DhlPlReturnService;
  accountNumber: string;
  shipper: EmulatedParty;
  receiver: EmulatedParty;
  pieces: { type: string; weight: number; width: number; height: number; length: number }[];
  cod: { amount: string } | null;
  /** The DHL point's SAP number the shipment goes to (createShipment's ship.servicePointAccountNumber), or null to a door. */
  servicePoint: string | null;
  /** The outbound shipment's waybill a return names (createShipmentReturn's primaryWaybillNumber), or null. */
  returnOf: string | null;
}

/** What the emulator knows of a DHL point when a shipment names it. */
export interface EmulatedDhlPoint {
  open: boolean;
  cashOnDelivery: boolean;
}

export type ShipmentCheck = { ok: true; shipment: EmulatedDhlShipment } | { ok: false; problems: string[] };

function text(node: XmlObject, key: string): string | null {
  const value = xmlString(node[key])?.trim();
  return value ? value : null;
}

const isTrue = (value: string | null) => value === 'true' || value === '1';

function readParty(node: XmlObject, country: string | null): EmulatedParty {
  return {
    name: text(node, 'name') ?? '', postalCode: text(node, 'postalCode') ?? '', city: text(node, 'city') ?? '', street: text(node, 'street') ?? '',
    houseNumber: text(node, 'houseNumber') ?? '', apartmentNumber: text(node, 'apartmentNumber'), country: country ?? 'PL',
    contactPerson: text(node, 'contactPerson'), contactPhone: text(node, 'contactPhone'), contactEmail: text(node, 'contactEmail'),
  };
}

function checkParty(p: EmulatedParty, role: 'shipper' | 'receiver', problems: string[]): void {
  const who = role === 'shipper' ? 'nadawcy' : 'odbiorcy';
  const need = (field: keyof EmulatedParty, what: string) => {
    if (!p[field]) problems.push(`${role}.${field}: brak pola ${what} ${who}`);
  };
  need('name', 'nazwa');
  need('city', 'miejscowość');
  need('street', 'ulica');
  need('houseNumber', 'numer domu');
  if (!p.postalCode) problems.push(`${role}.postalCode: brak kodu pocztowego ${who}`);
  // DHL's post code base has no 00000; a Polish code is five digits without a dash
  else if (noSuchPlace(p.postalCode) || (p.country === 'PL' && !/^\d{5}$/.test(p.postalCode))) {
    problems.push(`${role}.postalCode: nieprawidłowy kod pocztowy ${who} (${p.postalCode})`);
  }
  if (p.contactPhone && !/^\d{1,20}$/.test(p.contactPhone)) problems.push(`${role}.contactPhone: telefon kontaktowy ${who} musi być liczbą`);
  // DHL notifies the recipient by phone before delivery and refuses a receiver without one
  if (role === 'receiver' && !p.contactPhone) problems.push('receiver.contactPhone: brak telefonu kontaktowego odbiorcy');
}

function checkPieces(list: XmlObject, product: DhlPlProduct | DhlPlReturnService | undefined, problems: string[]): EmulatedDhlShipment['pieces'] {
  const items = xmlList(list.item).map(xmlObject);
  if (items.length === 0) problems.push('pieceList: przesyłka musi zawierać co najmniej jedną paczkę');
  // a return's parcels are inferred to have the domestic parcel's limit
  const limit = !product ? Infinity : Object.hasOwn(DHL_PL_PRODUCTS, product) ? DHL_PL_PRODUCTS[product as DhlPlProduct].maxWeightKg : RETURN_MAX_WEIGHT_KG;
  return items.flatMap((item, i) => {
    const type = text(item, 'type') ?? '';
    const number = (key: string) => Number(text(item, key) ?? NaN);
    const piece = { type, weight: number('weight'), width: number('width'), height: number('height'), length: number('length') };
    const quantity = Number(text(item, 'quantity') ?? 1);
    if (!['ENVELOPE', 'PACKAGE', 'PALLET'].includes(type)) problems.push(`pieceList.item[${i}].type: nieznany typ paczki (${type})`);
    if (type !== 'ENVELOPE') {
      if (!(piece.weight > 0)) problems.push(`pieceList.item[${i}].weight: brak wagi paczki`);
      else if (piece.weight > limit) problems.push(`pieceList.item[${i}].weight: waga paczki ${piece.weight} kg przekracza ${limit} kg dla produktu ${product}`);
      for (const side of ['width', 'height', 'length'] as const) if (!(piece[side] > 0)) problems.push(`pieceList.item[${i}].${side}: brak wymiaru paczki`);
    }
    return Array.from({ length: Number.isInteger(quantity) && quantity > 0 ? quantity : 1 }, () => piece);
  });
}

/** Cash on delivery as a request asks it, with the element names the refusals name. */
interface CodAsked {
  amount: string;
  form: string | null;
  insured: number;
  at: { amount: string; form: string; insurance: string };
}

function checkCod(asked: CodAsked | null, problems: string[]): EmulatedDhlShipment['cod'] {
  if (!asked) return null;
  const { amount, at } = asked;
  if (!(Number(amount) > 0)) problems.push(`${at.amount}: nieprawidłowa kwota pobrania (${amount})`);
  if (asked.form !== 'BANK_TRANSFER') problems.push(`${at.form}: jedyna forma zwrotu pobrania to BANK_TRANSFER`);
  if (asked.insured < Number(amount)) problems.push(`${at.insurance}: wartość ubezpieczenia musi być co najmniej równa kwocie pobrania`);
  return { amount };
}

/** ServiceDefinition's COD switch (createShipments). */
function codOfService(service: XmlObject): CodAsked | null {
  if (!isTrue(text(service, 'collectOnDelivery'))) return null;
  return {
    amount: text(service, 'collectOnDeliveryValue') ?? '', form: text(service, 'collectOnDeliveryForm'),
    insured: isTrue(text(service, 'insurance')) ? Number(text(service, 'insuranceValue') ?? 0) : 0,
    at: { amount: 'service.collectOnDeliveryValue', form: 'service.collectOnDeliveryForm', insurance: 'service.insuranceValue' },
  };
}

/** The special services COD and UBEZP (createShipment). */
function codOfSpecialServices(services: XmlObject): CodAsked | null {
  const items = xmlList(services.item).map(xmlObject);
  const of = (type: string) => items.find((i) => text(i, 'serviceType') === type);
  const cod = of('COD');
  if (!cod) return null;
  const insurance = of('UBEZP');
  return {
    amount: text(cod, 'serviceValue') ?? '', form: text(cod, 'collectOnDeliveryForm'), insured: insurance ? Number(text(insurance, 'serviceValue') ?? 0) : 0,
    at: { amount: 'shipmentInfo.specialServices.COD.serviceValue', form: 'shipmentInfo.specialServices.COD.collectOnDeliveryForm', insurance: 'shipmentInfo.specialServices.UBEZP.serviceValue' },
  };
}

const productOf = (code: string, at: string, problems: string[]): DhlPlProduct | undefined => {
  const product = Object.hasOwn(DHL_PL_PRODUCTS, code) ? (code as DhlPlProduct) : undefined;
  if (!product) problems.push(`${at}: nieznany produkt (${code})`);
  return product;
};

/** One createShipments item as DHL would take it, or its problems (one line each, naming the element). */
export function checkShipment(node: XmlObject): ShipmentCheck {
  const problems: string[] = [];
  const receiverNode = xmlObject(node.receiver);
  const shipper = readParty(xmlObject(node.shipper), 'PL');
  const receiver = readParty(receiverNode, text(receiverNode, 'country'));
  if (!text(receiverNode, 'country')) problems.push('receiver.country: brak kraju odbiorcy');
  checkParty(shipper, 'shipper', problems);
  checkParty(receiver, 'receiver', problems);
  const service = xmlObject(node.service);
  const product = productOf(text(service, 'product') ?? '', 'service.product', problems);
  // createShipments has no element for the point: SP goes through createShipment (inferred from createShipment.html)
  if (product === 'SP') problems.push('service.product: produkt SP (doręczenie do punktu DHL POP) wymaga numeru punktu; createShipments go nie przyjmuje, użyj createShipment');
  const pieces = checkPieces(xmlObject(node.pieceList), product, problems);
  const cod = checkCod(codOfService(service), problems);
  const payment = xmlObject(node.payment);
  const accountNumber = text(payment, 'accountNumber') ?? '';
  // paymentData: accountNumber string(7), the payer's SAP number
  if (text(payment, 'paymentMethod') === 'BANK_TRANSFER' && !/^\d{1,7}$/.test(accountNumber)) {
    problems.push('payment.accountNumber: płatność przelewem wymaga numeru klienta SAP');
  }
  const content = text(node, 'content');
  if (!content) problems.push('content: brak zawartości przesyłki');
  const shipmentDate = text(node, 'shipmentDate') ?? '';
  if (!/^\d{4}-\d{2}-\d{2}$/.test(shipmentDate)) problems.push(`shipmentDate: nieprawidłowa data nadania (${shipmentDate})`);
  if (text(node, 'skipRestrictionCheck') === null) problems.push('skipRestrictionCheck: brak pola');
  if (problems.length > 0 || !product) return { ok: false, problems };
  return {
    ok: true,
    shipment: {
      reference: text(node, 'reference'), comment: text(node, 'comment'), content: content!, shipmentDate, product, accountNumber,
      shipper, receiver, pieces, cod, servicePoint: null, returnOf: null,
    },
  };
}

/** An Addressat of createShipment (`address` and `contact`) as the party createShipments would have named. */
function addressat(node: XmlObject): XmlObject {
  const contact = xmlObject(node.contact);
  return { ...xmlObject(node.address), contactPerson: contact.personName ?? '', contactPhone: contact.phoneNumber ?? '', contactEmail: contact.emailAddress ?? '' };
}

/**
 * A createShipment request (the grouping method) as DHL would take it: the same business rules, and for product SP
 * the point: a shipment to a point names it, the point exists, serves, and takes cash on delivery when the shipment
 * carries it (DHL's own checks of the point are inferred; only REGULAR_PICKUP, no courier booking, is emulated).
 */
export function checkGroupedShipment(node: XmlObject, pointOf: (sap: string) => EmulatedDhlPoint | undefined): ShipmentCheck {
  const problems: string[] = [];
  const info = xmlObject(node.shipmentInfo);
  const ship = xmlObject(node.ship);
  const receiverNode = xmlObject(xmlObject(ship.receiver).address);
  const shipper = readParty(addressat(xmlObject(ship.shipper)), 'PL');
  const receiver = readParty(addressat(xmlObject(ship.receiver)), text(receiverNode, 'country'));
  if (!text(receiverNode, 'country')) problems.push('ship.receiver.address.country: brak kraju odbiorcy');
  checkParty(shipper, 'shipper', problems);
  checkParty(receiver, 'receiver', problems);
  if (text(info, 'dropOffType') !== 'REGULAR_PICKUP') problems.push(`shipmentInfo.dropOffType: emulator przyjmuje tylko REGULAR_PICKUP (${text(info, 'dropOffType') ?? 'brak'})`);
  const product = productOf(text(info, 'serviceType') ?? '', 'shipmentInfo.serviceType', problems);
  const pieces = checkPieces(xmlObject(node.pieceList), product, problems);
  const cod = checkCod(codOfSpecialServices(xmlObject(info.specialServices)), problems);
  const billing = xmlObject(info.billing);
  const accountNumber = text(billing, 'billingAccountNumber') ?? '';
  if (text(billing, 'paymentType') === 'BANK_TRANSFER' && !/^\d{1,7}$/.test(accountNumber)) {
    problems.push('shipmentInfo.billing.billingAccountNumber: płatność przelewem wymaga numeru klienta SAP');
  }
  const content = text(node, 'content');
  if (!content) problems.push('content: brak zawartości przesyłki');
  const shipmentDate = text(xmlObject(info.shipmentTime), 'shipmentDate') ?? '';
  if (!/^\d{4}-\d{2}-\d{2}$/.test(shipmentDate)) problems.push(`shipmentInfo.shipmentTime.shipmentDate: nieprawidłowa data nadania (${shipmentDate})`);
  if (!text(info, 'labelType')) problems.push('shipmentInfo.labelType: brak typu etykiety');
  const servicePoint = text(ship, 'servicePointAccountNumber');
  const at = 'ship.servicePointAccountNumber';
  if (product === 'SP' && !servicePoint) problems.push(`${at}: produkt SP (doręczenie do punktu DHL POP) wymaga numeru punktu`);
  if (servicePoint && product && product !== 'SP') problems.push(`${at}: numer punktu podaje się tylko z produktem SP, nie ${product}`);
  if (servicePoint && product === 'SP') {
    const point = pointOf(servicePoint);
    if (!point) problems.push(`${at}: nieznany punkt DHL POP ${servicePoint}`);
    else if (!point.open) problems.push(`${at}: punkt DHL POP ${servicePoint} jest nieczynny i nie przyjmuje przesyłek`);
    else if (cod && !point.cashOnDelivery) problems.push(`${at}: punkt DHL POP ${servicePoint} nie wydaje przesyłek za pobraniem`);
  }
  if (problems.length > 0 || !product) return { ok: false, problems };
  return {
    ok: true,
    shipment: {
      reference: text(node, 'reference'), comment: text(node, 'comment'), content: content!, shipmentDate, product, accountNumber,
      shipper, receiver, pieces, cod, servicePoint, returnOf: null,
    },
  };
}

const RETURN_MAX_WEIGHT_KG = 31.5;
const RETURN_SERVICES: readonly string[] = Object.values(DHL_PL_RETURN_SERVICES);

/**
 * A createShipmentReturn request as DHL would take it (createShipmentReturn.html): the return service ZK (within
 * Poland) or ZC (Connect, from abroad), `bookCourier`, billing to the receiver (RECEIVER, the only payer) on a SAP
 * number, the label's expiry date, insurance (UBEZP) as the only special service and only on a domestic return, the
 * same address and piece rules as any shipment. Inferred: a return goes to Poland, its expiry date is not past, and
 * its primaryWaybillNumber is one of the caller's shipments.
 */
export function checkReturnShipment(node: XmlObject, today: string, isOwnShipment: (waybill: string) => boolean): ShipmentCheck {
  const problems: string[] = [];
  const info = xmlObject(node.shipmentInfo);
  const ship = xmlObject(node.ship);
  const shipperNode = xmlObject(xmlObject(ship.shipper).address);
  const receiverNode = xmlObject(xmlObject(ship.receiver).address);
  const shipper = readParty(addressat(xmlObject(ship.shipper)), text(shipperNode, 'country'));
  const receiver = readParty(addressat(xmlObject(ship.receiver)), text(receiverNode, 'country'));
  if (!text(shipperNode, 'country')) problems.push('ship.shipper.address.country: brak kraju nadawcy');
  if (!text(receiverNode, 'country')) problems.push('ship.receiver.address.country: brak kraju odbiorcy');
  checkParty(shipper, 'shipper', problems);
  checkParty(receiver, 'receiver', problems);
  const service = text(info, 'serviceType') ?? '';
  if (!RETURN_SERVICES.includes(service)) problems.push(`shipmentInfo.serviceType: nieznana usługa zwrotu (${service}); dostępne: ${RETURN_SERVICES.join(', ')}`);
  if (receiver.country !== 'PL') problems.push(`ship.receiver.address.country: zwrot trafia do odbiorcy w Polsce, nie ${receiver.country}`);
  if (service === DHL_PL_RETURN_SERVICES.domestic && shipper.country !== 'PL') problems.push(`shipmentInfo.serviceType: zwrot krajowy ZK nadaje się w Polsce; z ${shipper.country} użyj ZC`);
  if (service === DHL_PL_RETURN_SERVICES.connect && shipper.country === 'PL') problems.push('shipmentInfo.serviceType: zwrot connect ZC nadaje się za granicą; z Polski użyj ZK');
  if (text(info, 'bookCourier') === null) problems.push('shipmentInfo.bookCourier: brak pola');
  const billing = xmlObject(info.billing);
  if (text(billing, 'shippingPaymentType') !== 'RECEIVER') problems.push(`shipmentInfo.billing.shippingPaymentType: przesyłkę zwrotną opłaca odbiorca (RECEIVER), nie ${text(billing, 'shippingPaymentType') ?? 'brak'}`);
  if (text(billing, 'paymentType') !== 'BANK_TRANSFER') problems.push('shipmentInfo.billing.paymentType: jedyna forma płatności to BANK_TRANSFER');
  const accountNumber = text(billing, 'billingAccountNumber') ?? '';
  if (!/^\d{1,7}$/.test(accountNumber)) problems.push('shipmentInfo.billing.billingAccountNumber: płatność przelewem wymaga numeru klienta SAP');
  for (const item of xmlList(xmlObject(info.specialServices).item).map(xmlObject)) {
    const type = text(item, 'serviceType');
    if (type !== 'UBEZP') problems.push(`shipmentInfo.specialServices: usługa ${type ?? 'brak'} niedostępna dla przesyłki zwrotnej (tylko UBEZP)`);
    else if (service !== DHL_PL_RETURN_SERVICES.domestic) problems.push('shipmentInfo.specialServices: ubezpieczenie UBEZP tylko dla zwrotów krajowych');
  }
  const expires = text(xmlObject(info.shipmentTime), 'labelExpDate') ?? '';
  if (!/^\d{4}-\d{2}-\d{2}$/.test(expires)) problems.push(`shipmentInfo.shipmentTime.labelExpDate: nieprawidłowa data ważności etykiety (${expires})`);
  else if (expires < today) problems.push(`shipmentInfo.shipmentTime.labelExpDate: data ważności etykiety ${expires} już minęła`);
  if (!text(info, 'labelType')) problems.push('shipmentInfo.labelType: brak typu etykiety');
  const primary = text(node, 'primaryWaybillNumber');
  if (primary && !isOwnShipment(primary)) problems.push(`primaryWaybillNumber: nie znaleziono przesyłki pierwotnej ${primary}`);
  const product = RETURN_SERVICES.includes(service) ? (service as DhlPlReturnService) : undefined;
  const pieces = checkPieces(xmlObject(node.pieceList), product, problems);
  const content = text(node, 'content');
  if (!content) problems.push('content: brak zawartości przesyłki');
  if (problems.length > 0 || !product) return { ok: false, problems };
  return {
    ok: true,
    shipment: {
      reference: text(node, 'reference'), comment: text(node, 'comment'), content: content!, shipmentDate: today, product, accountNumber,
      shipper, receiver, pieces, cod: null, servicePoint: null, returnOf: primary,
    },
  };
}
