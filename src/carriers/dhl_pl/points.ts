import { CarrierRefusedError } from '../errors.js';
import type { CarrierContext, PickupPointService } from '../types.js';
import { DhlPlClient } from './client.js';
import { dhlPlSettings } from './settings.js';

const NAME = 'DHL Parcel Poland';

/** The search radius in km: getNearestServicepoints takes one and publishes no default; 5 is what integrations send (xGrz/dhl24). */
const RADIUS_KM = 5;

/**
 * DHL POP points: partner shops and DHL's counters (parcelshop) and DHL BOX lockers (locker), searched with WebAPI2's
 * getNearestServicepoints near a post code or in a city. DHL publishes no search near coordinates and no lookup of
 * a point by its number, so there is no `find`: createShipment's refusal of a bad point lands on `pickup_point`.
 */
export const dhlPlPoints: PickupPointService = {
  types: ['parcelshop', 'locker'],
  finder: {
    async search(query, settings, ctx: CarrierContext) {
      const parsed = dhlPlSettings.parse(settings);
      if (query.postalCode === undefined && query.city === undefined) {
        throw new CarrierRefusedError(`${NAME} searches its points near a post code or in a city, not near coordinates`, {
          near: [`${NAME}'s point search (getNearestServicepoints) takes a post code or a city, not coordinates: give postal_code or city`],
        });
      }
      const points = await new DhlPlClient(parsed, ctx).nearestServicepoints({
        country: query.countryCode, postcode: query.postalCode, city: query.city, radius: RADIUS_KM,
      });
      return points.filter((p) => !query.type || p.type === query.type).slice(0, query.limit);
    },
  },
};
