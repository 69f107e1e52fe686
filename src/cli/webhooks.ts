import type { Command } from 'commander';
import type { DeliveryLog, WebhookSubscription as Subscription } from './api-types.js';
import { ApiClient, type Page } from './client.js';
import { CliError, EXIT } from './exit-codes.js';
import { collect, printJson, printPageFooter, printRecord, printTable } from './output.js';
import { revealSecret } from '../services/webhooks.js';
import { action, DATABASE_OPTION, listPath, withStore, type StoreFlags } from './run.js';

const subscriptionPath = (id: string) => `/v1/webhook-subscriptions/${encodeURIComponent(id)}`;

/** Events from repeated `--event` and comma-separated `--events`, in order, without duplicates; undefined when none given. */
function eventsFromFlags(event: string[] = [], events?: string): string[] | undefined {
  const all = [...event, ...(events ?? '').split(',')].map((e) => e.trim()).filter(Boolean);
  return all.length > 0 ? [...new Set(all)] : undefined;
}

function printSubscription(s: Subscription): void {
  printRecord({
    id: s.id, name: s.name, url: s.url, events: s.events.join(', '), status: s.status, secret: s.secret,
    created: s.created_at, updated: s.updated_at,
  });
}

function printDeliveryLog(log: DeliveryLog): void {
  printRecord({
    id: log.id, subscription: log.webhook_subscription_id, event: `${log.event_type} (${log.event_id})`, attempt: log.attempt,
    status: log.status, url: log.url, 'response status': log.response_status, 'duration ms': log.duration_ms,
    error: log.error_message, 'next retry': log.next_retry_at, created: log.created_at,
  });
  process.stdout.write('\nrequest headers\n');
  for (const [name, value] of Object.entries(log.request_headers)) process.stdout.write(`  ${name}: ${value}\n`);
  process.stdout.write(`\nrequest body\n${log.request_body}\n`);
  if (log.response_body) process.stdout.write(`\nresponse body\n${log.response_body}\n`);
}

interface AddOptions {
  name?: string;
  url?: string;
  event?: string[];
  events?: string;
  secret?: string;
  paused?: boolean;
  json?: boolean;
}

interface UpdateOptions extends AddOptions {
  active?: boolean;
}

/** `packdesk webhooks …`: webhook subscriptions and their delivery logs over the daemon's API. */
export function registerWebhookCommands(program: Command): void {
  const webhooks = program.command('webhooks').description('webhook subscriptions and their delivery logs');

  webhooks.command('add')
    .description('subscribe a URL to events')
    .option('--name <name>', 'subscription name')
    .option('--url <url>', 'where to POST events (https; plain http, or this machine, only where the daemon allows it)')
    .option('--event <name>', 'an event name or *; repeat for each', collect)
    .option('--events <list>', 'comma-separated event names')
    .option('--secret <secret>', 'signing secret (>= 16 chars); generated when absent')
    .option('--paused', 'create it paused')
    .option('--json', 'print JSON')
    .action(action(async (o: AddOptions) => {
      const { body } = await ApiClient.fromConfig().post<{ data: Subscription }>('/v1/webhook-subscriptions', {
        name: o.name, url: o.url, events: eventsFromFlags(o.event, o.events),
        ...(o.secret !== undefined ? { secret: o.secret } : {}),
        ...(o.paused ? { status: 'paused' } : {}),
      });
      if (o.json) printJson(body.data);
      else printSubscription(body.data);
    }));

  webhooks.command('list')
    .description('list webhook subscriptions, newest first')
    .option('--page <n>', 'page number')
    .option('--per-page <n>', 'subscriptions per page (1-100)')
    .option('--json', 'print the whole API answer ({data, meta, links})')
    .action(action(async (o: { page?: string; perPage?: string; json?: boolean }) => {
      const { body } = await ApiClient.fromConfig().get<Page<Subscription>>(listPath('/v1/webhook-subscriptions', {}, o));
      if (o.json) {
        printJson(body);
        return;
      }
      printTable(['id', 'name', 'url', 'events', 'status', 'created'], body.data.map((s) => [s.id, s.name, s.url, s.events.join(', '), s.status, s.created_at]));
      printPageFooter(body.meta);
    }));

  webhooks.command('show')
    .description('show one webhook subscription (the secret stays masked)')
    .argument('<id>', 'subscription id (wh_…)')
    .option('--json', 'print JSON')
    .action(action(async (id: string, o: { json?: boolean }) => {
      const { body } = await ApiClient.fromConfig().get<{ data: Subscription }>(subscriptionPath(id));
      if (o.json) printJson(body.data);
      else printSubscription(body.data);
    }));

  webhooks.command('update')
    .description('change a webhook subscription; --event/--events replace the whole list')
    .argument('<id>', 'subscription id (wh_…)')
    .option('--name <name>', 'new name')
    .option('--url <url>', 'new URL')
    .option('--event <name>', 'an event name or *; repeat for each', collect)
    .option('--events <list>', 'comma-separated event names')
    .option('--secret <secret>', 'new signing secret (>= 16 chars)')
    .option('--paused', 'pause deliveries')
    .option('--active', 'resume deliveries')
    .option('--json', 'print JSON')
    .action(action(async (id: string, o: UpdateOptions) => {
      if (o.paused && o.active) throw new CliError('--paused and --active exclude each other', EXIT.usage);
      const events = eventsFromFlags(o.event, o.events);
      const status = o.paused ? 'paused' : o.active ? 'active' : undefined;
      const patch = {
        ...(o.name !== undefined ? { name: o.name } : {}),
        ...(o.url !== undefined ? { url: o.url } : {}),
        ...(events ? { events } : {}),
        ...(o.secret !== undefined ? { secret: o.secret } : {}),
        ...(status ? { status } : {}),
      };
      if (Object.keys(patch).length === 0) {
        throw new CliError('nothing to update: give --name, --url, --event(s), --secret, --paused or --active', EXIT.usage);
      }
      const { body } = await ApiClient.fromConfig().patch<{ data: Subscription }>(subscriptionPath(id), patch);
      if (o.json) printJson(body.data);
      else printSubscription(body.data);
    }));

  webhooks.command('remove')
    .description('delete a webhook subscription (pending deliveries are dropped)')
    .argument('<id>', 'subscription id (wh_…)')
    .option('--json', 'print JSON')
    .action(action(async (id: string, o: { json?: boolean }) => {
      await ApiClient.fromConfig().delete(subscriptionPath(id));
      if (o.json) printJson({ id, deleted: true });
      else process.stdout.write(`removed ${id}\n`);
    }));

  webhooks.command('logs')
    .description('delivery logs of a subscription, newest first; with LOG_ID one entry in full')
    .argument('<id>', 'subscription id (wh_…)')
    .argument('[log-id]', 'delivery log id (whl_…)')
    .option('--status <status>', 'only pending, success or failed')
    .option('--event-type <type>', 'only this event type')
    .option('--page <n>', 'page number')
    .option('--per-page <n>', 'entries per page (1-100)')
    .option('--json', 'print JSON (a list prints the whole {data, meta, links})')
    .action(action(async (id: string, logId: string | undefined, o: { status?: string; eventType?: string; page?: string; perPage?: string; json?: boolean }) => {
      const client = ApiClient.fromConfig();
      if (logId !== undefined) {
        const { body } = await client.get<{ data: DeliveryLog }>(`${subscriptionPath(id)}/logs/${encodeURIComponent(logId)}`);
        if (o.json) printJson(body.data);
        else printDeliveryLog(body.data);
        return;
      }
      const { body } = await client.get<Page<DeliveryLog>>(listPath(`${subscriptionPath(id)}/logs`, { status: o.status, event_type: o.eventType }, o));
      if (o.json) {
        printJson(body);
        return;
      }
      printTable(
        ['id', 'event', 'attempt', 'status', 'response', 'ms', 'created'],
        body.data.map((l) => [l.id, l.event_type, l.attempt, l.status, l.response_status ?? l.error_message, l.duration_ms, l.created_at]),
      );
      printPageFooter(body.meta);
    }));

  webhooks.command('test')
    .description('send a webhook.test event to the subscription now and show the logged attempt')
    .argument('<id>', 'subscription id (wh_…)')
    .option('--json', 'print the delivery log entry as JSON')
    .action(action(async (id: string, o: { json?: boolean }) => {
      const { body } = await ApiClient.fromConfig().post<{ data: DeliveryLog }>(`${subscriptionPath(id)}/test`);
      printAttempt(body.data, o.json);
    }));

  webhooks.command('redeliver')
    .description('send a logged event again now (a new log entry)')
    .argument('<id>', 'subscription id (wh_…)')
    .argument('<log-id>', 'delivery log id (whl_…)')
    .option('--json', 'print the new delivery log entry as JSON')
    .action(action(async (id: string, logId: string, o: { json?: boolean }) => {
      const { body } = await ApiClient.fromConfig().post<{ data: DeliveryLog }>(`${subscriptionPath(id)}/logs/${encodeURIComponent(logId)}/redeliver`);
      printAttempt(body.data, o.json);
    }));

  webhooks.command('clear-logs')
    .description('delete every delivery log entry of a subscription')
    .argument('<id>', 'subscription id (wh_…)')
    .option('--json', 'print JSON')
    .action(action(async (id: string, o: { json?: boolean }) => {
      const { body } = await ApiClient.fromConfig().delete<{ message: string }>(`${subscriptionPath(id)}/logs`);
      if (o.json) printJson(body);
      else process.stdout.write(`${body.message}\n`);
    }));

  webhooks.command('secret')
    .description("print a subscription's signing secret (reads the local store; the API never returns it)")
    .argument('<id>', 'subscription id (wh_…)')
    .option('--data-dir <dir>', 'data directory')
    .option(...DATABASE_OPTION)
    .option('--json', 'print JSON')
    .action(action(async (id: string, o: { json?: boolean } & StoreFlags) => {
      const secret = await withStore(o, (ctx) => revealSecret(ctx, id));
      if (o.json) printJson({ id, secret });
      else process.stdout.write(`${secret}\n`);
    }));
}

/** A one-off attempt (test, redeliver): the outcome in one line, the exit code 1 when the receiver did not take it. */
function printAttempt(log: DeliveryLog, json?: boolean): void {
  if (json) printJson(log);
  else {
    const outcome = log.status === 'success' ? `delivered (HTTP ${log.response_status}, ${log.duration_ms} ms)` : `failed: ${log.error_message ?? `HTTP ${log.response_status}`}`;
    process.stdout.write(`${log.event_type} ${log.event_id} to ${log.url}: ${outcome}\nlog ${log.id}\n`);
  }
  if (log.status !== 'success') process.exitCode = EXIT.failure;
}
