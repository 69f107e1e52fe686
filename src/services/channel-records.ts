import { and, eq, isNull } from 'drizzle-orm';
import { isoTime, isoTimeOrNull } from '../domain/clock.js';
import type { FieldErrors } from '../domain/errors.js';
import { findProvider } from '../carriers/registry.js';
import { maskSettings } from '../carriers/settings.js';
import type { ChannelSettings } from '../carriers/types.js';
import { shippingChannels } from '../store/schema.js';
import { presentCapabilities } from './capability-records.js';
import type { ServiceContext } from './context.js';
import { recordEvent } from './events.js';
import { owned } from './ownership.js';

// A shipping channel's row and its API shape: what the channel service and the authorization flows share.

export type ChannelRow = typeof shippingChannels.$inferSelect;
export type ChannelStatus = ChannelRow['status'];
export const CHANNEL_STATUSES: readonly ChannelStatus[] = ['pending_validation', 'authorization_required', 'active', 'error', 'inactive'];

export function presentChannel(ctx: ServiceContext, row: ChannelRow) {
  const provider = findProvider(row.provider)!;
  const settings = channelSettings(ctx, row);
  return {
    id: row.id,
    name: row.name,
    provider: row.provider,
    description: row.description,
    status: row.status,
    settings: maskSettings(provider, settings),
    capabilities: presentCapabilities(provider, settings),
    parcel_defaults: row.parcelDefaults ?? null,
    price_list: row.priceList ?? null,
    dispatch_at: row.dispatchAt,
    last_validated_at: isoTimeOrNull(row.lastValidatedAt),
    validation_error: row.validationError ? (JSON.parse(row.validationError) as { message: string; errors: Record<string, string[]> }) : null,
    created_at: isoTime(row.createdAt),
    updated_at: isoTime(row.updatedAt),
  };
}

export type ChannelView = ReturnType<typeof presentChannel>;

export function channelSettings(ctx: ServiceContext, row: ChannelRow): ChannelSettings {
  return ctx.secrets.openJson<ChannelSettings>(row.settingsEnc);
}

/** A channel the API can see: deleted ones are gone for it (they stay for the shipments that used them). */
export function loadChannelRow(ctx: ServiceContext, id: string): Promise<ChannelRow | undefined> {
  return ctx.db.select().from(shippingChannels).where(and(eq(shippingChannels.id, id), isNull(shippingChannels.deletedAt))).get();
}

export async function getChannelRow(ctx: ServiceContext, accountId: string, id: string): Promise<ChannelRow> {
  return owned(await loadChannelRow(ctx, id), accountId, 'Shipping channel', id);
}

export async function emitChannelEvent(ctx: ServiceContext, row: ChannelRow, type: Parameters<typeof recordEvent>[1]['type'], previousStatus?: string) {
  await recordEvent(ctx, { accountId: row.accountId, type, resourceName: 'shipping_channel', resource: presentChannel(ctx, row), previousStatus });
}

export function changeChannelStatus(ctx: ServiceContext, row: ChannelRow, patch: Partial<ChannelRow>, validated = false): Promise<ChannelRow> {
  return ctx.store.transaction(async () => {
    await ctx.db.update(shippingChannels).set(patch).where(eq(shippingChannels.id, row.id)).run();
    const fresh = (await loadChannelRow(ctx, row.id))!;
    if (validated) await emitChannelEvent(ctx, fresh, 'shipping_channel.validated');
    if (fresh.status !== row.status) await emitChannelEvent(ctx, fresh, 'shipping_channel.status_changed', row.status);
    return fresh;
  });
}

/**
 * The carrier refused the channel's settings outside a validation (a device flow, a tracking check): the channel is
 * `error` with the carrier's reason, as a failed validation leaves it. A deleted channel stays as it is.
 */
export async function recordChannelRefusal(ctx: ServiceContext, channelId: string, refusal: { message: string; errors: FieldErrors }): Promise<void> {
  await ctx.store.transaction(async () => {
    // read inside the transaction: of refusals met at once, only the first changes the status and says so
    const row = await loadChannelRow(ctx, channelId);
    if (!row) return;
    const validationError = JSON.stringify({ message: refusal.message, errors: refusal.errors });
    await changeChannelStatus(ctx, row, { status: 'error', validationError, updatedAt: ctx.clock.now() });
  });
}
