import type { EventEmitter } from 'node:events';
import type { Logger } from 'pino';
import type { Clock } from '../domain/clock.js';
import type { IdSource } from '../domain/ids.js';
import type { ImportLimits } from '../imports/limits.js';
import type { SecretBox } from '../store/secrets.js';
import type { Db, Store } from '../store/store.js';

/** Everything a use case may touch: the store, the secret box, time, ids and the log. */
export interface ServiceContext {
  /** The store: transactions and plain statements. */
  store: Store;
  /** The store's query builder (`store.db`). */
  db: Db;
  /** Where the store lives (uploads are kept there too). */
  dataDir: string;
  /** The station this daemon serves: the printers it prints to and the folders it watches are the station's. */
  station: string;
  /** This daemon's id (`daemons.id`), which its claims carry (`lease_owner`). */
  daemonId: string;
  /** The daemon that ran on this data directory before, gone since; see src/services/leases.ts. */
  previousDaemonId?: string;
  secrets: SecretBox;
  clock: Clock;
  ids: IdSource;
  log: Logger;
  options: ServiceOptions;
  /** In-process notices of changes (e.g. a shipment finished its carrier step), for waiting requests. */
  notices: EventEmitter;
}

export interface ServiceOptions {
  /** Allow plain-http webhook URLs to non-loopback hosts (`--allow-http-webhooks`). */
  allowHttpWebhooks: boolean;
  /** Allow webhook URLs that reach this machine's loopback (`--allow-loopback-webhooks`); see src/services/webhook-targets.ts. */
  allowLoopbackWebhooks: boolean;
  /** Time limit of each carrier call. */
  carrierTimeoutMs: number;
  /** Directories watched folders and `file:` printers may lie in (`--files-root`); see src/files/places.ts. */
  filesRoots: string[];
  /** Days the store keeps finished records (delivered events, webhook logs, failed jobs, import uploads); see retention.ts. */
  retentionDays: number;
  /** How much of an order file is read before it is refused (`--import-limit`); see src/imports/limits.ts. */
  importLimits: ImportLimits;
}
