import { isoTime } from '../domain/clock.js';
import type { EventType, ResourceName } from '../domain/events.js';
import type { ServiceContext } from './context.js';
import { noticeDeskChange } from './desk-changes.js';
import { announce } from './notices.js';

export interface EventInput {
  accountId: string;
  type: EventType;
  resourceName: ResourceName;
  /** The resource as GET returns it, at the moment of the change. */
  resource: { id: string } & Record<string, unknown>;
  /** Only for `*.status_changed`. */
  previousStatus?: string;
}

/**
 * Writes an event to the durable outbox. Call it inside the transaction of the change that caused it,
 * so the change and its event are stored together or not at all.
 */
export async function recordEvent(ctx: ServiceContext, input: EventInput): Promise<string> {
  const id = ctx.ids('event');
  const createdAt = ctx.clock.now();
  const resource = input.type.endsWith('.status_changed')
    ? { ...input.resource, previous_status: input.previousStatus ?? null }
    : input.resource;
  const payload = { id, type: input.type, created_at: isoTime(createdAt), data: { [input.resourceName]: resource } };
  // written with every change: one prepared statement
  await ctx.store.run('INSERT INTO events (id, account_id, type, resource_type, resource_id, payload, created_at, dispatched_at) VALUES (?, ?, ?, ?, ?, ?, ?, NULL)',
    id, input.accountId, input.type, input.resourceName, input.resource.id, JSON.stringify(payload), createdAt);
  announce(ctx, EVENT_RECORDED);
  if (input.resourceName === 'shipment') noticeDeskChange(ctx, { accountId: input.accountId, kind: 'shipment', id: String(input.resource.id) });
  return id;
}

/** Notice sent once a written event was committed (at once when written outside a transaction). */
export const EVENT_RECORDED = 'events:recorded';
