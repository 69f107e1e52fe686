import { mapConcurrently } from '../concurrently.js';
import { CarrierRefusedError } from '../errors.js';
import { markedSend } from '../marked-send.js';
import type {
  CarrierAdapter, CarrierContext, CarrierProgress, ChannelSettings, CreatedAtCarrier, ParcelToTrack, ShipmentForCarrier, TrackResult, ValidationOutcome,
} from '../types.js';
import { BASELINKER_ERRORS } from './codes.js';
import { BaselinkerClient, BaselinkerCredentialsRefused, BaselinkerRefusedError } from './client.js';
import { baselinkerDispatcher } from './dispatch.js';
import { baselinkerCreateRequests, orderDate, serviceOf, type BaselinkerCreateRequests } from './request.js';
import { parseLabel, parseTracking } from './response.js';
import { baselinkerSettings, type BaselinkerSettings } from './settings.js';

/** getCourierPackagesStatusHistory takes at most 100 packages a call (api.baselinker.com). */
const BASELINKER_TRACK_BATCH = 100;
/** getOrders answers at most 100 orders a call; a lost order is looked for in this many answers. */
const ORDER_PAGE = 100;
const ORDER_PAGES_SEARCHED = 10;

interface CreatedPackage {
  packageId: number;
  number: string;
}

interface BaselinkerProgress {
  /** Set before a call that creates something and cleared once Base.com answered: still set means the answer was lost. */
  sendingSince?: number;
  /** The Base.com order of this shipment, once added. */
  orderId?: number;
  /** Packages created on it so far, one per parcel in order. */
  packages?: CreatedPackage[];
}

type CreateContext = CarrierContext & { progress: CarrierProgress };

/** `markedSend` saves only its mark: this keeps the order and packages beside it. */
function keeping(ctx: CreateContext, kept: BaselinkerProgress): CreateContext {
  return { ...ctx, progress: { load: () => ctx.progress.load(), save: (p) => ctx.progress.save({ ...kept, ...p }) } };
}

/** Our order among the recipient's orders since the shipping day, by the `sh_…` id in its extra_field_1 (getOrders). */
async function findOrder(client: BaselinkerClient, s: ShipmentForCarrier, ctx: CarrierContext): Promise<number | undefined> {
  let idFrom: number | undefined;
  for (let page = 0; page < ORDER_PAGES_SEARCHED; page++) {
    const orders = await client.orders({ dateFrom: orderDate(s), email: s.recipient.email || undefined, idFrom });
    const ours = orders.find((o) => o.extra_field_1 === s.id);
    if (ours) return ours.order_id;
    if (orders.length < ORDER_PAGE) return undefined;
    idFrom = Math.max(...orders.map((o) => o.order_id)) + 1;
  }
  ctx.log.warn({ shipmentId: s.id }, 'Baselinker search for an order whose answer was lost stopped after 1000 orders: a second order may be added');
  return undefined;
}

/** The shipment's order: the one added on an earlier attempt, found again after a lost answer, or a new one. */
async function orderOf(client: BaselinkerClient, s: ShipmentForCarrier, requests: BaselinkerCreateRequests, ctx: CreateContext): Promise<number> {
  const saved = (ctx.progress.load() ?? {}) as BaselinkerProgress;
  if (saved.orderId !== undefined) return saved.orderId;
  const found = saved.sendingSince !== undefined ? await findOrder(client, s, ctx) : undefined;
  const orderId = found ?? await markedSend(ctx, saved.sendingSince, () => client.addOrder(requests.addOrder));
  await ctx.progress.save({ orderId });
  return orderId;
}

/**
 * Deletes the packages and the order of a shipment that will not go out as it is (refused, wrong label format), best
 * effort: packdesk forgets its progress on a refusal, so the corrected shipment starts with a new order.
 */
async function abandonOrder(client: BaselinkerClient, courierCode: string, orderId: number, packages: readonly CreatedPackage[], ctx: CarrierContext): Promise<void> {
  const warn = (what: string) => (err: unknown) => ctx.log.warn({ orderId, err: String(err) }, `could not delete ${what} of a refused shipment at Baselinker`);
  for (const p of packages) await client.deletePackage(courierCode, p.number).catch(warn(`package ${p.number}`));
  await client.deleteOrders([orderId]).catch(warn('the order'));
}

/** A weight refusal of one package is about that parcel. */
function onParcel(err: BaselinkerRefusedError, index: number): BaselinkerRefusedError {
  if (!Object.hasOwn(err.errors, 'parcels')) return err;
  const { parcels, ...rest } = err.errors;
  return new BaselinkerRefusedError(err.message, { ...rest, [`parcels.${index}.weight_amount`]: parcels! }, err.code);
}

/**
 * One package per parcel, in order. After a lost answer, the order's packages at Base.com (getOrderPackages) are the
 * truth; a refusal abandons the order.
 */
async function packagesOf(client: BaselinkerClient, orderId: number, requests: BaselinkerCreateRequests, parsed: BaselinkerSettings, ctx: CreateContext): Promise<CreatedPackage[]> {
  const saved = (ctx.progress.load() ?? {}) as BaselinkerProgress;
  let packages = saved.packages ?? [];
  if (saved.sendingSince !== undefined) {
    const atBaselinker = await client.orderPackages(orderId);
    packages = atBaselinker.sort((a, b) => a.package_id - b.package_id).map((p) => ({ packageId: p.package_id, number: p.courier_package_nr }));
    await ctx.progress.save({ orderId, packages });
  }
  for (let i = packages.length; i < requests.createPackage.length; i++) {
    try {
      const created = await markedSend(keeping(ctx, { orderId, packages }), undefined, () => client.createPackage(orderId, requests.createPackage[i]!));
      packages = [...packages, { packageId: Number(created.package_id), number: String(created.package_number) }];
      await ctx.progress.save({ orderId, packages });
    } catch (err) {
      if (!(err instanceof CarrierRefusedError)) throw err;
      await abandonOrder(client, parsed.courierCode, orderId, packages, ctx);
      throw err instanceof BaselinkerRefusedError ? onParcel(err, i) : err;
    }
  }
  return packages;
}

async function createShipment(s: ShipmentForCarrier, settings: ChannelSettings, ctx: CreateContext): Promise<CreatedAtCarrier> {
  const parsed = baselinkerSettings.parse(settings);
  const requests = baselinkerCreateRequests(s, parsed);
  const client = new BaselinkerClient(parsed, ctx);
  const orderId = await orderOf(client, s, requests, ctx);
  const packages = await packagesOf(client, orderId, requests, parsed, ctx);
  const ours = packages.slice(0, s.parcels.length);
  const labels = await mapConcurrently(ours, async (p) => parseLabel(await client.label(parsed.courierCode, p.packageId)));
  const parcels = [];
  for (const [i, p] of ours.entries()) {
    const label = labels[i]!;
    if (label.format !== s.labelFormat) {
      await abandonOrder(client, parsed.courierCode, orderId, packages, ctx);
      const reason = `Baselinker's courier ${parsed.courierCode} labels in ${label.extension || 'an unknown format'}, not ${s.labelFormat}`;
      throw new CarrierRefusedError(reason, { label_format: [`${reason}; choose ${label.extension || 'another format'} or set the format in the courier account`] });
    }
    // tracking asks by package id, and no method finds a package by its number: the store keeps it with the parcel
    parcels.push({ trackingNumber: p.number, label: label.bytes, carrierRef: String(p.packageId) });
  }
  await ctx.progress.save({});
  return { providerShipmentId: String(orderId), product: serviceOf(s, parsed) ?? parsed.courierCode, parcels };
}

/**
 * The package id of each parcel: saved with it at creation, or, for a parcel saved without one, found among its
 * order's packages (getOrderPackages). A number shipped elsewhere has neither and is reported not found.
 */
async function packageIdsOf(client: BaselinkerClient, parcels: readonly ParcelToTrack[]): Promise<Record<string, number>> {
  const ids: Record<string, number> = {};
  const numbersByOrder = new Map<string, Set<string>>();
  for (const p of parcels) {
    if (p.carrierRef !== undefined) ids[p.trackingNumber] = Number(p.carrierRef);
    else if (p.providerShipmentId !== undefined) {
      numbersByOrder.set(p.providerShipmentId, (numbersByOrder.get(p.providerShipmentId) ?? new Set<string>()).add(p.trackingNumber));
    }
  }
  for (const [orderId, numbers] of numbersByOrder) {
    const packages = await client.orderPackages(Number(orderId)).catch((err: unknown) => {
      if (err instanceof BaselinkerRefusedError && err.code === BASELINKER_ERRORS.orderNotFound) return [];
      throw err;
    });
    for (const p of packages) if (numbers.has(p.courier_package_nr)) ids[p.courier_package_nr] = p.package_id;
  }
  return ids;
}

async function track(parcels: readonly ParcelToTrack[], settings: ChannelSettings, ctx: CarrierContext): Promise<TrackResult[]> {
  const client = new BaselinkerClient(baselinkerSettings.parse(settings), ctx);
  const results: TrackResult[] = [];
  for (let i = 0; i < parcels.length; i += BASELINKER_TRACK_BATCH) {
    const asked = parcels.slice(i, i + BASELINKER_TRACK_BATCH);
    const packageIds = await packageIdsOf(client, asked);
    const ids = Object.values(packageIds);
    const answer = ids.length > 0 ? await client.statusHistory(ids) : { status: 'SUCCESS', packages_history: {} };
    results.push(...parseTracking({ packageIds, answer }, asked.map((p) => p.trackingNumber)));
  }
  return results;
}

async function validate(settings: ChannelSettings, ctx: CarrierContext): Promise<ValidationOutcome> {
  const parsed = baselinkerSettings.parse(settings);
  const client = new BaselinkerClient(parsed, ctx);
  const missing = (key: string, what: string, among: { value: string }[]): ValidationOutcome => ({
    ok: false, message: `Baselinker has no ${what} on this account`,
    errors: { [`settings.${key}`]: [`not one of this account's: ${among.map((o) => o.value).join(', ') || 'none'}`] },
  });
  try {
    const couriers = await client.couriers();
    if (!couriers.some((c) => c.value === parsed.courierCode)) return missing('courierCode', `courier ${parsed.courierCode}`, couriers);
    if (parsed.accountId !== undefined) {
      const accounts = await client.courierAccounts(parsed.courierCode);
      if (!accounts.some((a) => a.value === String(parsed.accountId))) return missing('accountId', `${parsed.courierCode} account ${parsed.accountId}`, accounts);
    }
    for (const key of ['service', 'pointService'] as const) {
      const service = parsed[key];
      if (service === undefined) continue;
      const services = await client.courierServices(parsed.courierCode);
      if (!services.some((o) => o.value === service)) return missing(key, `${parsed.courierCode} service ${service}`, services);
    }
    const statuses = await client.orderStatuses();
    if (!statuses.some((st) => st.value === String(parsed.orderStatusId))) return missing('orderStatusId', `order status ${parsed.orderStatusId}`, statuses);
    return { ok: true };
  } catch (err) {
    if (!(err instanceof BaselinkerCredentialsRefused)) throw err;
    return { ok: false, message: err.message, errors: { 'settings.apiToken': [`refused by Baselinker: ${err.reason}`] } };
  }
}

export const baselinkerAdapter: CarrierAdapter = {
  dispatch: baselinkerDispatcher,
  validate,
  createShipment,

  /** deleteCourierPackage takes the package number; a package deleted before counts as deleted. */
  async cancel(shipment, settings, ctx) {
    const parsed = baselinkerSettings.parse(settings);
    const client = new BaselinkerClient(parsed, ctx);
    for (const number of shipment.trackingNumbers) {
      await client.deletePackage(parsed.courierCode, number).catch((err: unknown) => {
        if (!(err instanceof BaselinkerRefusedError) || err.code !== BASELINKER_ERRORS.packageNotFound) throw err;
      });
    }
  },

  track,
  trackBatchSize: BASELINKER_TRACK_BATCH,

  /**
   * The point goes on the order (addOrder `delivery_point_id`), its courier's service is the channel's `pointService`:
   * the types are those of Base.com's couriers with points (InPost lockers, DHL POP shops and DHL BOX, DPD Pickup …).
   * No finder: Base.com publishes no point search, each courier's points are its own; the courier refuses an unknown one.
   */
  pickupPoints: { types: ['parcelshop', 'locker'] },

  /** The token alone lists couriers and order statuses; a courier's accounts and services need its code too. */
  async settingOptions(key, settings, ctx) {
    const parsed = baselinkerSettings.parse(settings);
    if (typeof parsed.apiToken !== 'string' || parsed.apiToken === '') return undefined;
    const client = new BaselinkerClient(parsed, ctx);
    const courier = typeof parsed.courierCode === 'string' && parsed.courierCode !== '' ? parsed.courierCode : undefined;
    switch (key) {
      case 'courierCode': return client.couriers();
      case 'accountId': return courier ? client.courierAccounts(courier) : [];
      case 'orderStatusId': return client.orderStatuses();
      case 'service':
      case 'pointService': return courier ? client.courierServices(courier) : [];
      default: return undefined;
    }
  },

  // Base.com serves no tracking page of its own and the number alone does not say which courier carries it: a
  // tracker that recognises every courier's numbers stands in (https://www.17track.net).
  trackingUrl: (n) => `https://t.17track.net/en#nums=${encodeURIComponent(n)}`,
  // The courier's own consignment number, varchar(40) (createPackage `package_number`).
  trackingNumberPattern: /^[0-9A-Za-z-]{6,40}$/,
};
