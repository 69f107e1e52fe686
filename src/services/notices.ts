import type { ServiceContext } from './context.js';

/** Wakes the workers once the current transaction has committed: this daemon's, and every daemon's on a shared store. */
export function announce(ctx: ServiceContext, notice: string): void {
  ctx.store.afterCommit(() => ctx.notices.emit(notice));
  ctx.store.announce(notice);
}

/**
 * Work queued on other daemons of a shared store wakes this one's workers: the notices they announce are emitted
 * here as if queued here. Resolves to a function that stops it.
 */
export function relayStoreNotices(ctx: ServiceContext): Promise<() => Promise<void>> {
  return ctx.store.listen((notice) => ctx.notices.emit(notice));
}
