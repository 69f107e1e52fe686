/**
 * DHL Express Service Points in the MyDHL emulator: a few hundred generated per country, answered by
 * `GET /servicepoints` in ServicePointsRestResponseV3's shape (MyDHL OpenAPI 3.1.1, its examples' members and
 * status codes: 1 OK, 100 invalid parameter, 101 missing parameter, 201 none found, 600 none in the country).
 * Ids as DHL's: 3 characters of service area (here the town's first letters) and a 3-digit facility code (`PRA041`).
 * The emulator cannot geocode: an address of digits is read as a postal code, any other as a town.
 */
import type { FastifyReply } from 'fastify';
import { distanceKm, generatePoints, POINT_COUNTRIES, searchPoints, type GeneratedPoint } from '../emulator/points.js';
import type { DhlServicePointsAnswer } from './points.js';

const POINTS_PER_COUNTRY = 240;
const WEEKDAYS = ['MONDAY', 'TUESDAY', 'WEDNESDAY', 'THURSDAY', 'FRIDAY', 'SATURDAY', 'SUNDAY'];
/** The query's `servicePointTypes` codes → the answer's `servicePointType`. */
const QUERY_TYPES: Readonly<Record<string, string>> = { CTY: 'CITY', STN: 'STATION', PRT: 'PARTNER', 247: 'TWENTYFOURSEVEN' };
/** Every emulated point takes drop-offs and collections of every kind (the OpenAPI example's list). */
const CAPABILITY_CODES = ['73', '74', '78', '79', '80', '81', '82', '86', '87', '88'];
const MAX_RESULTS = 50;

export interface EmulatedDhlPoint {
  id: string;
  servicePointType: string;
  point: GeneratedPoint;
}

/** `Łódź` → `ODZ`, `Praha` → `PRA`: a service-area-like code from the town. */
const serviceArea = (town: string) => town.normalize('NFD').toUpperCase().replace(/[^A-Z]/g, '').slice(0, 3).padEnd(3, 'X');

/** The same points every run, by id. */
export function dhlPoints(): Map<string, EmulatedDhlPoint> {
  const points = POINT_COUNTRIES.flatMap((countryCode) => generatePoints({ countryCode, count: POINTS_PER_COUNTRY, seed: 'dhl', types: ['parcelshop', 'locker'] })
    .map((point) => ({
      id: `${serviceArea(point.city)}${String(point.seq).padStart(3, '0')}`,
      // one shop in eight a DHL counter, the rest partners' shops
      servicePointType: point.type === 'locker' ? 'TWENTYFOURSEVEN' : point.seq % 8 === 0 ? 'CITY' : 'PARTNER',
      point,
    })));
  return new Map(points.map((p) => [p.id, p]));
}

function view({ id, servicePointType, point: p }: EmulatedDhlPoint, from: { lat: number; lon: number } | null): Record<string, unknown> {
  const km = from ? Math.round(distanceKm(from, p) * 100) / 100 : null;
  const locker = servicePointType === 'TWENTYFOURSEVEN';
  return {
    facilityTypeCode: 'EC', serviceAreaCode: id.slice(0, 3),
    servicePointName: 'DHL Express Service Point', servicePointNameFormatted: 'DHL Express Service Point',
    localName: locker ? `DHL Express 24/7 ${p.name}` : p.name,
    servicePointType,
    address: {
      addressLine1: `${p.street} ${p.houseNumber}`, addressLine2: null, addressLine3: null, street: null, houseNumber: null, additionalInfo: null,
      city: p.city.toUpperCase(), zipCode: p.postalCode, state: null, country: p.countryCode,
    },
    geoLocation: { latitude: p.lat, longitude: p.lon, suggestion: null },
    ...(km === null ? {} : { distance: `${km} km`, distanceValue: String(km), distanceMetric: km }),
    shippingCutOffTime: '14:00:00.000',
    openingHours: {
      holidays: { open: [], closed: [] },
      openingHours: p.hours.map((h) => ({ dayOfWeek: WEEKDAYS[h.day - 1], openingTime: h.from, closingTime: h.to })),
    },
    servicePointCapabilities: {
      shipmentDropOff: true, shipmentCollection: true, labelPrinting: !locker,
      payWithCash: p.cashOnDelivery && !locker, payWithCreditCard: p.cashOnDelivery, capabilityCodes: CAPABILITY_CODES.join(','),
    },
    svpStatus: p.open ? 'A' : 'X',
    facilityId: id,
  };
}

type Query = Record<string, string | string[] | undefined>;
const all = (q: Query, name: string) => [q[name] ?? []].flat().flatMap((v) => v.split(',')).map((v) => v.trim()).filter(Boolean);
const one = (q: Query, name: string) => all(q, name)[0];

const answer = (statusCode: number, statusMessage: string, rest: Partial<DhlServicePointsAnswer> & Record<string, unknown> = {}) => ({
  status: { statusCode, statusMessage }, searchAddress: null, searchLocation: null, servicePoints: null, messages: null, liteMode: false, promotion: null, ...rest,
});

/** `GET /servicepoints`: one point by `servicePointID`, or a search by address or coordinates within a country. */
export function answerServicePoints(points: ReadonlyMap<string, EmulatedDhlPoint>, query: Query, reply: FastifyReply) {
  const statuses = all(query, 'svpStatus').map((s) => s.toUpperCase());
  const wantedStatus = (p: EmulatedDhlPoint) => (statuses.length > 0 ? statuses : ['A']).includes(p.point.open ? 'A' : 'X');
  const id = one(query, 'servicePointID');
  if (id) {
    const found = points.get(id.toUpperCase());
    return reply.send(found && wantedStatus(found)
      ? answer(1, 'OK', { servicePoints: [view(found, null)] })
      : answer(201, 'Error: No Service Points found.'));
  }
  const countryCode = one(query, 'countryCode')?.toUpperCase();
  const lat = Number(one(query, 'latitude'));
  const lon = Number(one(query, 'longitude'));
  const near = one(query, 'latitude') && one(query, 'longitude') && Number.isFinite(lat) && Number.isFinite(lon) ? { lat, lon } : undefined;
  if (!countryCode && !near) return reply.send(answer(101, 'Error: Mandatory parameter is missing or empty: countryCode or longitude and latitude'));
  const results = one(query, 'servicePointResults') ?? '10';
  if (!/^\d+$/.test(results)) return reply.send(answer(100, 'Error: Invalid parameter: servicePointResults, specified value is not an integer.'));
  const inCountry = [...points.values()].filter((p) => !countryCode || p.point.countryCode === countryCode);
  if (inCountry.length === 0) return reply.send(answer(600, 'Error: No Service Points available for this country'));
  const types = all(query, 'servicePointTypes').map((t) => QUERY_TYPES[t.toUpperCase()]);
  const capabilities = all(query, 'capability');
  const eligible = inCountry.filter((p) => wantedStatus(p) && (types.length === 0 || types.includes(p.servicePointType))
    && capabilities.every((c) => CAPABILITY_CODES.includes(c)));
  const address = one(query, 'address') ?? '';
  const byPostalCode = /^[\d\s-]+$/.test(address);
  const limit = Math.min(Number(results), MAX_RESULTS);
  const matched = searchPoints(eligible.map((p) => p.point), near ? { near, limit } : byPostalCode ? { postalCode: address, limit } : { city: address, limit });
  const byPoint = new Map(eligible.map((p) => [p.point, p]));
  const from = near ?? (matched[0] ? { lat: matched[0].lat, lon: matched[0].lon } : null);
  const found = matched.map((p) => view(byPoint.get(p)!, from));
  const searchLocation = from ? { latitude: from.lat, longitude: from.lon, suggestion: null } : null;
  if (found.length === 0) return reply.send(answer(201, 'Error: No Service Points found.', { searchAddress: address || null, searchLocation }));
  return reply.send(answer(1, 'OK', { searchAddress: address || null, searchLocation, mapCulture: 'en-GB', mapLanguage: 'en-GB', servicePoints: found }));
}
