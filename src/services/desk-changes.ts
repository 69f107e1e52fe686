import type { ServiceContext } from './context.js';

/** In-process notice of a change a desk in the browser shows live (sent on as Server-Sent Events). */
export const DESK_CHANGED = 'desk-changed';

export type DeskChangeKind = 'printer' | 'print_job' | 'shipment';

export interface DeskChange {
  accountId: string;
  kind: DeskChangeKind;
  id: string;
}

/** Sent once the change is committed (at once outside a transaction), so a desk that reads it sees it. */
export function noticeDeskChange(ctx: ServiceContext, change: DeskChange): void {
  ctx.store.afterCommit(() => ctx.notices.emit(DESK_CHANGED, change));
}
