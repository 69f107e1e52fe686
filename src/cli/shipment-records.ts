import type { Address, Channel, Contact, Shipment, ShipmentPickupPoint } from './api-types.js';
import type { ApiClient } from './client.js';
import { CliError, EXIT } from './exit-codes.js';
import { describeProduct, productsOf } from './product-names.js';

/** Small helpers on the shipment records of the API, shared by ship, shipments and orders. */

export const shipmentPath = (id: string) => `/v1/shipments/${encodeURIComponent(id)}`;

/** `--wait N`: seconds, 0..30 (the API's cap). */
export function parseWait(value: string): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isInteger(n) || n < 0 || n > 30) throw new CliError('--wait must be a whole number of seconds from 0 to 30', EXIT.usage);
  return n;
}

export function contactName(c: Pick<Contact, 'company_name' | 'first_name' | 'last_name'>): string {
  const person = [c.first_name, c.last_name].filter(Boolean).join(' ');
  return [c.company_name, person].filter(Boolean).join(', ');
}

export function addressLine(a: Address): string {
  const house = [a.house_number, a.apartment_number].filter(Boolean).join('/');
  return `${[a.street_name, house].filter(Boolean).join(' ')}, ${a.postal_code} ${a.city_name}, ${a.country_code}`;
}

/**
 * `KM19080012 Trafika Nádražní (parcelshop) — Nádražní 12, 60200 Brno, CZ`: what a shipment's point record knows of it
 * (an order's, its id and type).
 */
export function pickupPointLine(p: Pick<ShipmentPickupPoint, 'provider_point_id'> & Partial<ShipmentPickupPoint>): string {
  const what = [p.provider_point_id, p.name, p.type && `(${p.type})`].filter(Boolean).join(' ');
  return p.address ? `${what} — ${addressLine(p.address)}` : what;
}

/** One line per field error, indented like the CLI's error output. */
export function fieldErrorLines(errors: Record<string, string[]>): string[] {
  return Object.entries(errors).map(([field, messages]) => `  ${field}: ${messages.join('; ')}`);
}

/** The shipment's product with its name (`PRID — PPL Parcel CZ Private - dobírka`): its channel says whose product it is. */
export async function describeShipmentProduct(client: ApiClient, s: Pick<Shipment, 'product' | 'shipping_channel_id'>): Promise<string | null> {
  if (!s.product) return null;
  try {
    const { body } = await client.get<{ data: Channel }>(`/v1/shipping-channels/${encodeURIComponent(s.shipping_channel_id)}`);
    return describeProduct(s.product, await productsOf(client, body.data.provider));
  } catch (err) {
    // a channel removed since keeps its shipments: the code alone still says which product
    if (err instanceof CliError && err.exitCode === EXIT.notFound) return s.product;
    throw err;
  }
}
