import type { Command } from 'commander';
import { createAccount, createApiKey, listAccounts } from '../services/accounts.js';
import { configPath, DEFAULT_HOST, DEFAULT_PORT, resolveDataDir } from '../paths.js';
import { readConfigFile, writeConfigFile } from './config.js';
import { CliError, EXIT } from './exit-codes.js';
import { isInteractive, printJson } from './output.js';
import { action, DATABASE_OPTION, withStore, type StoreFlags } from './run.js';

interface InitOptions extends StoreFlags {
  account?: string;
  plan: string;
  url?: string;
  yes?: boolean;
  json?: boolean;
}

/** `packdesk init`: data directory, first account and key, CLI config. Prompts only on a TTY without --yes/--json. */
export function registerInitCommand(program: Command): void {
  program.command('init')
    .description('create the data directory, the first account and API key, and the CLI config')
    .option('--data-dir <dir>', 'data directory')
    .option(...DATABASE_OPTION)
    .option('--account <name>', 'name of the first account')
    .option('--plan <plan>', 'plan of the first account', 'enterprise')
    .option('--url <url>', 'URL where the daemon will listen', `http://${DEFAULT_HOST}:${DEFAULT_PORT}`)
    .option('--yes', 'accept defaults, never prompt')
    .option('--json', 'print JSON')
    .action(action(async (o: InitOptions) => {
      let accountName = o.account ?? 'Warehouse';
      let dataDirFlag = o.dataDir;
      if (!o.yes && isInteractive(o.json)) {
        const { input } = await import('@inquirer/prompts');
        dataDirFlag = await input({ message: 'Data directory', default: resolveDataDir(o.dataDir) });
        accountName = await input({ message: 'Account name', default: accountName });
      }
      const result = await withStore({ dataDir: dataDirFlag, database: o.database }, async (ctx, dataDir) => {
        const existing = await listAccounts(ctx);
        const config = readConfigFile();
        if (existing.length > 0 && config.data_dir === dataDir && config.api_key && config.account_id) {
          return { account_id: config.account_id, api_key: config.api_key, data_dir: dataDir, already: true };
        }
        if (existing.length > 0) {
          throw new CliError(
            `${dataDir} is already initialised (${existing.length} account(s)); use \`packdesk accounts create\` and \`packdesk keys create\``,
            EXIT.failure,
          );
        }
        const account = await createAccount(ctx, { name: accountName, plan: o.plan });
        const { apiKey } = await createApiKey(ctx, { accountId: account.id, name: 'created by init' });
        return { account_id: account.id, api_key: apiKey, data_dir: dataDir, already: false };
      });
      const { already, ...created } = result;
      if (already) {
        // Re-running init on a set-up station changes nothing: the config already points at this data directory.
        if (o.json) printJson({ ...created, config_path: configPath(), url: readConfigFile().url });
        else process.stdout.write(`packdesk is already set up in ${created.data_dir} (config ${configPath()}); nothing changed.\n`);
        return;
      }
      const url = (o.url ?? `http://${DEFAULT_HOST}:${DEFAULT_PORT}`).replace(/\/+$/, '');
      const written = writeConfigFile({ url, api_key: created.api_key, data_dir: created.data_dir, account_id: created.account_id });
      if (o.json) {
        printJson({ ...created, config_path: written, url });
        return;
      }
      process.stdout.write(
        `packdesk is set up.\n  account   ${created.account_id} (${accountName})\n  api key   ${created.api_key}   (shown once; also saved in the config)\n` +
        `  data dir  ${created.data_dir}\n  config    ${written}\n\nNext: packdesk daemon --data-dir ${created.data_dir}\n`,
      );
    }));
}
