import type { Command } from 'commander';
import {
  createAccount, createApiKey, listAccounts, listApiKeys, presentAccount, presentApiKey, revokeApiKey, setPlan,
} from '../services/accounts.js';
import { printJson, printRecord, printTable } from './output.js';
import { action, DATABASE_OPTION, parsePositiveInt, withStore, type StoreFlags } from './run.js';

/** `packdesk accounts …` and `packdesk keys …`: they work on the local store directly, not over HTTP. */
export function registerAccountCommands(program: Command): void {
  const accounts = program.command('accounts').description('manage accounts in the local store');

  accounts.command('create')
    .description('create an account')
    .requiredOption('--name <name>', 'account name')
    .option('--plan <plan>', 'free | standard | enterprise', 'free')
    .option('--rate-limit <n>', 'requests per minute (enterprise only; default unlimited)')
    .option('--data-dir <dir>', 'data directory')
    .option(...DATABASE_OPTION)
    .option('--json', 'print JSON')
    .action(action(async (o: { name: string; plan: string; rateLimit?: string; json?: boolean } & StoreFlags) => {
      const rateLimit = o.rateLimit === undefined ? undefined : parsePositiveInt(o.rateLimit, '--rate-limit');
      const row = await withStore(o, (ctx) => createAccount(ctx, { name: o.name, plan: o.plan, rateLimit }));
      const view = presentAccount(row);
      if (o.json) printJson({ account_id: row.id, ...view });
      else process.stdout.write(`created account ${row.id} (${row.name}, plan ${row.plan})\n`);
    }));

  accounts.command('list')
    .description('list accounts')
    .option('--data-dir <dir>', 'data directory')
    .option(...DATABASE_OPTION)
    .option('--json', 'print JSON')
    .action(action(async (o: { json?: boolean } & StoreFlags) => {
      const rows = await withStore(o, async (ctx) => (await listAccounts(ctx)).map(presentAccount));
      if (o.json) printJson(rows);
      else printTable(['id', 'name', 'plan', 'rate limit/min', 'created'], rows.map((a) => [a.id, a.name, a.plan, a.rate_limit?.requests_per_minute ?? 'unlimited', a.created_at]));
    }));

  accounts.command('set-plan')
    .description("change an account's plan")
    .argument('<account-id>')
    .argument('<plan>', 'free | standard | enterprise')
    .option('--rate-limit <n>', 'requests per minute (enterprise only)')
    .option('--data-dir <dir>', 'data directory')
    .option(...DATABASE_OPTION)
    .option('--json', 'print JSON')
    .action(action(async (id: string, plan: string, o: { rateLimit?: string; json?: boolean } & StoreFlags) => {
      const rateLimit = o.rateLimit === undefined ? undefined : parsePositiveInt(o.rateLimit, '--rate-limit');
      const view = presentAccount(await withStore(o, (ctx) => setPlan(ctx, id, plan, rateLimit)));
      if (o.json) printJson(view);
      else printRecord(view);
    }));

  const keys = program.command('keys').description('manage API keys in the local store');

  keys.command('create')
    .description('create an API key (shown once)')
    .requiredOption('--account <id>', 'account id')
    .option('--scope <scope>', 'full | read_only', 'full')
    .option('--name <name>', 'a label for the key')
    .option('--data-dir <dir>', 'data directory')
    .option(...DATABASE_OPTION)
    .option('--json', 'print JSON')
    .action(action(async (o: { account: string; scope: string; name?: string; json?: boolean } & StoreFlags) => {
      const { row, apiKey } = await withStore(o, (ctx) => createApiKey(ctx, { accountId: o.account, scope: o.scope, name: o.name }));
      if (o.json) printJson({ id: row.id, api_key: apiKey, scope: row.scope, account_id: row.accountId });
      else process.stdout.write(`created key ${row.id} (${row.scope}) for ${row.accountId}\n${apiKey}\nstore it now: it is not shown again\n`);
    }));

  keys.command('list')
    .description('list API keys (never the keys themselves)')
    .option('--account <id>', 'only this account')
    .option('--data-dir <dir>', 'data directory')
    .option(...DATABASE_OPTION)
    .option('--json', 'print JSON')
    .action(action(async (o: { account?: string; json?: boolean } & StoreFlags) => {
      const rows = await withStore(o, async (ctx) => (await listApiKeys(ctx, o.account)).map(presentApiKey));
      if (o.json) printJson(rows);
      else printTable(['id', 'account', 'scope', 'prefix', 'created', 'revoked'], rows.map((k) => [k.id, k.account_id, k.scope, `${k.prefix}…`, k.created_at, k.revoked_at]));
    }));

  keys.command('revoke')
    .description('revoke an API key')
    .argument('<key-id>')
    .option('--data-dir <dir>', 'data directory')
    .option(...DATABASE_OPTION)
    .option('--json', 'print JSON')
    .action(action(async (id: string, o: { json?: boolean } & StoreFlags) => {
      const view = presentApiKey(await withStore(o, (ctx) => revokeApiKey(ctx, id)));
      if (o.json) printJson(view);
      else process.stdout.write(`revoked ${view.id}\n`);
    }));
}
