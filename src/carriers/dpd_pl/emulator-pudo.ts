/**
 * DPD Polska's point API (mypudo) in the emulator: DPD Pickup shops and lockers generated for Poland, served at
 * /api/pudo/details, /api/pudo/list/byaddress and /api/pudo/list/bylonglat in DPD's XML (RESPONSE, PUDO_ITEMS,
 * PUDO_ITEM with `active` and `overloaded`, SERVICE_PUDO, OPENING_HOURS_ITEMS …), a refused key as DPD's ERROR 314.
 */
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { XMLBuilder } from 'fast-xml-parser';
import { isBadCredential } from '../emulator/auth.js';
import { distanceKm, generatePoints, searchPoints, type GeneratedPoint } from '../emulator/points.js';
import { COD_SERVICE, PUDO_PATH } from './points.js';

/** A DPD Pickup point as the emulator holds it: DPD's id ("PL" and five digits, as PL11011) and the generated place. */
export interface EmulatedPudo {
  id: string;
  point: GeneratedPoint;
}

/** A few hundred DPD Pickup points in Poland, the same every run. */
export function dpdPlPudos(): Map<string, EmulatedPudo> {
  // two shops to a locker, cycled against the generator's eight towns so each town has both
  const points = generatePoints({ countryCode: 'PL', count: 400, seed: 'dpd_pl', types: ['parcelshop', 'parcelshop', 'locker'] });
  return new Map(points.map((point) => {
    const id = `PL${11001 + point.seq}`;
    return [id, { id, point }];
  }));
}

const builder = new XMLBuilder({ ignoreAttributes: false, attributeNamePrefix: '@', suppressEmptyNode: true, suppressBooleanAttributes: false });

function item(p: EmulatedPudo): Record<string, unknown> {
  const { point } = p;
  return {
    '@active': String(point.open), '@overloaded': 'false',
    PUDO_ID: p.id,
    ORDER: '1',
    // a shop is 100 (standard), a DPD Pickup Station locker 400401 (SwipBox)
    PUDO_TYPE: point.type === 'locker' ? '400401' : '100',
    SERVICE_PUDO: ['100', ...(point.cashOnDelivery ? [COD_SERVICE] : []), '200', '201'].join(';'),
    LANGUAGE: 'PL',
    ADDRESS1: `${point.street} ${point.houseNumber}`,
    // the point's name and phone, as DPD writes them ("Sklep Komputerowy Huzarcom : 668 380 849")
    LOCATION_HINT: `${point.type === 'locker' ? `DPD Pickup Station ${point.name}` : point.name} : 500 ${String(100 + (point.seq % 900))} ${String(point.seq).padStart(3, '0')}`,
    ZIPCODE: point.postalCode.replace(/\D/g, ''),
    CITY: point.city,
    COUNTRY: 'POL',
    LONGITUDE: String(point.lon),
    LATITUDE: String(point.lat),
    PARKING: 'true',
    HANDICAPE: String(point.type === 'locker'),
    OPENING_HOURS_ITEMS: { OPENING_HOURS_ITEM: point.hours.map((h) => ({ DAY_ID: String(h.day), START_TM: h.from, END_TM: h.to })) },
    HOLIDAY_ITEMS: '',
  };
}

function answer(reply: FastifyReply, status: number, content: Record<string, unknown>) {
  const xml = builder.build({ RESPONSE: content }) as string;
  return reply.code(status).type('application/xml; charset=utf-8').send(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?>${xml}`);
}

const items = (found: readonly EmulatedPudo[]) => ({ PUDO_ITEMS: found.length > 0 ? { PUDO_ITEM: found.map(item) } : '' });

/** DPD's answer to a key it does not know (answear bundle's fixture auth_error.xml: HTTP 401, code 314). */
const KEY_REFUSED = { ERROR: { '@code': '314', VALUE: 'Podana wartość key jest niepoprawna. Klucz nie istnieje lub jest nieaktywny.' } };

/** At most this many points per list (inferred); a list asked without its place is an ERROR, its codes inferred. */
const LIST_SIZE = 100;

export function pudoRoutes(pudos: ReadonlyMap<string, EmulatedPudo>): FastifyPluginAsync {
  const all = [...pudos.values()];
  const byPoint = new Map(all.map((p) => [p.point, p]));
  const of = (points: readonly GeneratedPoint[]) => points.map((point) => byPoint.get(point)!);
  return async (app) => {
    type Query = Record<string, string | undefined>;
    app.addHook('preHandler', async (request, reply) => {
      const key = (request.query as Query).key;
      if (!key || isBadCredential(key)) return answer(reply, 401, KEY_REFUSED);
    });

    app.get(`${PUDO_PATH}/details`, async (request, reply) => {
      const id = ((request.query as Query).pudoId ?? '').trim().toUpperCase();
      const found = pudos.get(id);
      return answer(reply, 200, { '@quality': '1', REQUEST_ID: '1', ...items(found ? [found] : []) });
    });

    app.get(`${PUDO_PATH}/list/byaddress`, async (request, reply) => {
      const q = request.query as Query;
      if (!q.zipCode && !q.city) return answer(reply, 400, { ERROR: { '@code': '101', VALUE: 'Podaj kod pocztowy lub miasto (zipCode, city)' } });
      const found = searchPoints(all.map((p) => p.point), { postalCode: q.zipCode, city: q.city, limit: LIST_SIZE });
      return answer(reply, 200, { '@quality': '1', REQUEST_ID: q.requestID ?? '', ...items(of(found)) });
    });

    app.get(`${PUDO_PATH}/list/bylonglat`, async (request, reply) => {
      const q = request.query as Query;
      const near = { lat: Number(q.latitude), lon: Number(q.longitude) };
      if (!q.latitude || !q.longitude || !Number.isFinite(near.lat) || !Number.isFinite(near.lon)) {
        return answer(reply, 400, { ERROR: { '@code': '102', VALUE: 'Podaj współrzędne (latitude, longitude)' } });
      }
      const radiusM = Number(q.max_distance_search) || 5_000;
      const found = searchPoints(all.map((p) => p.point), { near, limit: LIST_SIZE }).filter((p) => distanceKm(near, p) * 1000 <= radiusM);
      return answer(reply, 200, { '@quality': '1', REQUEST_ID: q.requestID ?? '', ...items(of(found)) });
    });
  };
}
