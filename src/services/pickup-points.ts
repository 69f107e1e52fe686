import { and, asc, eq, isNull } from 'drizzle-orm';
import { CarrierTransientError } from '../carriers/errors.js';
import { findProvider } from '../carriers/registry.js';
import {
  PICKUP_POINT_TYPES, type PickupPoint, type PickupPointQuery, type PickupPointService, type PickupPointType, type ProviderDefinition,
} from '../carriers/types.js';
import { FieldErrorCollector, NotFoundError, ValidationError } from '../domain/errors.js';
import type { StoredPickupPoint } from '../domain/pickup-points.js';
import { COUNTRY_CODES } from '../domain/reference-data.js';
import type { Address } from '../domain/shipment-input.js';
import { shippingChannels } from '../store/schema.js';
import { channelSettings, loadChannelRow, type ChannelRow } from './channel-records.js';
import { carrierContext } from './channels.js';
import type { ServiceContext } from './context.js';

/** Points change seldom: a search or a point is asked of the carrier again after an hour. */
const CACHE_MS = 60 * 60_000;
const CACHE_ENTRIES = 1000;

/** The carriers' answers by provider, channel and question, oldest first (a Map keeps insertion order). */
const cache = new Map<string, { at: number; value: PickupPoint[] | PickupPoint | undefined }>();

async function cached<T extends PickupPoint[] | PickupPoint | undefined>(ctx: ServiceContext, key: string, ask: () => Promise<T>): Promise<T> {
  const now = ctx.clock.now();
  const hit = cache.get(key);
  if (hit && now - hit.at < CACHE_MS) return hit.value as T;
  const value = await ask();
  cache.delete(key);
  cache.set(key, { at: now, value });
  while (cache.size > CACHE_ENTRIES) cache.delete(cache.keys().next().value!);
  return value;
}

/** The provider's point service, or the refusal naming what it lacks on `path`. */
function pointServiceOf(provider: ProviderDefinition, path: string, errors: FieldErrorCollector): PickupPointService | undefined {
  const service = provider.adapter.pickupPoints;
  if (!service) errors.add(path, `${provider.name} delivers only to doors through packdesk: it takes no pickup point`);
  return service;
}

/** Where a finder is asked: through a channel of the account, with its settings (credentials, sandbox, base URL). */
interface Asking {
  provider: ProviderDefinition;
  finder: NonNullable<PickupPointService['finder']>;
  channel: ChannelRow;
}

/**
 * The channel the carrier's point API is asked through: the one given, else the account's oldest active channel of
 * the provider. Even a public point API is asked through a channel, so that its sandbox and base URL hold.
 */
async function askingFor(ctx: ServiceContext, accountId: string, given: { provider?: string; shipping_channel_id?: string }): Promise<Asking> {
  const errors = new FieldErrorCollector();
  let channel: ChannelRow | undefined;
  if (given.shipping_channel_id !== undefined) {
    const row = await loadChannelRow(ctx, given.shipping_channel_id);
    if (!row || row.accountId !== accountId) errors.add('shipping_channel_id', 'is not a shipping channel of this account');
    else if (given.provider !== undefined && row.provider !== given.provider) errors.add('provider', `is not the channel's provider (${row.provider})`);
    else channel = row;
  } else if (given.provider === undefined) errors.add('provider', 'is required (or shipping_channel_id)');
  const code = channel?.provider ?? given.provider;
  const provider = code === undefined ? undefined : findProvider(code);
  if (code !== undefined && !provider) errors.add('provider', `${code} is not a provider packdesk knows`);
  const path = channel ? 'shipping_channel_id' : 'provider';
  const service = provider && pointServiceOf(provider, path, errors);
  if (service && !service.finder) errors.add(path, `${provider!.name} publishes no search of its points: give the point's id from the shop's checkout`);
  if (service?.finder && !channel && given.shipping_channel_id === undefined) {
    channel = await ctx.db.select().from(shippingChannels)
      .where(and(eq(shippingChannels.accountId, accountId), eq(shippingChannels.provider, provider!.code), eq(shippingChannels.status, 'active'), isNull(shippingChannels.deletedAt)))
      .orderBy(asc(shippingChannels.createdAt)).limit(1).get();
    if (!channel) errors.add('provider', `this account has no active ${provider!.name} channel to ask ${provider!.name}'s point search through`);
  }
  errors.throwIfAny();
  return { provider: provider!, finder: service!.finder!, channel: channel! };
}

const LIMIT_MAX = 100;

export interface PointSearchQuery {
  provider?: string;
  shipping_channel_id?: string;
  country: string;
  postal_code?: string;
  city?: string;
  near?: string;
  type?: string;
  limit?: number;
}

/** Searches the carrier's points near a postal code, in a city or near coordinates; an hour's answers are reused. */
export async function searchPickupPoints(ctx: ServiceContext, accountId: string, q: PointSearchQuery) {
  const errors = new FieldErrorCollector();
  if (!COUNTRY_CODES.has(q.country)) errors.add('country', 'must be an ISO 3166-1 alpha-2 country code (e.g. CZ)');
  const near = q.near === undefined ? undefined : /^(-?\d{1,2}(?:\.\d+)?),\s*(-?\d{1,3}(?:\.\d+)?)$/.exec(q.near);
  if (q.near !== undefined && (!near || Math.abs(Number(near[1])) > 90 || Math.abs(Number(near[2])) > 180)) errors.add('near', 'must be latitude,longitude in degrees (e.g. 50.0755,14.4378)');
  if (q.postal_code === undefined && q.city === undefined && q.near === undefined) errors.add('postal_code', 'postal_code, city or near is required');
  if (q.type !== undefined && !(PICKUP_POINT_TYPES as readonly string[]).includes(q.type)) errors.add('type', `must be one of ${PICKUP_POINT_TYPES.join(', ')}`);
  errors.throwIfAny();
  const asking = await askingFor(ctx, accountId, q);
  const served = asking.provider.adapter.pickupPoints!.types;
  if (q.type !== undefined && !served.includes(q.type as PickupPointType)) {
    throw new ValidationError({ type: [`${asking.provider.name} delivers to ${served.join(', ')} points, not ${q.type}`] });
  }
  const query: PickupPointQuery = {
    countryCode: q.country, limit: Math.min(q.limit ?? 20, LIMIT_MAX),
    ...(q.postal_code !== undefined ? { postalCode: q.postal_code } : {}),
    ...(q.city !== undefined ? { city: q.city } : {}),
    ...(near ? { near: { lat: Number(near[1]), lon: Number(near[2]) } } : {}),
    ...(q.type !== undefined ? { type: q.type as PickupPointType } : {}),
  };
  const key = `search|${asking.channel.id}|${JSON.stringify(query)}`;
  const points = await cached(ctx, key, () => asking.finder.search(query, channelSettings(ctx, asking.channel), carrierContext(ctx, asking.channel)));
  return points.map((p) => presentPickupPoint(asking.provider.code, p));
}

/** One point by the carrier's id (checked at the carrier, or from the last hour's answer). */
export async function getPickupPoint(ctx: ServiceContext, accountId: string, provider: string, id: string, channelId?: string) {
  const asking = await askingFor(ctx, accountId, { provider, ...(channelId !== undefined ? { shipping_channel_id: channelId } : {}) });
  const point = await findPoint(ctx, asking, id);
  if (point === UNKNOWABLE) throw new ValidationError({ id: [`${asking.provider.name} looks points up only by searching them (postal_code or city), not by id`] });
  if (!point) throw new NotFoundError(`${asking.provider.name} has no pickup point ${id}`);
  return presentPickupPoint(asking.provider.code, point);
}

/** A carrier that looks points up only by searching: it cannot tell of a point no recent search answered. */
const UNKNOWABLE = Symbol('unknowable');

/** The point by id: asked of the carrier, or where it has no lookup, from the channel's searches of the last hour. */
function findPoint(ctx: ServiceContext, asking: Asking, id: string): Promise<PickupPoint | undefined | typeof UNKNOWABLE> {
  const { find } = asking.finder;
  if (find) return cached(ctx, `find|${asking.channel.id}|${id}`, () => find(id, channelSettings(ctx, asking.channel), carrierContext(ctx, asking.channel)));
  const now = ctx.clock.now();
  for (const [key, hit] of cache) {
    if (!key.startsWith(`search|${asking.channel.id}|`) || now - hit.at >= CACHE_MS) continue;
    const found = (hit.value as PickupPoint[]).find((p) => p.id === id);
    if (found) return Promise.resolve(found);
  }
  return Promise.resolve(UNKNOWABLE);
}

function presentPickupPoint(provider: string, p: PickupPoint) {
  return {
    provider, provider_point_id: p.id, name: p.name, type: p.type,
    address: pointAddress(p),
    opening_hours: p.openingHours, location: p.location, cash_on_delivery: p.cashOnDelivery, open: p.open,
  };
}

function pointAddress(p: PickupPoint): Address {
  return { street_name: p.address.street, house_number: p.address.houseNumber, city_name: p.address.city, postal_code: p.address.postalCode, country_code: p.address.countryCode };
}

/**
 * A shipment's `pickup_point`, checked before the carrier is called: the channel's carrier delivers to points (of that
 * type), and where it publishes its points, the point exists, is open, and takes cash on delivery when the shipment
 * carries it. The stored point keeps its name and address; the shipment's destination is the point's address when the
 * body gave none. A point API that does not answer now leaves the check to the carrier's own refusal.
 */
export async function resolveShipmentPoint(
  ctx: ServiceContext, channel: ChannelRow, given: { provider_point_id: string; type?: string | null }, cod: boolean, errors: FieldErrorCollector,
): Promise<StoredPickupPoint | undefined> {
  const provider = findProvider(channel.provider)!;
  const service = pointServiceOf(provider, 'pickup_point', errors);
  if (!service) return undefined;
  const type = given.type ?? null;
  if (type !== null && !service.types.includes(type as PickupPointType)) {
    errors.add('pickup_point.type', `${provider.name} delivers to ${service.types.join(', ')} points, not ${type}`);
    return undefined;
  }
  const stored: StoredPickupPoint = { provider_point_id: given.provider_point_id, type: type as PickupPointType | null, name: null, address: null };
  if (!service.finder) return stored;
  let point: PickupPoint | undefined;
  try {
    const found = await findPoint(ctx, { provider, finder: service.finder, channel }, given.provider_point_id);
    if (found === UNKNOWABLE) return stored;
    point = found;
  } catch (err) {
    if (!(err instanceof CarrierTransientError)) throw err;
    ctx.log.warn({ provider: provider.code, point: given.provider_point_id, error: err.message }, 'the point API did not answer: the carrier checks the point at creation');
    return stored;
  }
  const path = 'pickup_point.provider_point_id';
  if (!point) errors.add(path, `${provider.name} has no pickup point ${given.provider_point_id}`);
  else if (!point.open) errors.add(path, `${provider.name}'s point ${point.id} (${point.name}) takes no parcels now`);
  else if (type !== null && point.type !== type) errors.add('pickup_point.type', `${provider.name}'s point ${point.id} is a ${point.type}, not a ${type}`);
  else if (cod && !point.cashOnDelivery) errors.add('pickup_point', `${provider.name}'s point ${point.id} (${point.name}) takes no cash on delivery`);
  if (!point) return undefined;
  return { provider_point_id: point.id, type: point.type, name: point.name, address: pointAddress(point) };
}
