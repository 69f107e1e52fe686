import { and, eq, lte, min, or } from 'drizzle-orm';
import { isoTimeOrNull } from '../domain/clock.js';
import { ValidationError } from '../domain/errors.js';
import { CarrierRefusedError, CarrierTransientError } from '../carriers/errors.js';
import { findProvider } from '../carriers/registry.js';
import type { ChannelSettings, DeviceCodeIssued, ProviderDefinition } from '../carriers/types.js';
import { channelAuthorizations, shippingChannels } from '../store/schema.js';
import type { ServiceContext } from './context.js';
import { getChannelRow, recordChannelRefusal } from './channel-records.js';
import { loadAuthorization, storeTokens, type AuthorizationRow } from './channel-grants.js';
import { carrierContext, validateChannel } from './channels.js';

type PendingDevice = Pick<DeviceCodeIssued, 'deviceCode' | 'userCode' | 'verificationUri' | 'verificationUriComplete'>;

/** RFC 8628 §3.5: on `slow_down` the interval grows by 5 seconds. */
const SLOW_DOWN_STEP_MS = 5_000;

function userAuthorizationOf(provider: ProviderDefinition) {
  if (!provider.userAuthorization) {
    const message = `${provider.name} channels are connected by their settings alone; there is nothing to authorise.`;
    throw new ValidationError({ provider: [message] }, message);
  }
  return provider.userAuthorization;
}

/** What the API shows of a channel's authorization: never a token or the device code. */
export function presentAuthorization(ctx: ServiceContext, row: AuthorizationRow | undefined) {
  const device = row?.status === 'pending' && row.deviceEnc ? ctx.secrets.openJson<PendingDevice>(row.deviceEnc) : null;
  return {
    status: row?.status ?? 'none',
    user_code: device?.userCode ?? null,
    verification_uri: device?.verificationUri ?? null,
    verification_uri_complete: device?.verificationUriComplete ?? null,
    expires_at: device ? isoTimeOrNull(row!.deviceExpiresAt) : null,
    authorized_at: isoTimeOrNull(row?.authorizedAt ?? null),
    message: row?.message ?? null,
  };
}

export type AuthorizationView = ReturnType<typeof presentAuthorization>;

export async function getAuthorization(ctx: ServiceContext, accountId: string, channelId: string): Promise<AuthorizationView> {
  const channel = await getChannelRow(ctx, accountId, channelId);
  userAuthorizationOf(findProvider(channel.provider)!);
  return presentAuthorization(ctx, await loadAuthorization(ctx, channelId));
}

/**
 * Starts the carrier's device flow for the channel (or returns the one still running): the person opens the
 * verification URL and enters the user code; the daemon polls until they approved. Tokens of an earlier grant keep
 * working until the new one replaces them.
 */
export async function startAuthorization(ctx: ServiceContext, accountId: string, channelId: string): Promise<AuthorizationView> {
  const channel = await getChannelRow(ctx, accountId, channelId);
  const provider = findProvider(channel.provider)!;
  const flow = userAuthorizationOf(provider);
  const existing = await loadAuthorization(ctx, channelId);
  const now = ctx.clock.now();
  if (existing?.status === 'pending' && (existing.deviceExpiresAt ?? 0) > now) return presentAuthorization(ctx, existing);
  let issued: DeviceCodeIssued;
  try {
    issued = await flow.startDeviceFlow(ctx.secrets.openJson<ChannelSettings>(channel.settingsEnc), carrierContext(ctx, channel));
  } catch (err) {
    if (!(err instanceof CarrierRefusedError)) throw err;
    await recordChannelRefusal(ctx, channel.id, err);
    throw new ValidationError(err.errors, err.message);
  }
  const device: PendingDevice = {
    deviceCode: issued.deviceCode, userCode: issued.userCode,
    verificationUri: issued.verificationUri, verificationUriComplete: issued.verificationUriComplete,
  };
  const pending = {
    status: 'pending' as const, deviceEnc: ctx.secrets.sealJson(device), deviceExpiresAt: now + issued.expiresInSeconds * 1000,
    pollIntervalMs: issued.intervalSeconds * 1000, nextPollAt: now + issued.intervalSeconds * 1000, message: null, updatedAt: now,
  };
  await ctx.db.insert(channelAuthorizations).values({ channelId, version: 0, ...pending })
    .onConflictDoUpdate({ target: channelAuthorizations.channelId, set: pending }).run();
  return presentAuthorization(ctx, await loadAuthorization(ctx, channelId));
}

/** Claims up to `limit` device flows whose poll is due (each claim moves its next poll on, so one station polls it). */
export async function claimDeviceFlows(ctx: ServiceContext, limit: number): Promise<AuthorizationRow[]> {
  if (limit <= 0) return [];
  const now = ctx.clock.now();
  const due = await ctx.db.select().from(channelAuthorizations)
    .where(and(eq(channelAuthorizations.status, 'pending'), lte(channelAuthorizations.nextPollAt, now))).limit(limit).all();
  const claimed: AuthorizationRow[] = [];
  for (const row of due) {
    const moved = await ctx.db.update(channelAuthorizations).set({ nextPollAt: now + (row.pollIntervalMs ?? 5_000) })
      .where(and(eq(channelAuthorizations.channelId, row.channelId), eq(channelAuthorizations.nextPollAt, row.nextPollAt!)))
      .returning({ channelId: channelAuthorizations.channelId });
    if (moved.length === 1) claimed.push(row);
  }
  return claimed;
}

/** When the next device flow is due to be polled, if one is running. */
export async function nextDeviceFlowPollAt(ctx: ServiceContext): Promise<number | undefined> {
  const row = await ctx.db.select({ at: min(channelAuthorizations.nextPollAt) }).from(channelAuthorizations)
    .where(eq(channelAuthorizations.status, 'pending')).get();
  return row?.at ?? undefined;
}

async function endFlow(ctx: ServiceContext, channelId: string, status: 'denied' | 'expired', message: string): Promise<void> {
  await ctx.db.update(channelAuthorizations)
    .set({ status, message, deviceEnc: null, deviceExpiresAt: null, nextPollAt: null, updatedAt: ctx.clock.now() })
    .where(eq(channelAuthorizations.channelId, channelId)).run();
}

/** One poll of the carrier's token endpoint for a claimed device flow; a grant is stored and the channel validated. */
export async function pollDeviceFlow(ctx: ServiceContext, row: AuthorizationRow): Promise<void> {
  const channel = (await ctx.db.select().from(shippingChannels).where(eq(shippingChannels.id, row.channelId)).get())!;
  const provider = findProvider(channel.provider)!;
  const now = ctx.clock.now();
  if ((row.deviceExpiresAt ?? 0) <= now) {
    await endFlow(ctx, row.channelId, 'expired', 'The code expired before anyone approved it; authorise the channel again.');
    return;
  }
  const device = ctx.secrets.openJson<PendingDevice>(row.deviceEnc!);
  const settings = ctx.secrets.openJson<ChannelSettings>(channel.settingsEnc);
  let outcome;
  try {
    outcome = await userAuthorizationOf(provider).pollDeviceFlow(settings, device.deviceCode, carrierContext(ctx, channel));
  } catch (err) {
    if (err instanceof CarrierTransientError) return; // polled again at the next interval
    if (!(err instanceof CarrierRefusedError)) throw err;
    await endFlow(ctx, row.channelId, 'denied', err.message);
    return;
  }
  switch (outcome.state) {
    case 'pending':
      return;
    case 'slow_down': {
      const interval = (row.pollIntervalMs ?? 5_000) + SLOW_DOWN_STEP_MS;
      await ctx.db.update(channelAuthorizations).set({ pollIntervalMs: interval, nextPollAt: now + interval })
        .where(eq(channelAuthorizations.channelId, row.channelId)).run();
      return;
    }
    case 'denied':
      await endFlow(ctx, row.channelId, 'denied', `${provider.name}: ${outcome.message}`);
      return;
    case 'expired':
      await endFlow(ctx, row.channelId, 'expired', 'The code expired before anyone approved it; authorise the channel again.');
      return;
    case 'granted':
      await storeTokens(ctx, row.channelId, outcome.tokens, { status: 'authorized', authorizedAt: now, deviceEnc: null, deviceExpiresAt: null, nextPollAt: null });
      ctx.log.info({ channel_id: row.channelId }, 'channel authorised');
      if (channel.deletedAt === null) await validateChannel(ctx, channel.accountId, channel.id).catch((err: Error) => {
        ctx.log.warn({ channel_id: channel.id, err: err.message }, 'validation after authorization postponed');
      });
  }
}

