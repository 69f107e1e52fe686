import type { ServiceContext } from './context.js';

/** In-process notice of a change a desk in the browser shows live (sent on as Server-Sent Events). */
export const DESK_CHANGED = 'desk-changed';

export type DeskChangeKind = 'printer' | 'print_job' | 'shipment';

export interface DeskChange {
  accountId: string;
  kind: DeskChangeKind;
  id: string;
}

export function noticeDeskChange(ctx: ServiceContext, change: DeskChange): void {
  ctx.notices.emit(DESK_CHANGED, change);
}
