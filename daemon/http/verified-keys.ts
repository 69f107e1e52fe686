import { API_KEYS_CHANGED, hashApiKey, type Caller } from '../../src/services/accounts.js';
import type { ServiceContext } from '../../src/services/context.js';

/** Keys remembered at most; beyond them the least recently used is forgotten. */
const MAX_VERIFIED_KEYS = 1_000;

/**
 * On a shared store a change announced by another daemon can be missed (while its notices' connection is lost) or
 * made without any notice (SQL by hand): there a caller is trusted no longer than this.
 */
export const SHARED_STORE_TRUST_MS = 10_000;

/**
 * API keys that authenticated, by their hash, with their caller: a request with a known key reads nothing from the
 * store. All are forgotten when a key is revoked or a plan changes (`API_KEYS_CHANGED`, announced by this daemon and
 * on a shared store by every daemon), and when another process wrote to the SQLite store (`packdesk keys revoke`);
 * on a shared store each is also forgotten after SHARED_STORE_TRUST_MS.
 */
export class VerifiedKeys {
  private readonly callers = new Map<string, { caller: Caller; verifiedAt: number }>();
  /** Moves whenever callers are forgotten: a check begun before may have read what no longer holds. */
  private generation = 0;
  private writesByOthers: number | undefined;
  private readonly forget = () => {
    this.callers.clear();
    this.generation += 1;
  };

  constructor(private readonly ctx: ServiceContext) {
    this.writesByOthers = ctx.store.writesByOthers();
    ctx.notices.on(API_KEYS_CHANGED, this.forget);
  }

  /** The caller of a presented key as verified before, while nothing since can have changed it. */
  callerOf(presented: string): Caller | undefined {
    const writesByOthers = this.ctx.store.writesByOthers();
    if (writesByOthers !== this.writesByOthers) {
      this.writesByOthers = writesByOthers;
      this.forget();
      return undefined;
    }
    const keyHash = hashApiKey(presented);
    const known = this.callers.get(keyHash);
    if (!known) return undefined;
    this.callers.delete(keyHash);
    if (this.ctx.store.shared && this.ctx.clock.now() - known.verifiedAt >= SHARED_STORE_TRUST_MS) return undefined;
    this.callers.set(keyHash, known);
    return known.caller;
  }

  /** Taken before a key is checked against the store: `remember` keeps the result only if nothing was forgotten since. */
  checkBegins(): number {
    return this.generation;
  }

  remember(presented: string, caller: Caller, checkBegan: number): void {
    if (checkBegan !== this.generation) return;
    this.callers.set(hashApiKey(presented), { caller, verifiedAt: this.ctx.clock.now() });
    if (this.callers.size > MAX_VERIFIED_KEYS) this.callers.delete(this.callers.keys().next().value!);
  }

  close(): void {
    this.ctx.notices.off(API_KEYS_CHANGED, this.forget);
  }
}
