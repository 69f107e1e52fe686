import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { isoTime } from '../../domain/clock.js';
import { hsCodeDigits, type CustomsInput } from '../../domain/customs.js';
import { toMinorUnits } from '../../domain/money.js';
import type { StoredPickupPoint } from '../../domain/pickup-points.js';
import { usualCurrency } from '../../domain/reference-data.js';
import type { Address, Contact } from '../../domain/shipment-input.js';
import { toCentimetres, toKilograms, type DimensionUnit, type WeightUnit } from '../../domain/units.js';
import { CarrierRefusedError, CarrierTransientError } from '../../carriers/errors.js';
import { carrierLabelFormat, findProvider } from '../../carriers/registry.js';
import type { CarrierDocument, CarrierParty, CarrierProgress, CreatedAtCarrier, CustomsForCarrier, ShipmentForCarrier } from '../../carriers/types.js';
import { convertLabelOffThread, LabelFormatError, mergeLabels, renderCommercialInvoiceOffThread, type LabelSource } from '../../labels/index.js';
import { labels, parcels, shipmentDocuments, shipments, shippingChannels } from '../../store/schema.js';
import type { TransactionOptions } from '../../store/store.js';
import { carrierContext } from '../channels.js';
import type { ServiceContext } from '../context.js';
import { announce } from '../notices.js';
import { recordEvent } from '../events.js';
import { backoffDelay, type JobOutcome, type LaneReport } from '../jobs.js';
import { queuePrintOnCreate } from '../printing/print-jobs.js';
import { trackShipmentParcels } from '../tracking/shipment-parcels.js';
import { loadParcels, loadShipmentRow, presentShipment, type ParcelRow, type ShipmentFailure, type ShipmentRow } from './records.js';
import { routeCrossesCustoms, type ValidShipment } from './create.js';
import { carrierRate, listPriceOf } from './pricing.js';
import { boxedReturn, returnedShipment, storeBoxedReturn } from './returns.js';
import { indexShipmentForSearch } from './search.js';

const RETRY_BASE_MS = 3 * 60_000;
const RETRY_CAP_MS = 4 * 3600_000;

function party(contact: Contact, address: Address): CarrierParty {
  const person = [contact.first_name, contact.last_name].filter(Boolean).join(' ') || null;
  return {
    companyName: contact.company_name || null, personName: person, email: contact.email_address,
    phone: contact.phone_number, street: address.street_name, houseNumber: address.house_number,
    apartmentNumber: address.apartment_number || null, city: address.city_name, postalCode: address.postal_code,
    countryCode: address.country_code,
  };
}

/** The shipment as the adapter sees it; `labelFormat` is the format the carrier is asked for (§6: others are converted). */
export function shipmentForCarrier(row: ShipmentRow, parcelList: ParcelRow[], returnOf: ShipmentForCarrier['returnOf'] = null): ShipmentForCarrier {
  return {
    id: row.id, reference: row.referenceNumber, shippingDate: row.shippingDate,
    labelFormat: carrierLabelFormat(findProvider(row.provider)!.capabilities, row.labelFormat),
    sender: party(row.senderContact as Contact, row.originAddress as Address),
    recipient: party(row.recipientContact as Contact, row.destinationAddress as Address),
    parcels: parcelList.map((p) => ({
      parcelType: p.parcelType,
      weightKg: toKilograms(p.weightAmount, p.weightUnit as WeightUnit),
      lengthCm: toCentimetres(p.lengthDimension, p.dimensionUnit as DimensionUnit),
      widthCm: toCentimetres(p.widthDimension, p.dimensionUnit as DimensionUnit),
      heightCm: toCentimetres(p.heightDimension, p.dimensionUnit as DimensionUnit),
    })),
    cashOnDelivery: row.codAmountMinor == null ? null : { amountMinor: row.codAmountMinor, currency: row.codCurrency! },
    labelComment: row.labelComment,
    pickupPoint: row.pickupPoint ? { id: (row.pickupPoint as StoredPickupPoint).provider_point_id, type: (row.pickupPoint as StoredPickupPoint).type } : null,
    customs: customsForCarrier(row),
    returnOf,
  };
}

/** The declaration as the adapter sends it, only where the route crosses a customs border; the defaults filled in. */
function customsForCarrier(row: ShipmentRow): CustomsForCarrier | null {
  const given = row.customs as CustomsInput | null;
  const origin = row.originAddress as Address;
  if (!given || !routeCrossesCustoms(origin, row.destinationAddress as Address)) return null;
  return {
    contentsType: given.contents_type, incoterm: given.incoterm ?? 'DAP',
    invoiceNumber: given.invoice_number ?? row.referenceNumber ?? row.id, invoiceDate: given.invoice_date ?? row.shippingDate,
    currency: given.currency ?? usualCurrency(origin.country_code) ?? 'EUR',
    exporterEori: given.exporter_eori ?? null, exporterVatNumber: given.exporter_vat_number ?? null, importerTaxId: given.importer_tax_id ?? null,
    items: given.items.map((i) => ({
      description: i.description, hsCode: i.hs_code ? hsCodeDigits(i.hs_code) : null, quantity: i.quantity, unitValueMinor: toMinorUnits(i.unit_value)!,
      unitWeightKg: i.unit_weight, originCountry: i.origin_country.toUpperCase(), sku: i.sku ?? null,
    })),
  };
}

/**
 * The customs documents kept with a created shipment: the carrier's; where goods cross a customs border and the
 * carrier made no commercial invoice, packdesk's.
 */
export async function customsDocuments(forCarrier: ShipmentForCarrier, created: CreatedAtCarrier, carrier: string): Promise<(CarrierDocument & { source: 'carrier' | 'packdesk' })[]> {
  const documents = (created.documents ?? []).map((d) => ({ ...d, source: 'carrier' as const }));
  const customs = forCarrier.customs;
  if (!customs || customs.contentsType === 'documents' || documents.some((d) => d.type === 'commercial_invoice')) return documents;
  const party = (p: CarrierParty, taxId: string | null) => ({
    name: [p.companyName, p.personName].filter(Boolean).join(', '), street: [p.street, p.houseNumber].filter(Boolean).join(' '),
    postalCode: p.postalCode, city: p.city, countryCode: p.countryCode, email: p.email, phone: p.phone, taxId,
  });
  const content = await renderCommercialInvoiceOffThread({
    shipmentId: forCarrier.id, reference: forCarrier.reference, trackingNumbers: created.parcels.map((p) => p.trackingNumber), carrier,
    exporter: party(forCarrier.sender, customs.exporterEori ?? customs.exporterVatNumber), importer: party(forCarrier.recipient, customs.importerTaxId),
    customs, parcelsWeightKg: forCarrier.parcels.reduce((kg, p) => kg + p.weightKg, 0),
  });
  return [...documents, { type: 'commercial_invoice', content, source: 'packdesk' }];
}

type ShipmentPrice = Pick<ShipmentRow, 'totalPriceMinor' | 'currency' | 'priceSource'>;
type ChannelRow = typeof shippingChannels.$inferSelect;

/** The carrier's price where its answer has one, else its rate API's, else the channel's price list's, else none (and why, in the log). */
async function shipmentPrice(ctx: ServiceContext, channel: ChannelRow, s: ShipmentForCarrier, created: CreatedAtCarrier): Promise<ShipmentPrice> {
  if (created.totalPrice) return { totalPriceMinor: created.totalPrice.amountMinor, currency: created.totalPrice.currency, priceSource: 'carrier' };
  // the shipment is made: a rate API that does not price it leaves it to the price list, never to a retry
  const asked = findProvider(channel.provider)!.adapter.rate ? await carrierRate(ctx, channel, s) : null;
  if (asked && 'rate' in asked) return { totalPriceMinor: asked.rate.amountMinor, currency: asked.rate.currency, priceSource: 'quote' };
  const none = { totalPriceMinor: null, currency: null, priceSource: null };
  if (!channel.priceList) return none;
  const priced = listPriceOf(channel.priceList, s);
  if ('cannot' in priced) {
    ctx.log.warn({ shipment_id: s.id, reason: priced.cannot }, "the channel's price list does not price the shipment");
    return none;
  }
  return { totalPriceMinor: priced.amountMinor, currency: priced.currency, priceSource: 'price_list' };
}

/**
 * Wakes what waits for the shipment's carrier step (`Prefer: wait`, an import) once its outcome commits: on this daemon
 * and, on a shared store, on every daemon (the notice goes with the COMMIT).
 */
function notify(ctx: ServiceContext, shipmentId: string): void {
  announce(ctx, `shipment:${shipmentId}`);
}

/**
 * The carrier's answer is recorded at read committed: the creation job holds its shipment (a lease), so nothing else
 * writes the rows it reads and changes meanwhile, and what it adds (label, documents, tracking) is keyed by them.
 */
const HELD_BY_ITS_JOB: TransactionOptions = { isolation: 'read committed' };

async function recordCreated(
  ctx: ServiceContext, row: ShipmentRow, parcelList: ParcelRow[], created: CreatedAtCarrier, label: { content: Buffer; pages: number; source: LabelSource },
  documents: (CarrierDocument & { source: 'carrier' | 'packdesk' })[], boxed: ValidShipment | null, price: ShipmentPrice,
) {
  const provider = findProvider(row.provider)!;
  const now = ctx.clock.now();
  await ctx.store.transaction(async () => {
    for (const [i, p] of created.parcels.entries()) {
      await ctx.db.update(parcels).set({
        trackingNumber: p.trackingNumber, trackingStatus: 'created', trackingUrl: provider.adapter.trackingUrl(p.trackingNumber),
        carrierRef: p.carrierRef ?? null,
      }).where(eq(parcels.id, parcelList[i]!.id)).run();
    }
    await ctx.db.insert(labels).values({
      shipmentId: row.id, format: row.labelFormat, content: label.content, pages: label.pages,
      sha256: createHash('sha256').update(label.content).digest('hex'), source: label.source, createdAt: now,
    }).onConflictDoNothing().run();
    for (const d of documents) {
      await ctx.db.insert(shipmentDocuments).values({ shipmentId: row.id, type: d.type, content: Buffer.from(d.content), source: d.source, createdAt: now }).onConflictDoNothing().run();
    }
    await ctx.db.update(shipments).set({
      status: 'created', providerShipmentId: created.providerShipmentId, product: created.product, ...price,
      failure: null, nextAttemptAt: null, carrierProgress: null, updatedAt: now,
    }).where(eq(shipments.id, row.id)).run();
    await indexShipmentForSearch(ctx, row.seq, row.accountId, [row.referenceNumber, created.providerShipmentId, ...created.parcels.map((p) => p.trackingNumber)]);
    if (boxed) await storeBoxedReturn(ctx, row, boxed);
    const fresh = (await loadShipmentRow(ctx, row.id))!;
    await recordEvent(ctx, { accountId: row.accountId, type: 'shipment.status_changed', resourceName: 'shipment', resource: await presentShipment(ctx, fresh), previousStatus: 'pending' });
    await trackShipmentParcels(ctx, row.id);
    await queuePrintOnCreate(ctx, fresh);
    notify(ctx, row.id);
  }, HELD_BY_ITS_JOB);
}

async function recordFailure(ctx: ServiceContext, row: ShipmentRow, attempt: number, failure: { message: string; errors: Record<string, string[]> }, nextAttemptAt: number | null, clearProgress: boolean) {
  const now = ctx.clock.now();
  const value: ShipmentFailure = { ...failure, attempts: attempt, at: isoTime(now) };
  await ctx.store.transaction(async () => {
    await ctx.db.update(shipments).set({
      failure: value, attempts: attempt, nextAttemptAt, updatedAt: now, ...(clearProgress ? { carrierProgress: null } : {}),
    }).where(eq(shipments.id, row.id)).run();
    if (nextAttemptAt === null) {
      await recordEvent(ctx, { accountId: row.accountId, type: 'shipment.updated', resourceName: 'shipment', resource: await presentShipment(ctx, (await loadShipmentRow(ctx, row.id))!) });
    }
    notify(ctx, row.id);
  }, HELD_BY_ITS_JOB);
}

/** What a carrier step's error means: refused (a person fixes it), given up after the last attempt, or tried again at `retryAt`. */
export interface CarrierStepFailure {
  refused: boolean;
  failure: { message: string; errors: Record<string, string[]> };
  /** When the next attempt runs; null when none will. */
  retryAt: number | null;
  outcome: JobOutcome;
}

/**
 * One reading of a carrier step's error for every job that calls a carrier (shipment creation, the dispatch
 * hand-over): a refusal waits for a person; an outage (timeout, 429/5xx) is retried with backoff — at least as late
 * as the carrier asked — and its lane's other work waits, holding no slots; anything else is logged and retried too.
 */
export function carrierStepFailure(
  ctx: ServiceContext, err: unknown, attempt: number, maxAttempts: number, subject: Record<string, string>, what: string,
): CarrierStepFailure {
  if (err instanceof CarrierRefusedError) {
    return { refused: true, failure: { message: err.message, errors: err.errors }, retryAt: null, outcome: { result: 'fail', error: err.message, lane: { answered: true } } };
  }
  const transient = err instanceof CarrierTransientError;
  const message = transient ? err.message : `unexpected error: ${(err as Error).message}`;
  if (!transient) ctx.log.error({ err, ...subject }, `${what} failed unexpectedly`);
  const lane: LaneReport | undefined = transient ? { answered: false, retryAfterMs: err.retryAfterMs } : undefined;
  if (attempt >= maxAttempts) {
    return { refused: false, failure: { message: `gave up after ${attempt} attempts: ${message}`, errors: {} }, retryAt: null, outcome: { result: 'fail', error: message, lane } };
  }
  const at = ctx.clock.now() + Math.max(backoffDelay(attempt, RETRY_BASE_MS, RETRY_CAP_MS), transient ? err.retryAfterMs ?? 0 : 0);
  return { refused: false, failure: { message, errors: {} }, retryAt: at, outcome: { result: 'retry', at, error: message, lane } };
}

/**
 * A carrier step's progress as the store keeps it for its job: nothing else changes it while the job holds its
 * subject, so the last saved value is kept here too, and each save is stored before the carrier call it stands for.
 */
export function keptProgress(stored: unknown, store: (progress: Record<string, unknown>) => Promise<unknown>): CarrierProgress {
  let saved = (stored as Record<string, unknown> | null) ?? null;
  return {
    load: () => saved,
    save: async (p) => {
      saved = p;
      await store(p);
    },
  };
}

/**
 * The creation job: sends a pending shipment to its carrier, merges and stores the label, marks it `created`.
 * A refusal leaves it pending with `failure` (fixed by PATCH or retried by hand); an outage is retried with backoff.
 */
export async function createShipmentAtCarrier(ctx: ServiceContext, shipmentId: string, attempt: number, maxAttempts: number): Promise<JobOutcome> {
  const row = await loadShipmentRow(ctx, shipmentId);
  if (!row || row.status !== 'pending') return { result: 'done' }; // deleted, cancelled, or finished by an earlier run
  const channel = (await ctx.db.select().from(shippingChannels).where(eq(shippingChannels.id, row.channelId)).get())!;
  const adapter = findProvider(row.provider)!.adapter;
  const parcelList = await loadParcels(ctx, row.id);
  const progress = keptProgress(row.carrierProgress, (p) => ctx.db.update(shipments).set({ carrierProgress: p }).where(eq(shipments.id, row.id)).run());
  try {
    const forCarrier = shipmentForCarrier(row, parcelList, await returnedShipment(ctx, row.returnOf));
    const created = await adapter.createShipment(forCarrier, ctx.secrets.openJson(channel.settingsEnc), {
      ...carrierContext(ctx, channel), progress,
    });
    const source: LabelSource = forCarrier.labelFormat === row.labelFormat ? 'carrier' : 'converted';
    const parts: Uint8Array[] = [];
    for (const p of created.parcels) {
      parts.push(source === 'carrier' ? p.label : await convertLabelOffThread(forCarrier.labelFormat, row.labelFormat, p.label, row.labelDpi));
    }
    const label = { ...(await mergeLabels(row.labelFormat, parts)), source };
    const documents = await customsDocuments(forCarrier, created, findProvider(row.provider)!.name);
    await recordCreated(ctx, row, parcelList, created, label, documents, await boxedReturn(ctx, row), await shipmentPrice(ctx, channel, forCarrier, created));
    return { result: 'done', lane: { answered: true } };
  } catch (err) {
    if (err instanceof LabelFormatError) {
      // a label that cannot be read or converted came from a shipment the carrier made: its progress finds it again on retry
      await recordFailure(ctx, row, attempt, { message: err.message, errors: {} }, null, false);
      return { result: 'fail', error: err.message, lane: { answered: true } };
    }
    const step = carrierStepFailure(ctx, err, attempt, maxAttempts, { shipment_id: row.id }, 'shipment creation');
    // a refusal clears the progress: the corrected shipment is a new one at the carrier
    await recordFailure(ctx, row, attempt, step.failure, step.retryAt, step.refused);
    return step.outcome;
  }
}
