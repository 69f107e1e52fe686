/**
 * DPD Pickup points in the META-API emulator: generated points a shipment is sent to with a Parcel to Shop product
 * (337, 338) and `receiver.pudoId`, and the checks of that id. The META-API's "Pickup Shop Search" is not published
 * ("META API — Specification and description" 1.2: "please contact your DPD IT representative"), so the emulator
 * serves no point search.
 */
import { generatePoints, POINT_COUNTRIES, type GeneratedPoint } from '../emulator/points.js';

/** Points a country, in the countries of DPD's business units the generator knows. */
const POINTS_A_COUNTRY = 300;
const COUNTRIES = ['CZ', 'SK', 'PL', 'HU', 'RO', 'SI', 'HR', 'DE', 'AT', 'IT', 'ES'].filter((c) => POINT_COUNTRIES.includes(c));

/** The schema's `PudoId` form, "CC12345": the country code, then the point's number (five digits here, as the META-API's example PL50001). */
export const dpdPointId = (point: Pick<GeneratedPoint, 'seq' | 'countryCode'>) => `${point.countryCode}${10001 + point.seq}`;

export class DpdPickupPoints {
  private generated?: Map<string, GeneratedPoint>;

  /** Generated on first use: most emulator runs never ask for a point. */
  private get byId() {
    this.generated ??= new Map(COUNTRIES.flatMap((countryCode) => generatePoints({ countryCode, count: POINTS_A_COUNTRY, seed: 'dpd', types: ['parcelshop'] }))
      .map((p) => [dpdPointId(p), p]));
    return this.generated;
  }

  /** A point by its id, closed ones included (a shipment to one is refused, not unknown). */
  get(id: string): (GeneratedPoint & { id: string }) | undefined {
    const point = this.byId.get(id.toUpperCase());
    return point && { ...point, id: dpdPointId(point) };
  }

  /** Why the business unit refuses a shipment to `pudoId`, as [errorCode, errorMessage], or undefined; codes and wordings are inferred. */
  refusal(pudoId: string): [string, string] | undefined {
    const point = this.get(pudoId);
    if (!point) return ['PUDO_NOT_FOUND', `receiver.pudoId ${pudoId}: no such Pickup point`];
    if (!point.open) return ['PUDO_CLOSED', `receiver.pudoId ${point.id}: the Pickup point accepts no parcels now`];
    return undefined;
  }
}
