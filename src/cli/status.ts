import type { Command } from 'commander';
import type { Account, DaemonSeen, Health } from './api-types.js';
import { ApiClient } from './client.js';
import { clientConfig } from './config.js';
import { CliError, EXIT } from './exit-codes.js';
import { printJson, printRecord, printTable } from './output.js';
import { action } from './run.js';

/** `GET /healthz` without the API key; a degraded daemon answers 503 with the same body, which is still worth showing. */
async function fetchHealth(url: string): Promise<Health> {
  let res: Response;
  try {
    res = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(10_000) });
  } catch (err) {
    const cause = (err as { cause?: { code?: string } }).cause?.code ?? (err as Error).message;
    throw new CliError(`cannot reach the packdesk daemon at ${url} (${cause}); is \`packdesk daemon\` running?`, EXIT.unreachable);
  }
  const body = (await res.json().catch(() => undefined)) as Health | undefined;
  if (!body || typeof body.status !== 'string') {
    throw new CliError(`${url}/healthz answered HTTP ${res.status} without a health report; is this a packdesk daemon?`, EXIT.unreachable);
  }
  return body;
}

function describeWorkers(workers: Record<string, string>): string {
  const entries = Object.entries(workers);
  return entries.length === 0 ? 'none running' : entries.map(([name, state]) => `${name} ${state}`).join(', ');
}

/**
 * `packdesk status`: where the daemon is, whether it is healthy, which account the configured key acts for, and the
 * daemons working on its store (seen in the last minute: on a shared store, every station's).
 */
export function registerStatusCommand(program: Command): void {
  program.command('status')
    .description("the daemon's address, version and health, the account of the configured API key, and the daemons on its store")
    .option('--json', 'print JSON')
    .action(action(async (o: { json?: boolean }) => {
      const { url } = clientConfig();
      const health = await fetchHealth(url);
      if (health.status !== 'ok') {
        if (o.json) printJson({ url, ...health, account: null });
        throw new CliError(`the daemon at ${url} is ${health.status}: store ${health.store}; workers ${describeWorkers(health.workers)}`, EXIT.failure);
      }
      const client = ApiClient.fromConfig();
      const [{ body }, { body: seen }] = await Promise.all([
        client.get<{ data: Account }>('/v1/account'), client.get<{ data: DaemonSeen[] }>('/v1/daemons'),
      ]);
      const account = body.data;
      if (o.json) {
        printJson({ url, ...health, account, daemons: seen.data });
        return;
      }
      printRecord({
        daemon: url, version: health.version, health: health.status, store: health.store, workers: describeWorkers(health.workers),
        account: `${account.id} (${account.name}, plan ${account.plan}, ${account.rate_limit ? `${account.rate_limit.requests_per_minute} requests/min` : 'no rate limit'})`,
      });
      process.stdout.write('\n');
      printTable(['station', 'host', 'pid', 'version', 'started', 'last seen'], seen.data.map((d) => [d.station, d.host, d.pid, d.version, d.started_at, d.seen_at]));
    }));
}
