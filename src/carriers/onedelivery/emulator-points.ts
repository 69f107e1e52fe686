/**
 * One by Allegro's WEDO POINT pickup places in the emulator: generated places a package is sent to with product PUP
 * and `pup_branch` (bridge.intime.cz/doc/restapi-pup.html), and the checks of that code. One publishes no shape of its
 * place list (WeDoApi's `getDistributionPointList` is "not finished"), so the emulator serves none.
 */
import { generatePoints, type GeneratedPoint } from '../emulator/points.js';

/** Places in Czechia only: `pup_contact` is a Czech mobile ("české mobilní telefon", Pkg.java), so inferred. */
const CZECH_PLACES = 300;

/** Place codes: "VM" and five digits, as restapi-pup.html's example `VM00075`. */
const placeCode = (seq: number) => `VM${String(seq + 1).padStart(5, '0')}`;

export class OnedeliveryPoints {
  private generated?: Map<string, GeneratedPoint>;

  /** Generated on first use: most emulator runs never ask for a place. */
  private get byCode() {
    this.generated ??= new Map(generatePoints({ countryCode: 'CZ', count: CZECH_PLACES, seed: 'onedelivery', types: ['parcelshop'] })
      .map((p) => [placeCode(p.seq), p]));
    return this.generated;
  }

  /** A place by its code, closed ones included (a package to one is refused, not unknown). */
  get(code: string): (GeneratedPoint & { code: string }) | undefined {
    const place = this.byCode.get(code.toUpperCase());
    return place && { ...place, code: placeCode(place.seq) };
  }

  /**
   * Why One refuses a package to `pup_branch`, as a `detail` line, or undefined. The wording, and that One refuses a
   * closed place and cash on delivery at a place that collects none, are inferred.
   */
  refusal(pupBranch: string, cashOnDelivery: boolean): string | undefined {
    const place = this.get(pupBranch);
    if (!place) return `pup_branch: pickup place ${pupBranch} does not exist`;
    if (!place.open) return `pup_branch: pickup place ${place.code} takes no packages now`;
    if (cashOnDelivery && !place.cashOnDelivery) return `pup_branch: pickup place ${place.code} collects no cash on delivery`;
    return undefined;
  }
}
