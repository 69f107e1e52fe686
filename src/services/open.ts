import { EventEmitter } from 'node:events';
import { DEFAULT_CARRIER_TIMEOUT_MS } from '../carriers/http.js';
import type { Logger } from 'pino';
import { systemClock, type Clock } from '../domain/clock.js';
import { randomIds, type IdSource } from '../domain/ids.js';
import { defaultFilesRoots } from '../files/roots.js';
import { openDb } from '../store/db.js';
import { SecretBox } from '../store/secrets.js';
import { DEFAULT_RETENTION_DAYS } from './retention.js';
import type { ServiceContext, ServiceOptions } from './context.js';

export interface OpenOptions {
  dataDir: string;
  log: Logger;
  clock?: Clock;
  ids?: IdSource;
  options?: Partial<ServiceOptions>;
}

/** Opens the store of a data directory (migrating it) and the secret box beside it. */
export function openContext(o: OpenOptions): ServiceContext {
  return {
    db: openDb(o.dataDir),
    dataDir: o.dataDir,
    secrets: SecretBox.forDataDir(o.dataDir),
    clock: o.clock ?? systemClock,
    ids: o.ids ?? randomIds,
    log: o.log,
    options: {
      allowHttpWebhooks: false, carrierTimeoutMs: DEFAULT_CARRIER_TIMEOUT_MS, filesRoots: defaultFilesRoots(), retentionDays: DEFAULT_RETENTION_DAYS,
      ...o.options,
    },
    notices: new EventEmitter().setMaxListeners(0),
  };
}

export function closeContext(ctx: ServiceContext): void {
  if (ctx.db.$client.open) ctx.db.$client.close();
}
