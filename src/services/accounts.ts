import { hash } from 'node:crypto';
import { desc, eq } from 'drizzle-orm';
import { randomBase62 } from '../domain/ids.js';
import { isoTime, isoTimeOrNull } from '../domain/clock.js';
import { FieldErrorCollector, NotFoundError, UnauthorizedError } from '../domain/errors.js';
import { accounts, apiKeys } from '../store/schema.js';
import type { ServiceContext } from './context.js';
import { announce } from './notices.js';

export type Plan = 'free' | 'standard' | 'enterprise';
export const PLANS: readonly Plan[] = ['free', 'standard', 'enterprise'];
export type KeyScope = 'full' | 'read_only';

/** Requests per minute by plan; enterprise is custom (`--rate-limit`) or unlimited (null). */
export const PLAN_RATE_LIMITS: Record<Plan, number | null> = { free: 60, standard: 300, enterprise: null };

export type AccountRow = typeof accounts.$inferSelect;
export type ApiKeyRow = typeof apiKeys.$inferSelect;

export function hashApiKey(key: string): string {
  return hash('sha256', key);
}

/** Announced when a key is revoked or an account's plan changes: callers remembered from a key must be read again. */
export const API_KEYS_CHANGED = 'api-keys:changed';

const KEY_PATTERN = /^pdk_live_[0-9A-Za-z]{32,}$/;

function checkPlan(plan: string, rateLimit: number | null | undefined): { plan: Plan; rateLimit: number | null } {
  const errors = new FieldErrorCollector();
  if (!PLANS.includes(plan as Plan)) errors.add('plan', `must be one of ${PLANS.join(', ')}`);
  if (rateLimit != null && (!Number.isInteger(rateLimit) || rateLimit < 1)) errors.add('rate_limit', 'must be a positive integer');
  if (rateLimit != null && plan !== 'enterprise') errors.add('rate_limit', 'a custom rate limit needs the enterprise plan');
  errors.throwIfAny();
  return { plan: plan as Plan, rateLimit: plan === 'enterprise' ? (rateLimit ?? null) : PLAN_RATE_LIMITS[plan as Plan] };
}

export async function createAccount(ctx: ServiceContext, input: { name: string; plan?: string; rateLimit?: number | null }): Promise<AccountRow> {
  const errors = new FieldErrorCollector();
  if (!input.name?.trim()) errors.add('name', 'is required');
  errors.throwIfAny();
  const { plan, rateLimit } = checkPlan(input.plan ?? 'free', input.rateLimit);
  const row: AccountRow = { id: ctx.ids('account'), name: input.name.trim(), plan, rateLimit, createdAt: ctx.clock.now() };
  await ctx.db.insert(accounts).values(row).run();
  return row;
}

export function listAccounts(ctx: ServiceContext): Promise<AccountRow[]> {
  return ctx.db.select().from(accounts).orderBy(desc(accounts.createdAt)).all();
}

export async function getAccount(ctx: ServiceContext, id: string): Promise<AccountRow> {
  const row = await ctx.db.select().from(accounts).where(eq(accounts.id, id)).get();
  if (!row) throw new NotFoundError(`Account ${id} not found.`);
  return row;
}

export async function setPlan(ctx: ServiceContext, id: string, plan: string, rateLimit?: number | null): Promise<AccountRow> {
  await getAccount(ctx, id);
  const checked = checkPlan(plan, rateLimit);
  await ctx.store.transaction(async () => {
    await ctx.db.update(accounts).set(checked).where(eq(accounts.id, id)).run();
    announce(ctx, API_KEYS_CHANGED);
  });
  return getAccount(ctx, id);
}

/** Creates a key; the returned `apiKey` is the only time the full key exists outside the caller. */
export async function createApiKey(ctx: ServiceContext, input: { accountId: string; scope?: string; name?: string }): Promise<{ row: ApiKeyRow; apiKey: string }> {
  await getAccount(ctx, input.accountId);
  const scope = input.scope ?? 'full';
  if (scope !== 'full' && scope !== 'read_only') {
    const errors = new FieldErrorCollector();
    errors.add('scope', 'must be one of full, read_only');
    errors.throwIfAny();
  }
  const apiKey = `pdk_live_${randomBase62(32)}`;
  const row: ApiKeyRow = {
    id: ctx.ids('apiKey'), accountId: input.accountId, keyHash: hashApiKey(apiKey), keyPrefix: apiKey.slice(0, 13),
    name: input.name ?? null, scope: scope as KeyScope, createdAt: ctx.clock.now(), revokedAt: null,
  };
  await ctx.db.insert(apiKeys).values(row).run();
  return { row, apiKey };
}

export function listApiKeys(ctx: ServiceContext, accountId?: string): Promise<ApiKeyRow[]> {
  const q = ctx.db.select().from(apiKeys);
  return (accountId ? q.where(eq(apiKeys.accountId, accountId)) : q).orderBy(desc(apiKeys.createdAt)).all();
}

export async function revokeApiKey(ctx: ServiceContext, keyId: string): Promise<ApiKeyRow> {
  const row = await ctx.db.select().from(apiKeys).where(eq(apiKeys.id, keyId)).get();
  if (!row) throw new NotFoundError(`API key ${keyId} not found.`);
  if (row.revokedAt == null) {
    await ctx.store.transaction(async () => {
      await ctx.db.update(apiKeys).set({ revokedAt: ctx.clock.now() }).where(eq(apiKeys.id, keyId)).run();
      announce(ctx, API_KEYS_CHANGED);
    });
  }
  return (await ctx.db.select().from(apiKeys).where(eq(apiKeys.id, keyId)).get())!;
}

export interface Caller {
  account: AccountRow;
  keyId: string;
  scope: KeyScope;
}

/** Resolves a bearer key to its account; unknown, malformed or revoked keys are all the same 401. */
export async function authenticate(ctx: ServiceContext, presented: string | undefined): Promise<Caller> {
  if (!presented || !KEY_PATTERN.test(presented)) throw new UnauthorizedError();
  // every request passes here: one plain statement, no query building
  const found = await ctx.store.get<AccountRow & { keyId: string; scope: KeyScope }>(`SELECT k.id AS "keyId", k.scope, a.id, a.name, a.plan,
    a.rate_limit AS "rateLimit", a.created_at AS "createdAt"
    FROM api_keys k JOIN accounts a ON a.id = k.account_id WHERE k.key_hash = ? AND k.revoked_at IS NULL`, hashApiKey(presented));
  if (!found) throw new UnauthorizedError();
  const { keyId, scope, ...account } = found;
  return { account, keyId, scope };
}

export function presentAccount(row: AccountRow) {
  return {
    id: row.id, name: row.name, plan: row.plan,
    rate_limit: row.rateLimit == null ? null : { requests_per_minute: row.rateLimit },
    created_at: isoTime(row.createdAt),
  };
}

export function presentApiKey(row: ApiKeyRow) {
  return {
    id: row.id, account_id: row.accountId, name: row.name, scope: row.scope, prefix: row.keyPrefix,
    created_at: isoTime(row.createdAt), revoked_at: isoTimeOrNull(row.revokedAt),
  };
}
