import { setTimeout as sleep } from 'node:timers/promises';
import { and, eq, isNull, lte, or, sql } from 'drizzle-orm';
import { AuthorizationRequiredError, CarrierTransientError, GrantRevokedError } from '../carriers/errors.js';
import type { CarrierContext, ChannelSettings, ProviderDefinition, UserGrantAccess, UserTokens } from '../carriers/types.js';
import { channelAuthorizations, shippingChannels } from '../store/schema.js';
import { changeChannelStatus, type ChannelRow } from './channel-records.js';
import type { ServiceContext } from './context.js';

// A channel's stored grant (the tokens a person gave packdesk): below both the channel service, which hands it to
// adapters, and the authorization flows, which store it.

export type AuthorizationRow = typeof channelAuthorizations.$inferSelect;

interface StoredTokens {
  accessToken: string;
  refreshToken: string;
}

/** Refresh this long before the access token expires, so no call starts with a token about to die. */
const RENEW_MARGIN_MS = 60_000;
/** How long one station may hold the refresh of a channel before another may take it over. */
const REFRESH_LEASE_MS = 60_000;
/** How often a worker waiting for another's refresh looks at the store again. */
const REFRESH_WAIT_STEP_MS = 50;
export function loadAuthorization(ctx: ServiceContext, channelId: string): Promise<AuthorizationRow | undefined> {
  return ctx.db.select().from(channelAuthorizations).where(eq(channelAuthorizations.channelId, channelId)).get();
}

export async function storeTokens(ctx: ServiceContext, channelId: string, tokens: UserTokens, extra: Partial<AuthorizationRow> = {}): Promise<void> {
  const now = ctx.clock.now();
  const sealed: StoredTokens = { accessToken: tokens.accessToken, refreshToken: tokens.refreshToken };
  await ctx.db.update(channelAuthorizations).set({
    ...extra, tokensEnc: ctx.secrets.sealJson(sealed), accessExpiresAt: now + tokens.expiresInSeconds * 1000,
    version: sql`${channelAuthorizations.version} + 1`, refreshingUntil: null, message: null, updatedAt: now,
  }).where(eq(channelAuthorizations.channelId, channelId)).run();
}

/** The carrier no longer honours the grant: drop the tokens and show the channel as needing a person again. */
async function revoke(ctx: ServiceContext, channel: ChannelRow, message: string): Promise<void> {
  const now = ctx.clock.now();
  await ctx.db.update(channelAuthorizations).set({ status: 'revoked', tokensEnc: null, accessExpiresAt: null, refreshingUntil: null, message, updatedAt: now })
    .where(eq(channelAuthorizations.channelId, channel.id)).run();
  const fresh = (await ctx.db.select().from(shippingChannels).where(eq(shippingChannels.id, channel.id)).get())!;
  await changeChannelStatus(ctx, fresh, { status: 'authorization_required', validationError: JSON.stringify({ message, errors: {} }), updatedAt: now });
}

/** Refreshes in flight per station (service context) and channel: concurrent callers share one. */
const refreshesInFlight = new WeakMap<ServiceContext, Map<string, Promise<string>>>();

/**
 * The adapter's handle on the channel's stored grant. Across processes (several stations on one store) the refresh
 * is leased in the store, and a worker that finds it leased waits for the new tokens instead of refreshing too: the
 * carrier rotates refresh tokens, so a second refresh would revoke the first.
 */
export function grantAccess(ctx: ServiceContext, channel: ChannelRow, provider: ProviderDefinition, carrierCtx: CarrierContext): UserGrantAccess {
  const required = () => new AuthorizationRequiredError(
    `${provider.name} acts for a person who has not authorised packdesk for this channel; run \`packdesk channels authorize ${channel.id}\`.`,
  );
  const current = async (): Promise<{ row: AuthorizationRow; tokens: StoredTokens }> => {
    const row = await loadAuthorization(ctx, channel.id);
    if (!row?.tokensEnc || row.status === 'revoked') throw required();
    return { row, tokens: ctx.secrets.openJson<StoredTokens>(row.tokensEnc) };
  };

  const refresh = async (): Promise<string> => {
    for (let waited = 0; ; waited += REFRESH_WAIT_STEP_MS) {
      const { row, tokens } = await current();
      const now = ctx.clock.now();
      if ((row.accessExpiresAt ?? 0) - RENEW_MARGIN_MS > now) return tokens.accessToken;
      const lease = await ctx.db.update(channelAuthorizations).set({ refreshingUntil: now + REFRESH_LEASE_MS })
        .where(and(
          eq(channelAuthorizations.channelId, channel.id), eq(channelAuthorizations.version, row.version),
          or(isNull(channelAuthorizations.refreshingUntil), lte(channelAuthorizations.refreshingUntil, now)),
        )).returning({ channelId: channelAuthorizations.channelId });
      if (lease.length !== 1) {
        if (waited >= REFRESH_LEASE_MS) throw new CarrierTransientError(`${provider.name}: another station is still refreshing the channel's token`);
        await sleep(REFRESH_WAIT_STEP_MS);
        continue;
      }
      try {
        const fresh = await provider.userAuthorization!.refresh(ctx.secrets.openJson<ChannelSettings>(channel.settingsEnc), tokens.refreshToken, carrierCtx);
        await storeTokens(ctx, channel.id, fresh);
        return fresh.accessToken;
      } catch (err) {
        if (err instanceof GrantRevokedError) {
          await revoke(ctx, channel, `${provider.name} no longer honours this channel's authorization (${err.message}); authorise it again.`);
          throw required();
        }
        await ctx.db.update(channelAuthorizations).set({ refreshingUntil: null }).where(eq(channelAuthorizations.channelId, channel.id)).run();
        throw err;
      }
    }
  };

  return {
    async accessToken() {
      const { row, tokens } = await current();
      if ((row.accessExpiresAt ?? 0) - RENEW_MARGIN_MS > ctx.clock.now()) return tokens.accessToken;
      let station = refreshesInFlight.get(ctx);
      if (!station) refreshesInFlight.set(ctx, (station = new Map()));
      let inflight = station.get(channel.id);
      if (!inflight) {
        inflight = refresh().finally(() => station.delete(channel.id));
        station.set(channel.id, inflight);
      }
      return inflight;
    },
    async refused(token) {
      const { row, tokens } = await current();
      if (tokens.accessToken !== token) return;
      await ctx.db.update(channelAuthorizations).set({ accessExpiresAt: 0 })
        .where(and(eq(channelAuthorizations.channelId, channel.id), eq(channelAuthorizations.version, row.version))).run();
    },
  };
}
