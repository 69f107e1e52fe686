import { Command, CommanderError } from 'commander';
import { registerAccountCommands } from '../src/cli/accounts.js';
import { registerChannelCommands } from '../src/cli/channels.js';
import { registerCompletionCommand } from '../src/cli/completion.js';
import { registerDeskCommand } from '../src/cli/desk.js';
import { registerDispatchCommands } from '../src/cli/dispatches.js';
import { registerEmulateCommand } from '../src/cli/emulate.js';
import { registerInitCommand } from '../src/cli/init.js';
import { EXIT } from '../src/cli/exit-codes.js';
import { registerImportCommands } from '../src/cli/import.js';
import { registerOrderCommands } from '../src/cli/orders.js';
import { argvAsksForJson, printError } from '../src/cli/output.js';
import { registerPointCommands } from '../src/cli/points.js';
import { registerPrintJobCommands } from '../src/cli/print-jobs.js';
import { registerPrinterCommands } from '../src/cli/printers.js';
import { registerProviderCommands } from '../src/cli/providers.js';
import { toCliError } from '../src/cli/run.js';
import { registerRatesCommand } from '../src/cli/rates.js';
import { registerRuleCommands } from '../src/cli/rules.js';
import { registerShipCommand } from '../src/cli/ship.js';
import { registerServiceCommands } from '../src/cli/service.js';
import { registerShipmentCommands } from '../src/cli/shipments.js';
import { registerTrackCommands } from '../src/cli/track.js';
import { registerStationCommands } from '../src/cli/stations.js';
import { registerStatusCommand } from '../src/cli/status.js';
import { isHelpShown, usageError } from '../src/cli/usage-errors.js';
import { registerWatchCommands } from '../src/cli/watch.js';
import { registerWebhookCommands } from '../src/cli/webhooks.js';
import { VERSION } from '../src/version.js';
import { registerDaemonCommand } from '../daemon/cli.js';
import { registerDemoCommand } from '../daemon/demo.js';

/** The `packdesk` command line: every command, and commander's errors thrown to `runPackdesk` instead of printed. */
export function buildProgram(): Command {
  // Set before the commands are added, which inherit it: commander's own errors (unknown command or option, missing
  // argument) are thrown, not printed, and runPackdesk prints them like every other error: one line and a hint, JSON with --json.
  const program = new Command('packdesk')
    .description('packdesk — a shipping station for warehouses')
    .version(VERSION)
    .showHelpAfterError(false)
    .showSuggestionAfterError(true)
    .configureOutput({ outputError: () => {} })
    .exitOverride();

  registerInitCommand(program);
  registerDaemonCommand(program);
  registerAccountCommands(program);
  registerStatusCommand(program);
  registerDeskCommand(program);
  registerStationCommands(program);
  registerChannelCommands(program);
  registerProviderCommands(program);
  registerWebhookCommands(program);
  registerShipCommand(program);
  registerRatesCommand(program);
  registerRuleCommands(program);
  registerShipmentCommands(program);
  registerPointCommands(program);
  registerOrderCommands(program);
  registerPrinterCommands(program);
  registerPrintJobCommands(program);
  registerTrackCommands(program);
  registerDispatchCommands(program);
  registerWatchCommands(program);
  registerImportCommands(program);
  registerEmulateCommand(program);
  registerDemoCommand(program);
  registerServiceCommands(program);
  registerCompletionCommand(program);
  return program;
}

/** Runs one command line (`argv` as `process.argv` holds it) and resolves with its exit code. */
export async function runPackdesk(argv: string[]): Promise<number> {
  const program = buildProgram();
  const args = argv.slice(2);
  try {
    await program.parseAsync(argv);
    return Number(process.exitCode ?? EXIT.ok);
  } catch (err) {
    if (err instanceof CommanderError && isHelpShown(err)) return EXIT.ok;
    const cliError = err instanceof CommanderError ? usageError(err, program, args) : toCliError(err);
    printError(cliError, argvAsksForJson(args));
    return cliError.exitCode;
  }
}
