import type { PickupPointType } from '../carriers/types.js';
import type { Address } from './shipment-input.js';

/**
 * A shipment's pickup point as stored and answered: the carrier's id of it, its type, and — where the carrier's point
 * API knew the point when the shipment was made — its name and address (the shipment's destination address too).
 */
export interface StoredPickupPoint {
  provider_point_id: string;
  type: PickupPointType | null;
  name: string | null;
  address: Address | null;
}
