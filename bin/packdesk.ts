#!/usr/bin/env node
import { Command, CommanderError } from 'commander';
import { registerAccountCommands } from '../src/cli/accounts.js';
import { registerChannelCommands } from '../src/cli/channels.js';
import { registerEmulateCommand } from '../src/cli/emulate.js';
import { registerInitCommand } from '../src/cli/init.js';
import { EXIT } from '../src/cli/exit-codes.js';
import { registerImportCommands } from '../src/cli/import.js';
import { registerPrintJobCommands } from '../src/cli/print-jobs.js';
import { registerPrinterCommands } from '../src/cli/printers.js';
import { registerProviderCommands } from '../src/cli/providers.js';
import { registerShipCommand } from '../src/cli/ship.js';
import { registerShipmentCommands } from '../src/cli/shipments.js';
import { registerTrackCommands } from '../src/cli/track.js';
import { registerStatusCommand } from '../src/cli/status.js';
import { registerWatchCommands } from '../src/cli/watch.js';
import { registerWebhookCommands } from '../src/cli/webhooks.js';
import { VERSION } from '../src/version.js';
import { registerDaemonCommand } from '../daemon/cli.js';
import { registerDemoCommand } from '../daemon/demo.js';

const program = new Command('packdesk')
  .description('packdesk — a shipping station for warehouses')
  .version(VERSION)
  .showHelpAfterError()
  .exitOverride();

registerInitCommand(program);
registerDaemonCommand(program);
registerAccountCommands(program);
registerStatusCommand(program);
registerChannelCommands(program);
registerProviderCommands(program);
registerWebhookCommands(program);
registerShipCommand(program);
registerShipmentCommands(program);
registerPrinterCommands(program);
registerPrintJobCommands(program);
registerTrackCommands(program);
registerWatchCommands(program);
registerImportCommands(program);
registerEmulateCommand(program);
registerDemoCommand(program);

try {
  await program.parseAsync(process.argv);
} catch (err) {
  if (err instanceof CommanderError) {
    const helpShown = err.code === 'commander.helpDisplayed' || err.code === 'commander.version' || err.code === 'commander.help';
    process.exitCode = helpShown ? EXIT.ok : EXIT.usage;
  } else {
    process.stderr.write(`packdesk: ${(err as Error).message}\n`);
    process.exitCode = EXIT.failure;
  }
}
