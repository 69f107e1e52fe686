/**
 * GLS's public point lists in the emulator: a few hundred ParcelShops and ParcelLockers generated for each MyGLS
 * country, served as GLS's map host serves them (`GET /data/deliveryPoints/<country>.json`, the country in lower case,
 * `{ items: [...] }`, no login), in the list's item shape (points.ts). Ids in the form GLS gives Romanian points
 * (`RO021622-PLOCKER001`: country, digits, `-`, the kind, a number); a closed point is listed `outOfOrder`, as GLS
 * lists the lockers and shops that take no parcels now.
 */
import type { FastifyPluginAsync } from 'fastify';
import { generatePoints, type GeneratedPoint } from '../emulator/points.js';
import { GLS_COUNTRIES, GLS_POINT_FEATURES, type GlsCountry } from './codes.js';
import type { GlsDeliveryPoint } from './points.js';

/** Points generated per country. */
const POINTS_PER_COUNTRY = 300;

/** A listed point as the emulator holds it: GLS's id and the generated place. */
export interface EmulatedGlsPoint {
  id: string;
  country: GlsCountry;
  point: GeneratedPoint;
}

/** The same points every run, by id. */
export function glsPoints(): Map<string, EmulatedGlsPoint> {
  const points = GLS_COUNTRIES.flatMap((country) => generatePoints({
    countryCode: country.toUpperCase(), count: POINTS_PER_COUNTRY, seed: 'gls', types: ['parcelshop', 'locker'],
  }).map((point) => {
    const kind = point.type === 'locker' ? 'PLOCKER' : 'PARCELSH';
    const id = `${country.toUpperCase()}${point.postalCode.replace(/\D/g, '')}-${kind}${String(point.seq + 1).padStart(3, '0')}`;
    return { id, country, point };
  }));
  return new Map(points.map((p) => [p.id, p]));
}

/** Where a recipient pays cash on delivery: at a shop's counter, at a locker by card or online. */
function payments(p: GeneratedPoint): string[] {
  if (!p.cashOnDelivery) return [];
  return p.type === 'locker' ? ['acceptsCard', 'acceptsOnline'] : ['acceptsCash', 'acceptsCard'];
}

/** One item of the list. */
export function listedPoint({ id, point: p }: EmulatedGlsPoint): GlsDeliveryPoint {
  const locker = p.type === 'locker';
  const saturation = p.open ? (locker ? { lockerSaturation: 'lowVolume' } : {}) : { lockerSaturation: GLS_POINT_FEATURES.outOfOrder };
  return {
    id,
    goldId: 10_000 + p.seq,
    name: locker ? `GLS Locker ${p.name}` : p.name,
    contact: { countryCode: p.countryCode, postalCode: p.postalCode.replace(/\D/g, ''), city: p.city, address: `${p.street} ${p.houseNumber}` },
    location: [p.lat, p.lon],
    hours: p.hours.map((h) => [h.day, h.from, h.to]),
    features: ['pickup', GLS_POINT_FEATURES.delivery, ...payments(p)],
    type: locker ? 'parcel-locker' : 'parcel-shop',
    ...saturation,
    hasWheelchairAccess: locker,
  };
}

export function pointListRoutes(points: ReadonlyMap<string, EmulatedGlsPoint>): FastifyPluginAsync {
  const lists = new Map<string, string>();
  const listOf = (country: GlsCountry) => {
    let json = lists.get(country);
    if (json === undefined) {
      json = JSON.stringify({ items: [...points.values()].filter((p) => p.country === country).map(listedPoint) });
      lists.set(country, json);
    }
    return json;
  };
  return async (app) => {
    app.get('/data/deliveryPoints/:file', async (request, reply) => {
      const file = (request.params as { file: string }).file;
      const country = GLS_COUNTRIES.find((c) => file === `${c}.json`);
      // a static file: `CZ.json` or an unknown country is not there
      if (!country) return reply.code(404).type('text/html; charset=utf-8').send('<h1>404 Not Found</h1>');
      return reply.type('application/json; charset=utf-8').send(listOf(country));
    });
  };
}
