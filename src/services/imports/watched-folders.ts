import { isAbsolute, resolve } from 'node:path';
import { and, count, desc, eq, isNull, ne, or, type SQL } from 'drizzle-orm';
import { isoTime } from '../../domain/clock.js';
import { FieldErrorCollector } from '../../domain/errors.js';
import { isWithin } from '../../files/places.js';
import { offsetOf, type PageRequest } from '../../domain/pagination.js';
import { checkMapping, type MappingSetting } from '../../imports/mapping.js';
import { watchedFolders } from '../../store/schema.js';
import type { ServiceContext } from '../context.js';
import { movesHere } from '../daemons.js';
import { checkDirectoryPlace, createDirectories, prepareDirectory } from '../file-places.js';
import { bindIdempotentResource } from '../idempotency.js';
import { announce } from '../notices.js';
import { owned } from '../ownership.js';
import { folderLayout, SUBFOLDERS } from './folder-files.js';
import { checkChannel, checkPrinter } from './settings-checks.js';
import type { ImportTarget } from '../../imports/orders.js';

export type WatchedFolderRow = typeof watchedFolders.$inferSelect;
export type WatchedFolderStatus = WatchedFolderRow['status'];
export const WATCHED_FOLDER_STATUSES: readonly WatchedFolderStatus[] = ['active', 'paused'];
type LabelFormat = WatchedFolderRow['labelFormat'];

/** Notice sent after a watched folder was added, changed or removed (the folder watcher follows it). */
export const WATCHED_FOLDERS_CHANGED = 'watched-folders:changed';

export function presentWatchedFolder(row: WatchedFolderRow) {
  return {
    id: row.id,
    station: row.station,
    path: row.path,
    shipping_channel_id: row.channelId,
    label_format: row.labelFormat,
    printer_id: row.printerId,
    mapping: (row.mapping as MappingSetting | null) ?? null,
    target: row.target,
    status: row.status,
    folders: folderLayout(row.path),
    created_at: isoTime(row.createdAt),
    updated_at: isoTime(row.updatedAt),
  };
}

export type WatchedFolderView = ReturnType<typeof presentWatchedFolder>;

export function loadWatchedFolderRow(ctx: ServiceContext, id: string): Promise<WatchedFolderRow | undefined> {
  return ctx.db.select().from(watchedFolders).where(eq(watchedFolders.id, id)).get();
}

export async function getWatchedFolderRow(ctx: ServiceContext, accountId: string, id: string): Promise<WatchedFolderRow> {
  return owned(await loadWatchedFolderRow(ctx, id), accountId, 'Watched folder', id);
}

/** The active folders this daemon's station watches. */
export function activeWatchedFolders(ctx: ServiceContext): Promise<WatchedFolderRow[]> {
  return ctx.db.select().from(watchedFolders)
    .where(and(eq(watchedFolders.status, 'active'), or(isNull(watchedFolders.station), eq(watchedFolders.station, ctx.station)))).all();
}

export async function listWatchedFolders(ctx: ServiceContext, accountId: string, filters: { status?: string }, page: PageRequest) {
  const where: SQL[] = [eq(watchedFolders.accountId, accountId)];
  if (filters.status) where.push(eq(watchedFolders.status, filters.status as WatchedFolderStatus));
  const condition = and(...where);
  const total = (await ctx.db.select({ n: count() }).from(watchedFolders).where(condition).get())!.n;
  const rows = await ctx.db.select().from(watchedFolders).where(condition)
    .orderBy(desc(watchedFolders.createdAt), desc(watchedFolders.id)).limit(page.perPage).offset(offsetOf(page)).all();
  return { items: rows.map(presentWatchedFolder), total };
}

export interface WatchedFolderInput {
  path?: string;
  /** null or left out: the shipping rules choose each order's channel. */
  shipping_channel_id?: string | null;
  label_format?: string;
  printer_id?: string | null;
  mapping?: unknown;
  target?: ImportTarget;
  status?: string;
  /** Moves the folder to this daemon's station (only that one). */
  station?: string;
}

/**
 * An absolute path that none of the account's other watched folders holds, contains or lies in, and that the files
 * policy lets the account use (other accounts' folders and printer directories are named by no id or path). Answers
 * where to create the layout: the path with its symbolic links resolved.
 */
async function checkPath(ctx: ServiceContext, accountId: string, value: unknown, errors: FieldErrorCollector, exceptId?: string): Promise<string | undefined> {
  if (errors.errors.path) return undefined; // the schema said what is wrong
  if (typeof value !== 'string') {
    errors.add('path', value === undefined ? 'is required' : 'must be a string');
    return undefined;
  }
  if (!isAbsolute(value)) {
    errors.add('path', 'must be an absolute path (the daemon resolves nothing against its own working directory)');
    return undefined;
  }
  const path = resolve(value);
  const own = and(eq(watchedFolders.accountId, accountId), exceptId ? ne(watchedFolders.id, exceptId) : undefined);
  for (const other of await ctx.db.select({ id: watchedFolders.id, path: watchedFolders.path }).from(watchedFolders).where(own).all()) {
    if (other.path === path) errors.add('path', `is already watched (${other.id})`);
    else if (isWithin(path, other.path)) errors.add('path', `lies inside watched folder ${other.id} (${other.path})`);
    else if (isWithin(other.path, path)) errors.add('path', `contains watched folder ${other.id} (${other.path})`);
  }
  if (errors.errors.path) return undefined;
  const place = await checkDirectoryPlace(ctx, accountId, path);
  for (const problem of place.problems) errors.add('path', problem);
  return place.realPath;
}

/** Creates the folder's sub-folders; a path the daemon cannot use is a field error, not a server error. */
async function makeLayout(realPath: string, errors: FieldErrorCollector): Promise<void> {
  for (const problem of await createDirectories(Object.values(folderLayout(realPath)))) errors.add('path', problem);
  errors.throwIfAny();
}

/** What the folder watcher asks before taking files from a folder: the files policy, again, and its sub-folders. */
export function prepareWatchedFolder(ctx: ServiceContext, folder: WatchedFolderRow): Promise<string[]> {
  return prepareDirectory(ctx, folder.accountId, folder.path, SUBFOLDERS);
}

export async function createWatchedFolder(ctx: ServiceContext, accountId: string, input: WatchedFolderInput, errors = new FieldErrorCollector()): Promise<WatchedFolderView> {
  const realPath = await checkPath(ctx, accountId, input.path, errors);
  if (input.shipping_channel_id != null) await checkChannel(ctx, accountId, input.shipping_channel_id, errors);
  await checkPrinter(ctx, accountId, input.printer_id, input.label_format, errors);
  const mapping = checkMapping(input.mapping, errors);
  errors.throwIfAny();
  await makeLayout(realPath!, errors);
  const now = ctx.clock.now();
  const row: WatchedFolderRow = {
    id: ctx.ids('watchedFolder'), accountId, station: ctx.station, path: resolve(input.path!), channelId: input.shipping_channel_id ?? null, labelFormat: input.label_format as LabelFormat,
    printerId: input.printer_id ?? null, mapping, target: input.target ?? 'shipments', status: (input.status as WatchedFolderStatus | undefined) ?? 'active', createdAt: now, updatedAt: now,
  };
  await ctx.store.transaction(async () => {
    await ctx.db.insert(watchedFolders).values(row).run();
    await bindIdempotentResource(ctx, `/v1/watched-folders/${row.id}`);
  });
  announce(ctx, WATCHED_FOLDERS_CHANGED);
  return presentWatchedFolder(row);
}

/** Changes what is given; what a change affects is checked again (a new label format against the printer). */
export async function updateWatchedFolder(ctx: ServiceContext, accountId: string, id: string, patch: WatchedFolderInput, errors = new FieldErrorCollector()): Promise<WatchedFolderView> {
  const row = await getWatchedFolderRow(ctx, accountId, id);
  const channelId = patch.shipping_channel_id === undefined ? row.channelId : patch.shipping_channel_id;
  const labelFormat = patch.label_format ?? row.labelFormat;
  const printerId = patch.printer_id === undefined ? row.printerId : patch.printer_id;
  const moving = movesHere(ctx, row, patch.station, errors);
  const path = patch.path ?? row.path;
  // a folder moved to this station is a directory of this machine: its place is checked (and laid out) here
  const placed = moving || (patch.path !== undefined && !(typeof patch.path === 'string' && isAbsolute(patch.path) && resolve(patch.path) === row.path));
  const realPath = placed ? await checkPath(ctx, accountId, path, errors, id) : undefined;
  if (patch.shipping_channel_id != null) await checkChannel(ctx, accountId, channelId, errors);
  if (patch.printer_id !== undefined || patch.label_format !== undefined) await checkPrinter(ctx, accountId, printerId, labelFormat, errors);
  const mapping = patch.mapping === undefined ? (row.mapping as MappingSetting | null) : checkMapping(patch.mapping, errors);
  errors.throwIfAny();
  if (realPath) await makeLayout(realPath, errors);
  await ctx.db.update(watchedFolders).set({
    path: realPath ? resolve(path) : row.path, channelId, labelFormat: labelFormat as LabelFormat, printerId, mapping, target: patch.target ?? row.target,
    status: (patch.status as WatchedFolderStatus | undefined) ?? row.status, station: moving ? ctx.station : row.station, updatedAt: ctx.clock.now(),
  }).where(eq(watchedFolders.id, id)).run();
  announce(ctx, WATCHED_FOLDERS_CHANGED);
  return presentWatchedFolder((await loadWatchedFolderRow(ctx, id))!);
}

/** Stops watching; the folder and its files stay on disk, the imports stay listed. */
export async function deleteWatchedFolder(ctx: ServiceContext, accountId: string, id: string): Promise<void> {
  await getWatchedFolderRow(ctx, accountId, id);
  await ctx.db.delete(watchedFolders).where(eq(watchedFolders.id, id)).run();
  announce(ctx, WATCHED_FOLDERS_CHANGED);
}
