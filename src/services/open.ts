import { EventEmitter } from 'node:events';
import { DEFAULT_CARRIER_TIMEOUT_MS } from '../carriers/http.js';
import type { Logger } from 'pino';
import { systemClock, type Clock } from '../domain/clock.js';
import { randomIds, type IdSource } from '../domain/ids.js';
import { defaultFilesRoots } from '../files/roots.js';
import { DEFAULT_IMPORT_LIMITS } from '../imports/limits.js';
import { openDb } from '../store/db.js';
import { SecretBox } from '../store/secrets.js';
import type { Store } from '../store/store.js';
import { DEFAULT_RETENTION_DAYS } from './retention.js';
import { defaultStation } from './daemons.js';
import type { ServiceContext, ServiceOptions } from './context.js';

export interface OpenOptions {
  dataDir: string;
  /** A store opened already (PostgreSQL); by default the SQLite store in `dataDir`. */
  store?: Store;
  /** The station served; by default $PACKDESK_STATION, else the host name. */
  station?: string;
  /** This daemon's id, and the one that ran on the data directory before it (see ServiceContext). */
  daemonId?: string;
  previousDaemonId?: string;
  log: Logger;
  clock?: Clock;
  ids?: IdSource;
  options?: Partial<ServiceOptions>;
}

/** Opens the store of a data directory (migrating it), unless one is given, and the secret box of the data directory. */
export function openContext(o: OpenOptions): ServiceContext {
  const store = o.store ?? openDb(o.dataDir);
  return {
    store,
    db: store.db,
    dataDir: o.dataDir,
    station: o.station ?? defaultStation(),
    daemonId: o.daemonId ?? (o.ids ?? randomIds)('daemon'),
    previousDaemonId: o.previousDaemonId,
    secrets: SecretBox.forDataDir(o.dataDir),
    clock: o.clock ?? systemClock,
    ids: o.ids ?? randomIds,
    log: o.log,
    options: {
      allowHttpWebhooks: false, allowLoopbackWebhooks: false, carrierTimeoutMs: DEFAULT_CARRIER_TIMEOUT_MS, filesRoots: defaultFilesRoots(), retentionDays: DEFAULT_RETENTION_DAYS,
      importLimits: DEFAULT_IMPORT_LIMITS, ...o.options,
    },
    notices: new EventEmitter().setMaxListeners(0),
  };
}

export async function closeContext(ctx: ServiceContext): Promise<void> {
  await ctx.store.close();
}
