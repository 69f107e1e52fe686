import { Argument, type Command } from 'commander';
import { bashCompletionScript } from './completion-bash.js';
import { fishCompletionScript } from './completion-fish.js';
import { describeProgram, ID_KINDS, type CommandSpec, type IdKind } from './completion-model.js';
import { zshCompletionScript } from './completion-zsh.js';
import { clientConfig } from './config.js';
import { action, listPath } from './run.js';

/** How long completion waits for the daemon: a shell waiting on a TAB should not hang. */
const IDS_TIMEOUT_MS = 1_000;

/** The list endpoint of each kind of id, with its filters (of orders, the queue's awaiting ones) and the field naming an item. */
const LISTS: Record<IdKind, { path: string; filters?: Record<string, string>; idField?: 'station' }> = {
  channels: { path: '/v1/shipping-channels' },
  shipments: { path: '/v1/shipments' },
  printers: { path: '/v1/printers' },
  orders: { path: '/v1/orders', filters: { status: 'awaiting' } },
  stations: { path: '/v1/stations', idField: 'station' },
  dispatches: { path: '/v1/dispatches' },
  rules: { path: '/v1/shipping-rules' },
};

interface Listed {
  id?: unknown;
  name?: unknown;
  provider?: unknown;
  reference_number?: unknown;
  status?: unknown;
  station?: unknown;
  shipping_channel_id?: unknown;
  this_daemon?: unknown;
  recipient_contact?: { company_name?: unknown; first_name?: unknown; last_name?: unknown };
}

/**
 * What a shell shows beside an id: a channel's name and provider, a shipment's reference and status, a printer's or a rule's name,
 * an order's reference and recipient, whether a station is the daemon's own, a dispatch's status and channel.
 */
function describeItem(kind: IdKind, item: Listed): string {
  const text = (value: unknown) => (typeof value === 'string' ? value : '');
  const recipient = item.recipient_contact ?? {};
  const words = kind === 'channels' ? [text(item.name), item.provider ? `(${text(item.provider)})` : '']
    : kind === 'shipments' ? [text(item.reference_number), text(item.status)]
      : kind === 'orders' ? [text(item.reference_number), text(recipient.company_name), text(recipient.first_name), text(recipient.last_name)]
        : kind === 'stations' ? [item.this_daemon === true ? "this daemon's" : '']
          : kind === 'dispatches' ? [text(item.status), text(item.shipping_channel_id)]
            : [text(item.name)];
  // one line, no tabs: the shells split on both
  return words.filter(Boolean).join(' ').replace(/\s+/g, ' ').trim();
}

/**
 * The first 100 ids of a kind as its list gives them (the newest; the oldest awaiting orders, the queue's head) with
 * their descriptions; none when no daemon is configured, reachable or willing.
 */
export async function daemonIds(kind: IdKind): Promise<{ id: string; description: string }[]> {
  let config: { url: string; apiKey: string };
  try {
    config = clientConfig();
  } catch {
    return []; // no key configured: completion offers nothing rather than an error
  }
  try {
    const list = LISTS[kind];
    const res = await fetch(config.url + listPath(list.path, list.filters ?? {}, { perPage: '100' }), {
      headers: { authorization: `Bearer ${config.apiKey}` }, signal: AbortSignal.timeout(IDS_TIMEOUT_MS),
    });
    if (!res.ok) return [];
    const body = (await res.json()) as { data?: unknown };
    if (!Array.isArray(body.data)) return [];
    const idOf = (item: Listed) => item[list.idField ?? 'id'];
    return (body.data as Listed[]).filter((item) => typeof idOf(item) === 'string')
      .map((item) => ({ id: idOf(item) as string, description: describeItem(kind, item) }));
  } catch {
    return []; // unreachable or too slow: nothing to offer
  }
}

/** The program a command belongs to, whose commands the scripts cover. */
function rootOf(command: Command): Command {
  let root = command;
  while (root.parent) root = root.parent;
  return root;
}

const SHELLS: { shell: string; load: string; script: (root: CommandSpec) => string }[] = [
  { shell: 'bash', load: 'source <(packdesk completion bash)', script: bashCompletionScript },
  { shell: 'zsh', load: 'source <(packdesk completion zsh), after compinit', script: zshCompletionScript },
  { shell: 'fish', load: 'packdesk completion fish | source', script: fishCompletionScript },
];

/** `packdesk completion bash|zsh|fish`: completion scripts generated from the commands themselves, and the ids they ask for. */
export function registerCompletionCommand(program: Command): void {
  const completion = program.command('completion').description('print a shell completion script for bash, zsh or fish');

  for (const { shell, load, script } of SHELLS) {
    completion.command(shell)
      .description(`print the ${shell} completion script (load it with \`${load}\`)`)
      .action(action((_o: unknown, command: Command) => {
        process.stdout.write(script(describeProgram(rootOf(command))));
      }));
  }

  // what the scripts run on TAB for an id; not for people, so not in help or completion
  completion.command('ids', { hidden: true })
    .description('print the ids of the local daemon, one a line')
    .addArgument(new Argument('<kind>', 'what ids').choices(ID_KINDS))
    .option('--describe', 'add a tab and a description to each id')
    .action(action(async (kind: IdKind, o: { describe?: boolean }) => {
      const ids = await daemonIds(kind);
      process.stdout.write(ids.map(({ id, description }) => (o.describe && description ? `${id}\t${description}\n` : `${id}\n`)).join(''));
    }));
}
