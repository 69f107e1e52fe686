import { hostname } from 'node:os';
import { asc, eq, gte, lt } from 'drizzle-orm';
import { isoTime } from '../domain/clock.js';
import type { FieldErrorCollector } from '../domain/errors.js';
import { daemons, storeFacts } from '../store/schema.js';
import type { ServiceContext } from './context.js';

/** A printer or watched folder is this daemon's to serve: its station's, or any daemon's (from before stations). */
export function servedHere(ctx: ServiceContext, row: { station: string | null }): boolean {
  return row.station === null || row.station === ctx.station;
}

/**
 * Whether a patch moves a printer or watched folder to another station, refusing a move to any station but this
 * daemon's: what it names (a device, a directory) is checked on the machine that will serve it.
 */
export function movesHere(ctx: ServiceContext, row: { station: string | null }, wanted: string | undefined, errors: FieldErrorCollector): boolean {
  if (wanted === undefined || wanted === row.station) return false;
  if (wanted !== ctx.station) {
    errors.add('station', `moves only to the station of the daemon that takes the request (this one serves ${ctx.station}): send it to ${wanted}'s daemon`);
    return false;
  }
  return true;
}

/**
 * The daemons working on one store. Each registers at start with its station (the machine's printers and watched
 * folders are that station's), beats every HEARTBEAT_MS while it runs and leaves at a clean stop; one killed stays
 * listed until it has not been seen for SEEN_WITHIN_MS.
 */
export const HEARTBEAT_MS = 15_000;
export const SEEN_WITHIN_MS = 60_000;
/** A daemon not seen for this long is forgotten. */
const FORGOTTEN_AFTER_MS = 24 * 60 * 60 * 1000;

export type DaemonRow = typeof daemons.$inferSelect;

/** This machine's station name when none is given: the host name. */
export function defaultStation(): string {
  return process.env.PACKDESK_STATION?.trim() || hostname();
}

export async function registerDaemon(ctx: ServiceContext, version: string): Promise<DaemonRow> {
  const now = ctx.clock.now();
  const row: DaemonRow = { id: ctx.daemonId, station: ctx.station, host: hostname(), pid: process.pid, version, startedAt: now, seenAt: now };
  await ctx.db.insert(daemons).values(row).run();
  return row;
}

export async function heartbeat(ctx: ServiceContext, id: string): Promise<void> {
  const now = ctx.clock.now();
  await ctx.db.update(daemons).set({ seenAt: now }).where(eq(daemons.id, id)).run();
  await ctx.db.delete(daemons).where(lt(daemons.seenAt, now - FORGOTTEN_AFTER_MS)).run();
}

export async function unregisterDaemon(ctx: ServiceContext, id: string): Promise<void> {
  await ctx.db.delete(daemons).where(eq(daemons.id, id)).run();
}

/** The daemons seen in the last SEEN_WITHIN_MS, by station. */
export function listDaemons(ctx: ServiceContext): Promise<DaemonRow[]> {
  return ctx.db.select().from(daemons).where(gte(daemons.seenAt, ctx.clock.now() - SEEN_WITHIN_MS))
    .orderBy(asc(daemons.station), asc(daemons.startedAt)).all();
}

export function presentDaemon(row: DaemonRow) {
  return {
    id: row.id, station: row.station, host: row.host, pid: row.pid, version: row.version,
    started_at: isoTime(row.startedAt), seen_at: isoTime(row.seenAt),
  };
}

const SECRET_CHECK = 'secret_check';
const SECRET_CHECK_TEXT = 'packdesk';

export class SecretKeyMismatchError extends Error {}

/**
 * Channel credentials and webhook secrets are sealed with the data directory's `secret.key`; the daemons of a shared
 * store must have the same one. The store keeps a value sealed with the first daemon's key, and a daemon whose key
 * cannot open it refuses to start instead of failing on every credential later.
 */
export async function checkSecretKey(ctx: ServiceContext): Promise<void> {
  await ctx.db.insert(storeFacts).values({ name: SECRET_CHECK, value: ctx.secrets.seal(SECRET_CHECK_TEXT) }).onConflictDoNothing().run();
  const sealed = (await ctx.db.select().from(storeFacts).where(eq(storeFacts.name, SECRET_CHECK)).get())!.value;
  let opened: string | undefined;
  try {
    opened = ctx.secrets.open(sealed);
  } catch {
    // another key
  }
  if (opened !== SECRET_CHECK_TEXT) {
    throw new SecretKeyMismatchError(`the store's secrets were sealed with another key than ${ctx.dataDir}/secret.key: `
      + 'copy secret.key from the data directory of a station already working on this store');
  }
}
