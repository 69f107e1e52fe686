import { and, asc, eq, gt, gte, inArray, isNull, lt, sql } from 'drizzle-orm';
import { isoTime } from '../domain/clock.js';
import { ConflictError, FieldErrorCollector } from '../domain/errors.js';
import { actionChannels, checkRuleConditions, ruleFacts, unmetCondition, type ChosenBy, type RuleAction, type RuleConditions } from '../domain/shipping-rules.js';
import { shippingChannels, shippingRules } from '../store/schema.js';
import type { ServiceContext } from './context.js';
import { owned } from './ownership.js';
import { activeChannels, quoteAtChannels, type Quote } from './rates.js';
import type { ShipmentBody } from './shipments/create.js';
import { withStationSettings } from './station-settings.js';

export type ShippingRuleRow = typeof shippingRules.$inferSelect;

/** An account keeps at most this many rules: each shipment without a channel may be held to all of them. */
export const MAX_SHIPPING_RULES = 200;

export interface ShippingRuleInput {
  name?: string;
  /** 1 is tried first; a new rule goes last unless given, the rules from there on move down one. */
  position?: number;
  active?: boolean;
  conditions?: RuleConditions;
  action?: RuleAction;
}

/** Where a body comes from, as far as the rules read it. */
export interface RuleSource {
  importFolderId?: string | null;
}

export function presentShippingRule(row: ShippingRuleRow) {
  return {
    id: row.id, position: row.position, name: row.name, active: row.active, conditions: row.conditions, action: row.action,
    created_at: isoTime(row.createdAt), updated_at: isoTime(row.updatedAt),
  };
}

function accountRules(ctx: ServiceContext, accountId: string): Promise<ShippingRuleRow[]> {
  return ctx.db.select().from(shippingRules).where(eq(shippingRules.accountId, accountId)).orderBy(asc(shippingRules.position)).all();
}

export async function listShippingRules(ctx: ServiceContext, accountId: string) {
  return (await accountRules(ctx, accountId)).map(presentShippingRule);
}

export async function getShippingRuleRow(ctx: ServiceContext, accountId: string, id: string): Promise<ShippingRuleRow> {
  return owned(await ctx.db.select().from(shippingRules).where(eq(shippingRules.id, id)).get(), accountId, 'Shipping rule', id);
}

/**
 * The checks the schema cannot make: known countries, ranges in order, the action's channels this account's, a
 * position in the list. Run beside the schema's own errors, so they read only values of the right type.
 */
async function checkRule(ctx: ServiceContext, accountId: string, input: ShippingRuleInput, places: number, errors: FieldErrorCollector): Promise<void> {
  checkRuleConditions(input.conditions, errors);
  if (typeof input.position === 'number' && input.position > places) errors.add('position', `must be from 1 to ${places}: the account has ${places - 1} other rules`);
  const action = (input.action ?? {}) as { type?: unknown; shipping_channel_id?: unknown; shipping_channel_ids?: unknown };
  const [named, path] = action.type === 'use_channel'
    ? [[action.shipping_channel_id], () => 'action.shipping_channel_id']
    : [Array.isArray(action.shipping_channel_ids) ? action.shipping_channel_ids : [], (i: number) => `action.shipping_channel_ids.${i}`];
  const ids = named.filter((id): id is string => typeof id === 'string');
  if (ids.length === 0) return;
  const found = await ctx.db.select({ id: shippingChannels.id }).from(shippingChannels)
    .where(and(eq(shippingChannels.accountId, accountId), isNull(shippingChannels.deletedAt), inArray(shippingChannels.id, ids))).all();
  named.forEach((id, i) => {
    if (typeof id === 'string' && !found.some((c) => c.id === id)) errors.add(path(i), 'is not a shipping channel of this account');
  });
}

/** Moves the rules from position `from` (inclusive) to `to` (exclusive) by `by` places. */
async function shift(ctx: ServiceContext, accountId: string, from: number, to: number, by: 1 | -1): Promise<void> {
  await ctx.db.update(shippingRules).set({ position: sql`${shippingRules.position} + ${by}` })
    .where(and(eq(shippingRules.accountId, accountId), gte(shippingRules.position, from), lt(shippingRules.position, to))).run();
}

export async function createShippingRule(ctx: ServiceContext, accountId: string, input: ShippingRuleInput, errors = new FieldErrorCollector()) {
  return ctx.store.transaction(async () => {
    const count = (await accountRules(ctx, accountId)).length;
    // a body that is wrong is answered as such first, whatever the count
    await checkRule(ctx, accountId, input, count + 1, errors);
    errors.throwIfAny();
    if (count >= MAX_SHIPPING_RULES) throw new ConflictError(`The account has ${MAX_SHIPPING_RULES} shipping rules, the most it may keep: delete one first.`);
    const position = input.position ?? count + 1;
    await shift(ctx, accountId, position, count + 1, 1);
    const now = ctx.clock.now();
    const row: ShippingRuleRow = {
      id: ctx.ids('shippingRule'), accountId, position, name: input.name!.trim(), active: input.active ?? true,
      conditions: input.conditions ?? {}, action: input.action!, createdAt: now, updatedAt: now,
    };
    await ctx.db.insert(shippingRules).values(row).run();
    return presentShippingRule(row);
  });
}

export async function updateShippingRule(ctx: ServiceContext, accountId: string, id: string, input: ShippingRuleInput, errors = new FieldErrorCollector()) {
  return ctx.store.transaction(async () => {
    const row = await getShippingRuleRow(ctx, accountId, id);
    const count = (await accountRules(ctx, accountId)).length;
    await checkRule(ctx, accountId, input, count, errors);
    errors.throwIfAny();
    const position = input.position ?? row.position;
    if (position < row.position) await shift(ctx, accountId, position, row.position, 1);
    if (position > row.position) await shift(ctx, accountId, row.position + 1, position + 1, -1);
    const changed: Partial<ShippingRuleRow> = {
      position, updatedAt: ctx.clock.now(),
      ...(input.name !== undefined ? { name: input.name.trim() } : {}),
      ...(input.active !== undefined ? { active: input.active } : {}),
      ...(input.conditions !== undefined ? { conditions: input.conditions } : {}),
      ...(input.action !== undefined ? { action: input.action } : {}),
    };
    await ctx.db.update(shippingRules).set(changed).where(eq(shippingRules.id, id)).run();
    return presentShippingRule({ ...row, ...changed });
  });
}

export async function deleteShippingRule(ctx: ServiceContext, accountId: string, id: string): Promise<void> {
  await ctx.store.transaction(async () => {
    const row = await getShippingRuleRow(ctx, accountId, id);
    await ctx.db.delete(shippingRules).where(eq(shippingRules.id, id)).run();
    await ctx.db.update(shippingRules).set({ position: sql`${shippingRules.position} - 1` })
      .where(and(eq(shippingRules.accountId, accountId), gt(shippingRules.position, row.position))).run();
  });
}

/** One rule as a body met it: whether it chose, and why or why not. */
export interface RuleTrial {
  shipping_rule_id: string;
  position: number;
  name: string;
  chose: boolean;
  reason: string;
}

/** The rules' choice for a body: the channel and the rule, or null; and every rule tried on the way. */
export interface RuleChoice {
  chosen: { shippingChannelId: string; by: ChosenBy } | null;
  trials: RuleTrial[];
  /** The quotes of the rule that chose by price or transit. */
  quotes: Quote[] | null;
}

const priced = (q: Quote) => q.price !== null && q.cannot === null;

/**
 * The quote a cheapest or fastest rule picks: the lowest price, or the fewest transit days (then the price); or why
 * none. Prices are compared in one currency only: packdesk keeps no exchange rates.
 */
function pick(type: 'cheapest' | 'fastest', quotes: Quote[], asked: number): { best: Quote } | { none: string } {
  const candidates = quotes.filter(priced).filter((q) => type === 'cheapest' || q.transit_days != null);
  if (candidates.length === 0) return { none: `none of its ${asked} channels answered a price${type === 'fastest' ? ' and a transit time' : ''} for it` };
  const currencies = [...new Set(candidates.map((q) => q.currency))];
  if (currencies.length > 1) return { none: `its channels price it in different currencies (${currencies.join(', ')}), and packdesk keeps no exchange rates` };
  const key = (q: Quote) => (type === 'fastest' ? [q.transit_days!, q.price!] : [q.price!, 0]);
  return { best: candidates.sort((a, b) => key(a)[0]! - key(b)[0]! || key(a)[1]! - key(b)[1]!)[0]! };
}

/**
 * Holds a body (everything but its channel settled) to the account's active rules in order: the first whose
 * conditions hold and whose action finds a channel chooses (its channel while active; the cheapest or fastest of its
 * active channels that quote the shipment a price). A rule that holds but finds none is passed over, saying why.
 */
export async function chooseChannel(ctx: ServiceContext, accountId: string, given: Partial<ShipmentBody>, source: RuleSource = {}): Promise<RuleChoice> {
  // the channel a station gave is what stands where no rule chooses: the quotes of a rule ask the rule's own
  const { shipping_channel_id: _fallback, ...body } = given;
  const rules = (await accountRules(ctx, accountId)).filter((r) => r.active);
  const facts = ruleFacts(body, source.importFolderId ?? null);
  const trials: RuleTrial[] = [];
  for (const rule of rules) {
    const trial = (chose: boolean, reason: string) => trials.push({ shipping_rule_id: rule.id, position: rule.position, name: rule.name, chose, reason });
    const unmet = unmetCondition(rule.conditions, facts);
    if (unmet) {
      trial(false, unmet);
      continue;
    }
    const { action } = rule;
    if (action.type === 'use_channel') {
      const channel = await ctx.db.select().from(shippingChannels).where(eq(shippingChannels.id, action.shipping_channel_id)).get();
      if (!channel || channel.deletedAt !== null || channel.status !== 'active') {
        trial(false, `its channel ${channel?.name ?? action.shipping_channel_id} is ${channel && channel.deletedAt === null ? channel.status : 'deleted'}`);
        continue;
      }
      const reason = `ships with ${channel.name}`;
      trial(true, reason);
      return { chosen: { shippingChannelId: channel.id, by: { shipping_rule_id: rule.id, name: rule.name, reason } }, trials, quotes: null };
    }
    const quotes = await quoteAtChannels(ctx, accountId, await activeChannels(ctx, accountId, action.shipping_channel_ids), body as Omit<ShipmentBody, 'shipping_channel_id'>);
    const picked = pick(action.type, quotes, action.shipping_channel_ids.length);
    if ('none' in picked) {
      trial(false, picked.none);
      continue;
    }
    const { best } = picked;
    const reason = action.type === 'cheapest'
      ? `the cheapest of ${quotes.filter(priced).length} priced channels: ${best.name} at ${best.price} ${best.currency}`
      : `the fastest of ${quotes.filter(priced).length} priced channels: ${best.name} in ${best.transit_days} days at ${best.price} ${best.currency}`;
    trial(true, reason);
    return { chosen: { shippingChannelId: best.shipping_channel_id, by: { shipping_rule_id: rule.id, name: rule.name, reason } }, trials, quotes };
  }
  return { chosen: null, trials, quotes: null };
}

/**
 * A creation body read at its station and by the rules: a channel the body names is kept; otherwise the rules
 * choose, and where none does, the station's channel stands (services/station-settings.ts).
 */
export async function withRoutedChannel<B extends Partial<ShipmentBody>>(ctx: ServiceContext, accountId: string, given: B & { station?: string }, source: RuleSource = {}): Promise<{ body: B; chosenBy: ChosenBy | null }> {
  const settled = await withStationSettings(ctx, accountId, given);
  if (given.shipping_channel_id !== undefined) return { body: settled, chosenBy: null };
  const { chosen } = await chooseChannel(ctx, accountId, settled, source);
  return chosen ? { body: { ...settled, shipping_channel_id: chosen.shippingChannelId }, chosenBy: chosen.by } : { body: settled, chosenBy: null };
}

/** `POST /v1/shipping-rules/test`: what the rules would do with a body, rule by rule, without creating anything. */
export async function testShippingRules(ctx: ServiceContext, accountId: string, given: Partial<ShipmentBody> & { station?: string; import_folder_id?: string | null }) {
  const { import_folder_id: importFolderId, ...body } = given;
  const settled = await withStationSettings(ctx, accountId, body);
  const stationChannel = settled.shipping_channel_id;
  const { chosen, trials, quotes } = await chooseChannel(ctx, accountId, settled, { importFolderId: importFolderId ?? null });
  return {
    shipping_channel_id: chosen?.shippingChannelId ?? stationChannel ?? null,
    chosen_by: chosen?.by ?? null,
    fallback: chosen ? null : stationChannel ? 'station' : null,
    rules: trials,
    quotes,
  };
}
