import { isoTime } from '../domain/clock.js';
import type { EventType, ResourceName } from '../domain/events.js';
import { events } from '../store/schema.js';
import type { ServiceContext } from './context.js';

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
export function recordEvent(ctx: ServiceContext, input: EventInput): string {
  const id = ctx.ids('event');
  const createdAt = ctx.clock.now();
  const resource = input.type.endsWith('.status_changed')
    ? { ...input.resource, previous_status: input.previousStatus ?? null }
    : input.resource;
  const payload = { id, type: input.type, created_at: isoTime(createdAt), data: { [input.resourceName]: resource } };
  ctx.db.insert(events).values({
    id, accountId: input.accountId, type: input.type, resourceType: input.resourceName, resourceId: input.resource.id,
    payload: JSON.stringify(payload), createdAt, dispatchedAt: null,
  }).run();
  ctx.notices.emit(EVENT_RECORDED);
  return id;
}

/** Notice sent when an event was written; listeners must not touch the store synchronously (its transaction is open). */
export const EVENT_RECORDED = 'events:recorded';
