import type { Command } from 'commander';
import { CliError, EXIT } from './exit-codes.js';
import { action, parsePositiveInt } from './run.js';

interface EmulateFlags {
  providers?: string;
  host: string;
  port: string;
  json?: boolean;
}

const DEFAULT_EMULATOR_PORT = 7500;

/** `packdesk emulate`: the carrier emulators on one port, in the foreground until SIGTERM/SIGINT. */
export function registerEmulateCommand(program: Command): void {
  program.command('emulate')
    .description('run local emulators of the carriers\' APIs (for tests and demos), each under http://HOST:PORT/<provider>')
    .option('--providers <codes>', 'comma-separated provider codes (default: every emulated provider)')
    .option('--host <host>', 'address to bind', '127.0.0.1')
    .option('--port <port>', 'port to listen on (0 = any free port)', String(DEFAULT_EMULATOR_PORT))
    .option('--json', 'print one JSON line {"<provider>": "<base url>"} once listening')
    .action(action(async (o: EmulateFlags) => {
      const providers = o.providers?.split(',').map((code) => code.trim()).filter(Boolean);
      // loaded here so other commands don't pay for the emulators at start-up
      const [{ startEmulators }, { PROVIDER_CODES }] = await Promise.all([import('../carriers/emulator/server.js'), import('../carriers/registry.js')]);
      const available = PROVIDER_CODES;
      const unknown = (providers ?? []).filter((code) => !available.includes(code));
      if (unknown.length > 0) throw new CliError(`no emulator for ${unknown.join(', ')} (available: ${available.join(', ')})`, EXIT.usage);
      if (providers?.length === 0) throw new CliError('--providers names no provider', EXIT.usage);
      const port = o.port === '0' ? 0 : parsePositiveInt(o.port, '--port');

      // Signals are taken before start-up, so a SIGTERM that arrives while starting still stops cleanly.
      let signalled: (() => void) | undefined;
      const stopRequested = new Promise<void>((resolve) => { signalled = resolve; });
      process.once('SIGTERM', () => signalled?.());
      process.once('SIGINT', () => signalled?.());

      let running;
      try {
        running = await startEmulators({ providers, host: o.host, port });
      } catch (err) {
        if ((err as { code?: string }).code === 'EADDRINUSE') throw new CliError(`${o.host}:${o.port} is already in use`, EXIT.failure);
        throw err;
      }
      if (o.json) process.stdout.write(oneLineJson(running.urls) + '\n');
      else for (const [code, url] of Object.entries(running.urls)) process.stdout.write(`${code} emulator listening on ${url}\n`);
      await stopRequested;
      await running.close();
    }));
}

/** `{"ppl": "http://127.0.0.1:7500/ppl", …}` — one line, spaced as SPEC §5 shows it. */
function oneLineJson(urls: Record<string, string>): string {
  return `{${Object.entries(urls).map(([code, url]) => `${JSON.stringify(code)}: ${JSON.stringify(url)}`).join(', ')}}`;
}
