import { and, count, desc, eq, isNull, type SQL } from 'drizzle-orm';
import { CarrierUnavailableError, FieldErrorCollector, ValidationError } from '../domain/errors.js';
import { AuthorizationRequiredError, CarrierRefusedError } from '../carriers/errors.js';
import { offsetOf, type PageRequest } from '../domain/pagination.js';
import { checkParcelDefaults, type ParcelDefaults } from '../domain/parcel-defaults.js';
import { checkPriceList, type PriceList } from '../domain/price-list.js';
import { findProvider, PROVIDER_CODES } from '../carriers/registry.js';
import { resolveSettings } from '../carriers/settings.js';
import type { CarrierContext, ChannelSettings, ProviderDefinition, SettingOption, ValidationOutcome } from '../carriers/types.js';
import { shipments, shippingChannels } from '../store/schema.js';
import type { ServiceContext } from './context.js';
import { checkTimeOfDay } from '../domain/time-of-day.js';
import { grantAccess } from './channel-grants.js';
import { changeChannelStatus, channelSettings, emitChannelEvent, getChannelRow, loadChannelRow, presentChannel, type ChannelRow, type ChannelStatus } from './channel-records.js';
import { bindIdempotentResource } from './idempotency.js';

async function nameTaken(ctx: ServiceContext, accountId: string, name: string, exceptId?: string): Promise<boolean> {
  const row = await ctx.db.select({ id: shippingChannels.id }).from(shippingChannels)
    .where(and(eq(shippingChannels.accountId, accountId), eq(shippingChannels.name, name), isNull(shippingChannels.deletedAt))).get();
  return row !== undefined && row.id !== exceptId;
}

export interface CreateChannelInput {
  name: string;
  provider: string;
  settings: unknown;
  description?: string | null;
  parcel_defaults?: ParcelDefaults | null;
  price_list?: PriceList | null;
  dispatch_at?: string | null;
}

/** Stores a new channel (`pending_validation`) with its event, then validates it at once. */
export async function createChannel(ctx: ServiceContext, accountId: string, input: CreateChannelInput, schemaErrors?: FieldErrorCollector) {
  const errors = schemaErrors ?? new FieldErrorCollector();
  const provider = typeof input.provider === 'string' ? findProvider(input.provider) : undefined;
  if (typeof input.provider === 'string' && !provider) errors.add('provider', `must be one of ${PROVIDER_CODES.join(', ')}`);
  if (typeof input.name === 'string' && input.name.trim() && await nameTaken(ctx, accountId, input.name.trim())) {
    errors.add('name', 'is already used by another shipping channel');
  }
  let settings: ChannelSettings = {};
  if (provider && input.settings !== undefined) {
    const resolved = resolveSettings(provider, input.settings);
    errors.merge(resolved.errors);
    settings = resolved.settings;
  }
  checkParcelDefaults(input.parcel_defaults, errors);
  checkPriceList(input.price_list, errors);
  if (input.dispatch_at != null) checkTimeOfDay(input.dispatch_at, 'dispatch_at', errors);
  errors.throwIfAny();
  const now = ctx.clock.now();
  const row: ChannelRow = {
    id: ctx.ids('channel'), accountId, name: input.name.trim(), provider: provider!.code,
    description: input.description ?? null, status: 'pending_validation', settingsEnc: ctx.secrets.sealJson(settings),
    parcelDefaults: input.parcel_defaults ?? null, priceList: input.price_list ?? null, dispatchAt: input.dispatch_at ?? null, autoDispatchedOn: null,
    lastValidatedAt: null, validationError: null, deletedAt: null, createdAt: now, updatedAt: now,
  };
  await ctx.store.transaction(async () => {
    await ctx.db.insert(shippingChannels).values(row).run();
    await emitChannelEvent(ctx, row, 'shipping_channel.created');
    await bindIdempotentResource(ctx, `/v1/shipping-channels/${row.id}`);
  });
  try {
    return await validateChannel(ctx, accountId, row.id);
  } catch (err) {
    if (!(err instanceof CarrierUnavailableError)) throw err;
    ctx.log.warn({ channel_id: row.id, err: err.message }, 'channel validation postponed: carrier unreachable');
  }
  return presentChannel(ctx, row);
}

export interface ChannelFilters {
  provider?: string;
  status?: string;
}

export async function listChannels(ctx: ServiceContext, accountId: string, filters: ChannelFilters, page: PageRequest) {
  const where: SQL[] = [eq(shippingChannels.accountId, accountId), isNull(shippingChannels.deletedAt)];
  if (filters.provider) where.push(eq(shippingChannels.provider, filters.provider));
  if (filters.status) where.push(eq(shippingChannels.status, filters.status as ChannelStatus));
  const condition = and(...where);
  const total = (await ctx.db.select({ n: count() }).from(shippingChannels).where(condition).get())!.n;
  const rows = await ctx.db.select().from(shippingChannels).where(condition)
    .orderBy(desc(shippingChannels.createdAt), desc(shippingChannels.id)).limit(page.perPage).offset(offsetOf(page)).all();
  return { items: rows.map((r) => presentChannel(ctx, r)), total };
}

export interface UpdateChannelInput {
  name?: string;
  description?: string | null;
  settings?: unknown;
  status?: string;
  parcel_defaults?: ParcelDefaults | null;
  price_list?: PriceList | null;
  dispatch_at?: string | null;
}

export async function updateChannel(ctx: ServiceContext, accountId: string, id: string, input: UpdateChannelInput, schemaErrors?: FieldErrorCollector) {
  const row = await getChannelRow(ctx, accountId, id);
  const provider = findProvider(row.provider)!;
  const errors = schemaErrors ?? new FieldErrorCollector();
  const patch: Partial<ChannelRow> = {};
  if (typeof input.name === 'string') {
    if (await nameTaken(ctx, accountId, input.name.trim(), id)) errors.add('name', 'is already used by another shipping channel');
    else patch.name = input.name.trim();
  }
  if (input.description !== undefined) patch.description = input.description;
  if (input.parcel_defaults !== undefined) {
    checkParcelDefaults(input.parcel_defaults, errors);
    patch.parcelDefaults = input.parcel_defaults;
  }
  if (input.price_list !== undefined) {
    checkPriceList(input.price_list, errors);
    patch.priceList = input.price_list;
  }
  if (input.dispatch_at !== undefined) {
    if (input.dispatch_at !== null) checkTimeOfDay(input.dispatch_at, 'dispatch_at', errors);
    patch.dispatchAt = input.dispatch_at;
  }
  let settingsChanged = false;
  if (input.settings !== undefined) {
    const stored = channelSettings(ctx, row);
    const resolved = resolveSettings(provider, input.settings, stored);
    errors.merge(resolved.errors);
    settingsChanged = JSON.stringify(resolved.settings) !== JSON.stringify(stored);
    if (settingsChanged) patch.settingsEnc = ctx.secrets.sealJson(resolved.settings);
  }
  if (input.status !== undefined && input.status !== 'active' && input.status !== 'inactive') {
    errors.add('status', 'must be one of active, inactive');
  }
  errors.throwIfAny();
  // Changed credentials, or a user asking to re-activate, send the channel back through validation.
  if (input.status === 'inactive') patch.status = 'inactive';
  else if (settingsChanged || (input.status === 'active' && row.status !== 'active')) {
    patch.status = 'pending_validation';
    patch.validationError = null;
  }
  patch.updatedAt = ctx.clock.now();
  const updated = await ctx.store.transaction(async () => {
    await ctx.db.update(shippingChannels).set(patch).where(eq(shippingChannels.id, id)).run();
    const fresh = (await loadChannelRow(ctx, id))!;
    await emitChannelEvent(ctx, fresh, 'shipping_channel.updated');
    if (fresh.status !== row.status) await emitChannelEvent(ctx, fresh, 'shipping_channel.status_changed', row.status);
    return fresh;
  });
  if (updated.status === 'pending_validation') {
    try {
      return await validateChannel(ctx, accountId, id);
    } catch (err) {
      if (!(err instanceof CarrierUnavailableError)) throw err;
    }
  }
  return presentChannel(ctx, updated);
}

export async function deleteChannel(ctx: ServiceContext, accountId: string, id: string): Promise<void> {
  const row = await getChannelRow(ctx, accountId, id);
  const waiting = (await ctx.db.select({ n: count() }).from(shipments)
    .where(and(eq(shipments.channelId, id), eq(shipments.status, 'pending'))).get())!.n;
  if (waiting > 0) {
    const message = `The channel has ${waiting} shipment(s) not yet created at the carrier; delete or finish them first.`;
    throw new ValidationError({ id: [message] }, message);
  }
  await ctx.store.transaction(async () => {
    await emitChannelEvent(ctx, row, 'shipping_channel.deleted');
    // kept as a row: created shipments and their tracking still use the channel's credentials
    const now = ctx.clock.now();
    await ctx.db.update(shippingChannels).set({ deletedAt: now, updatedAt: now }).where(eq(shippingChannels.id, id)).run();
  });
}

/** Time, log and time limit of carrier calls, under a key for per-channel caches. */
function plainCarrierContext(ctx: ServiceContext, channelId: string): CarrierContext {
  return { channelId, log: ctx.log, clock: ctx.clock, timeoutMs: ctx.options.carrierTimeoutMs };
}

/** What an adapter gets to work with for one channel (with the person's grant where the provider acts for one). */
export function carrierContext(ctx: ServiceContext, row: ChannelRow): CarrierContext {
  const base = plainCarrierContext(ctx, row.id);
  const provider = findProvider(row.provider)!;
  return provider.userAuthorization ? { ...base, grant: grantAccess(ctx, row, provider, base) } : base;
}

type Verdict = ValidationOutcome | { ok: 'authorization_required'; message: string };

/** The carrier's verdict; a refusal of the call itself (e.g. a base URL the address policy forbids) is a failed validation. */
async function callValidate(ctx: ServiceContext, provider: ProviderDefinition, row: ChannelRow): Promise<Verdict> {
  try {
    return await provider.adapter.validate(channelSettings(ctx, row), carrierContext(ctx, row));
  } catch (err) {
    if (err instanceof AuthorizationRequiredError) return { ok: 'authorization_required', message: err.message };
    if (err instanceof CarrierRefusedError) return { ok: false, message: err.message, errors: err.errors };
    throw err;
  }
}

function verdictPatch(verdict: Verdict, now: number): Partial<ChannelRow> {
  if (verdict.ok === true) return { status: 'active', validationError: null, lastValidatedAt: now, updatedAt: now };
  const status = verdict.ok === false ? 'error' : 'authorization_required';
  const errors = verdict.ok === false ? verdict.errors ?? {} : {};
  return { status, validationError: JSON.stringify({ message: verdict.message, errors }), lastValidatedAt: now, updatedAt: now };
}

/** Stores a new status (and why) with its `shipping_channel.status_changed` event, in one transaction. */
/**
 * Checks the channel's credentials with the carrier. Success → `active`; refusal → `error` with the reason; a
 * provider that acts for a person nobody has authorised yet → `authorization_required`. An unreachable carrier
 * throws CarrierUnavailableError and leaves the status as it was.
 */
export async function validateChannel(ctx: ServiceContext, accountId: string, id: string) {
  const row = await getChannelRow(ctx, accountId, id);
  const provider = findProvider(row.provider)!;
  const verdict = await callValidate(ctx, provider, row);
  const updated = await changeChannelStatus(ctx, row, verdictPatch(verdict, ctx.clock.now()), verdict.ok === true);
  return presentChannel(ctx, updated);
}

/**
 * The values the carrier lists for a setting (e.g. Baselinker's couriers), asked with the settings entered so far:
 * `channels add` offers them before the channel exists.
 */
export async function listSettingOptions(ctx: ServiceContext, providerCode: string, key: string, input: unknown): Promise<SettingOption[]> {
  const provider = findProvider(providerCode);
  if (!provider) throw new ValidationError({ provider: [`must be one of ${PROVIDER_CODES.join(', ')}`] });
  const spec = provider.settings.find((s) => s.key === key);
  if (!spec?.listed) {
    const listed = provider.settings.filter((s) => s.listed).map((s) => s.key);
    throw new ValidationError({ key: [listed.length > 0 ? `must be one of ${listed.join(', ')}` : `${provider.name} lists no setting values`] });
  }
  const { settings, errors } = resolveSettings(provider, input, undefined, true);
  if (Object.keys(errors).length > 0) throw new ValidationError(errors);
  return (await provider.adapter.settingOptions?.(key, settings, plainCarrierContext(ctx, `options:${provider.code}`))) ?? [];
}
