import { CarrierRefusedError } from '../../carriers/errors.js';
import { ConflictError, FieldErrorCollector, ValidationError } from '../../domain/errors.js';
import type { CustomsInput } from '../../domain/customs.js';
import type { ServiceContext } from '../context.js';
import { channelForShipment, insertShipment, validateCreation, type ShipmentBody, type ValidShipment } from './create.js';
import { getShipmentRow, loadParcels, loadShipmentRow, parcelInputs, presentShipment, returnShipmentIds, type ShipmentRow } from './records.js';

/** What a return may set differently from its outbound shipment. */
export interface ReturnOverrides {
  shipping_channel_id?: string;
  label_format?: ShipmentBody['label_format'];
  parcels?: ShipmentBody['parcels'];
  print?: ShipmentBody['print'];
}

/** An outbound shipment's return can be made once the carrier has it, until it is cancelled. */
const RETURNABLE = new Set(['created', 'shipped', 'delivered']);

/**
 * The return of a shipment to its sender, at the same carrier: a new shipment with the parties swapped (the customer
 * sends, the warehouse receives), the outbound's parcels, no cash on delivery, a customs declaration of the same items
 * as a return where the outbound had one; `return_of` links it, and its carrier makes it with its return product.
 */
export async function createReturnShipment(ctx: ServiceContext, accountId: string, id: string, given: ReturnOverrides, errors = new FieldErrorCollector()) {
  const outbound = await getShipmentRow(ctx, accountId, id);
  if (outbound.returnOf !== null) throw new ConflictError(`Shipment ${id} is itself the return of ${outbound.returnOf}: it has no return of its own.`);
  if (!RETURNABLE.has(outbound.status)) throw new ConflictError(`Shipment ${id} is ${outbound.status}: a return is made of a shipment the carrier has (created, shipped or delivered).`);
  return insertShipment(ctx, accountId, await validReturn(ctx, outbound, given, errors), { returnOf: outbound.id });
}

async function validReturn(ctx: ServiceContext, outbound: ShipmentRow, given: ReturnOverrides, errors: FieldErrorCollector): Promise<ValidShipment> {
  const channelId = given.shipping_channel_id ?? outbound.channelId;
  const found = await channelForShipment(ctx, outbound.accountId, channelId, errors);
  if (found && found.provider.code !== outbound.provider) {
    errors.add('shipping_channel_id', `is a channel of ${found.provider.name}: a return goes back with the carrier of the shipment (${outbound.provider})`);
  } else if (found && !found.provider.capabilities.returns) {
    errors.add('shipping_channel_id', `${found.provider.name} makes no return labels through packdesk`);
  }
  errors.throwIfAny();
  const view = await presentShipment(ctx, outbound);
  const customs = view.customs as CustomsInput | null;
  const body: ShipmentBody = {
    shipping_channel_id: channelId, label_format: given.label_format ?? outbound.labelFormat,
    sender_contact: view.recipient_contact, origin_address: view.destination_address,
    recipient_contact: view.sender_contact, destination_address: view.origin_address,
    parcels: given.parcels ?? parcelInputs(view),
    customs: customs ? { ...customs, contents_type: 'return' } : null,
    reference_number: outbound.referenceNumber, print: given.print ?? null,
  };
  return validateCreation(ctx, outbound.accountId, body, errors);
}

/**
 * The return label for the box of a shipment created with `return: true`, validated before its outbound is recorded
 * as created so that both are stored in one transaction (storeBoxedReturn): a crash leaves neither or both. One that
 * no longer validates (its channel deactivated since) is logged and left to `POST /v1/shipments/{id}/return`.
 */
export async function boxedReturn(ctx: ServiceContext, outbound: ShipmentRow): Promise<ValidShipment | null> {
  if (!outbound.withReturn || outbound.returnOf !== null) return null;
  try {
    return await validReturn(ctx, outbound, { print: outbound.printRequest as ShipmentBody['print'] }, new FieldErrorCollector());
  } catch (err) {
    if (!(err instanceof ValidationError)) throw err;
    ctx.log.warn({ shipment_id: outbound.id, errors: err.errors }, 'the return label for the box cannot be made');
    return null;
  }
}

/** Stores a boxed return (inside the outbound's creation transaction), unless the shipment has one already. */
export async function storeBoxedReturn(ctx: ServiceContext, outbound: ShipmentRow, valid: ValidShipment): Promise<void> {
  if ((await returnShipmentIds(ctx, outbound.id)).length === 0) await insertShipment(ctx, outbound.accountId, valid, { returnOf: outbound.id });
}

/** What the carrier step tells the adapter of the shipment a return returns: its carrier's numbers. */
export async function returnedShipment(ctx: ServiceContext, outboundId: string | null) {
  if (outboundId === null) return null;
  const outbound = await loadShipmentRow(ctx, outboundId);
  if (!outbound?.providerShipmentId) throw new CarrierRefusedError(`The shipment this returns (${outboundId}) is no longer at the carrier.`, { return_of: ['names no shipment the carrier has'] });
  const trackingNumbers = (await loadParcels(ctx, outboundId)).flatMap((p) => (p.trackingNumber ? [p.trackingNumber] : []));
  return { providerShipmentId: outbound.providerShipmentId, trackingNumbers };
}
