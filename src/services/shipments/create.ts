import { eq } from 'drizzle-orm';
import { isoTime } from '../../domain/clock.js';
import { checkCustoms, crossesCustomsBorder, type CustomsInput } from '../../domain/customs.js';
import { DEFAULT_LABEL_DPI, type LabelDpi } from '../../domain/labels.js';
import { FieldErrorCollector } from '../../domain/errors.js';
import { toMinorUnits } from '../../domain/money.js';
import { checkParcelMeasures, withParcelDefaults, type ParcelDefaults } from '../../domain/parcel-defaults.js';
import { normaliseParties } from '../../domain/parties.js';
import { COUNTRY_CODES } from '../../domain/reference-data.js';
import type { StoredPickupPoint } from '../../domain/pickup-points.js';
import type { ChosenBy } from '../../domain/shipping-rules.js';
import { checkShipmentInput, type Address, type Contact, type CreationCapabilities } from '../../domain/shipment-input.js';
import { totalKilograms } from '../../domain/units.js';
import { findProvider } from '../../carriers/registry.js';
import type { ProviderDefinition } from '../../carriers/types.js';
import { parcels, shipments, shippingChannels } from '../../store/schema.js';
import type { ServiceContext } from '../context.js';
import { recordEvent } from '../events.js';
import { bindIdempotentResource } from '../idempotency.js';
import { enqueueJob, jobLane } from '../jobs.js';
import { checkPrintRequest } from '../printing/print-jobs.js';
import { loadPrinterRow } from '../printing/printers.js';
import { resolveShipmentPoint } from '../pickup-points.js';
import { presentShipment, type ShipmentRow } from './records.js';
import { indexShipmentForSearch, nextShipmentSeq } from './search.js';

export const CREATE_AT_CARRIER = 'shipment.create';
/** Creation at the carrier: up to 8 attempts over about 6 hours. */
export const CREATE_MAX_ATTEMPTS = 8;

/**
 * Queues the shipment's creation at its carrier, in its channel's lane: channels take turns, and the channels of one
 * provider share its limits (daemon/workers/index.ts).
 */
export async function queueCreationAtCarrier(ctx: ServiceContext, shipment: { id: string; provider: string; channelId: string }): Promise<void> {
  await enqueueJob(ctx, {
    kind: CREATE_AT_CARRIER, subjectId: shipment.id, lane: jobLane(shipment.provider, shipment.channelId), maxAttempts: CREATE_MAX_ATTEMPTS,
  });
}

/** A parcel as given; once validated (its channel's defaults taken) its weight and dimensions are there. */
export interface ParcelBody extends ParcelDefaults {
  parcel_type?: string;
}

/** The creation input after the schema's type checks. */
export interface ShipmentBody {
  shipping_channel_id: string;
  label_format: 'pdf' | 'zpl' | 'epl';
  label_dpi?: LabelDpi;
  sender_contact: Contact;
  recipient_contact: Contact;
  origin_address: Address;
  destination_address: Address;
  /** Given as `{provider_point_id, type?}`; validated, the point as stored (its name and address where the carrier's API knew it). */
  pickup_point?: ({ provider_point_id: string; type?: string | null } & Partial<StoredPickupPoint>) | null;
  parcels: ParcelBody[];
  /** Required where the route crosses a customs border; kept, and not sent, where it does not. */
  customs?: CustomsInput | null;
  /** Its return label is made once it is created, for the box (services/shipments/returns.ts). */
  return?: boolean;
  cash_on_delivery_amount?: number | null;
  cash_on_delivery_currency?: string | null;
  reference_number?: string | null;
  shipping_date?: string;
  label_comment?: string | null;
  metadata?: Record<string, unknown> | null;
  enable_tracking?: boolean;
  /** A station that auto-prints with no printer for the format records why as `{printer_id: null, reason}`. */
  print?: { printer_id: string; copies?: number } | { printer_id: null; reason: string } | null;
}

export function todayOf(ctx: ServiceContext): string {
  return isoTime(ctx.clock.now()).slice(0, 10);
}

/** Looks up the channel for a shipment: it must be this account's and active. */
export async function channelForShipment(ctx: ServiceContext, accountId: string, channelId: unknown, errors: FieldErrorCollector) {
  if (typeof channelId !== 'string') return undefined;
  const channel = await ctx.db.select().from(shippingChannels).where(eq(shippingChannels.id, channelId)).get();
  if (!channel || channel.accountId !== accountId || channel.deletedAt !== null) {
    errors.add('shipping_channel_id', 'is not a shipping channel of this account');
    return undefined;
  }
  if (channel.status !== 'active') errors.add('shipping_channel_id', `the channel is ${channel.status}; shipments need an active channel`);
  const provider = findProvider(channel.provider)!;
  const caps: CreationCapabilities = {
    provider: provider.code,
    cashOnDelivery: provider.capabilities.cashOnDelivery, maxParcels: provider.capabilities.maxParcels,
  };
  return { channel, provider, caps };
}

/** What a body may leave to its station's settings (services/station-settings.ts); without one they are required. */
const STATION_FIELDS = ['shipping_channel_id', 'label_format', 'sender_contact', 'origin_address'] as const;

/**
 * Validates a whole creation input, its parties read as people write them (see normaliseParties); throws
 * ValidationError listing every problem, else gives the channel and the input as it is stored.
 */
export async function validateCreation(ctx: ServiceContext, accountId: string, given: ShipmentBody, errors: FieldErrorCollector) {
  for (const key of STATION_FIELDS) {
    if (given[key] === undefined) errors.add(key, `is required (or name a station whose settings give it: station${key === 'shipping_channel_id' ? '; or add a shipping rule that chooses it' : ''})`);
  }
  const found = await channelForShipment(ctx, accountId, given.shipping_channel_id, errors);
  const parcels = Array.isArray(given.parcels) ? withParcelDefaults(given.parcels, found?.channel.parcelDefaults) : given.parcels;
  const point = given.pickup_point && found ? await resolveShipmentPoint(ctx, found.channel, given.pickup_point, given.cash_on_delivery_amount != null, errors) : undefined;
  // a shipment to a point goes to the point's address unless the body names one
  const destination = given.destination_address ?? point?.address ?? undefined;
  if (!destination && !(given.pickup_point && !point)) {
    errors.add('destination_address', given.pickup_point ? "is required: the carrier publishes no point API to read the point's address from" : 'is required (or a pickup_point)');
  }
  const body = normaliseParties({ ...given, parcels, ...(destination ? { destination_address: destination } : {}), pickup_point: point ?? null }, errors);
  checkShipmentInput(body as unknown as Record<string, unknown>, found?.caps, todayOf(ctx), errors);
  if (Array.isArray(body.parcels)) checkParcelMeasures(body.parcels, errors);
  checkRouteCustoms(body, found?.provider, errors);
  if (body.return === true && found && !found.provider.capabilities.returns) errors.add('return', `${found.provider.name} makes no return labels through packdesk`);
  if (body.print && ['pdf', 'zpl', 'epl'].includes(body.label_format)) await checkPrintRequest(ctx, accountId, body.print, body.label_format, errors);
  errors.throwIfAny();
  return { ...found!, body };
}

/** A route across a customs border needs a carrier that declares customs and a declaration; a given one is checked either way. */
function checkRouteCustoms(body: ShipmentBody, provider: ProviderDefinition | undefined, errors: FieldErrorCollector): void {
  const { origin_address: origin, destination_address: destination } = body;
  // a route is judged between real countries only: an unknown code is the address check's to report
  if (COUNTRY_CODES.has(origin?.country_code as string) && COUNTRY_CODES.has(destination?.country_code as string)) {
    const route = `${origin.country_code} to ${destination.country_code}`;
    if (routeCrossesCustoms(origin, destination)) {
      if (provider && !provider.capabilities.customs) {
        errors.add('destination_address.country_code', `${provider.name} does not ship across a customs border (${route}) through packdesk: choose a channel of a carrier that declares customs`);
      } else if (!body.customs) {
        errors.add('customs', `is required: the route ${route} crosses a customs border (what the goods are, each item with its HS code, value, weight and origin)`);
      }
    }
  }
  if (body.customs) {
    // the items are held to the parcels' weight only where every parcel has a weight in a known unit
    checkCustoms(body.customs, totalKilograms(body.parcels) ?? Infinity, errors, 'customs');
  }
}

/** Whether goods from `origin` to `destination` cross a customs border (src/domain/customs.ts). */
export function routeCrossesCustoms(origin: Address, destination: Address): boolean {
  const place = (a: Address) => ({ countryCode: a.country_code, postalCode: typeof a.postal_code === 'string' ? a.postal_code : '' });
  return crossesCustomsBorder(place(origin), place(destination));
}

/** Shipment columns that come from the creation input. */
export async function creationColumns(ctx: ServiceContext, body: ShipmentBody, provider: string) {
  return {
    provider,
    channelId: body.shipping_channel_id,
    labelFormat: body.label_format,
    // a label converted for the printer that prints it on creation is drawn at that printer's resolution
    labelDpi: body.label_dpi ?? (body.print?.printer_id ? (await loadPrinterRow(ctx, body.print.printer_id))?.dpi : undefined) ?? DEFAULT_LABEL_DPI,
    shippingDate: body.shipping_date ?? todayOf(ctx),
    isInternational: body.origin_address.country_code !== body.destination_address.country_code,
    codAmountMinor: body.cash_on_delivery_amount == null ? null : toMinorUnits(body.cash_on_delivery_amount)!,
    codCurrency: body.cash_on_delivery_amount == null ? null : body.cash_on_delivery_currency ?? null,
    senderContact: body.sender_contact,
    recipientContact: body.recipient_contact,
    originAddress: body.origin_address,
    destinationAddress: body.destination_address,
    pickupPoint: (body.pickup_point as StoredPickupPoint | null | undefined) ?? null,
    customs: body.customs ?? null,
    withReturn: body.return === true,
    printRequest: body.print ?? null,
  };
}

export function parcelRows(ctx: ServiceContext, shipmentId: string, list: ParcelBody[]) {
  return list.map((p, position) => ({
    id: ctx.ids('parcel'), shipmentId, position, parcelType: p.parcel_type ?? 'package',
    weightAmount: p.weight_amount!, weightUnit: p.weight_unit ?? 'KG',
    lengthDimension: p.length_dimension!, widthDimension: p.width_dimension!, heightDimension: p.height_dimension!,
    dimensionUnit: p.dimension_unit ?? 'CM', trackingNumber: null, trackingStatus: null, trackingUrl: null, carrierRef: null,
  }));
}

/** A creation input validateCreation accepted: its channel's provider and the body as it is stored. */
export type ValidShipment = Awaited<ReturnType<typeof validateCreation>>;

/**
 * Stores the shipment as `pending`, its parcels, its creation job and its event, in one transaction (or in the caller's).
 * `returnOf`: the shipment it returns to its sender (services/shipments/returns.ts); `chosenBy`: the shipping rule
 * that chose its channel (services/shipping-rules.ts).
 */
export async function insertShipment(ctx: ServiceContext, accountId: string, { provider, body }: ValidShipment, { returnOf = null, chosenBy = null }: { returnOf?: string | null; chosenBy?: ChosenBy | null } = {}) {
  const now = ctx.clock.now();
  const id = ctx.ids('shipment');
  // read committed: what it writes is new rows of its own (numbered by a sequence) and the request's own idempotency key
  return ctx.store.transaction(async () => {
    const row: ShipmentRow = {
      id, seq: await nextShipmentSeq(ctx), accountId, status: 'pending', ...(await creationColumns(ctx, body, provider.code)),
      referenceNumber: body.reference_number ?? null, providerShipmentId: null, product: null,
      metadata: body.metadata ?? null, labelComment: body.label_comment ?? null, enableTracking: body.enable_tracking ?? true,
      totalPriceMinor: null, currency: null, priceSource: null, failure: null, attempts: 0, nextAttemptAt: now, carrierProgress: null, printedAt: null, dispatchId: null,
      cancelledAt: null, returnOf, chosenBy, createdAt: now, updatedAt: now,
    };
    await ctx.db.insert(shipments).values(row).run();
    const rows = parcelRows(ctx, id, body.parcels);
    await ctx.db.insert(parcels).values(rows).run();
    await indexShipmentForSearch(ctx, row.seq, accountId, [row.referenceNumber], { isNew: true });
    await queueCreationAtCarrier(ctx, row);
    const view = await presentShipment(ctx, row, rows);
    await recordEvent(ctx, { accountId, type: 'shipment.created', resourceName: 'shipment', resource: view });
    await bindIdempotentResource(ctx, `/v1/shipments/${id}`);
    return view;
  }, { isolation: 'read committed' });
}

export async function createShipment(ctx: ServiceContext, accountId: string, given: ShipmentBody, errors = new FieldErrorCollector(), chosenBy: ChosenBy | null = null) {
  return insertShipment(ctx, accountId, await validateCreation(ctx, accountId, given, errors), { chosenBy });
}
