import { spawn } from 'node:child_process';
import type { Command } from 'commander';
import { ApiClient } from './client.js';
import { printJson } from './output.js';
import { action } from './run.js';

/** The program that opens a URL in the person's browser, by platform. */
function browserOpener(url: string): { command: string; args: string[] } {
  if (process.platform === 'darwin') return { command: 'open', args: [url] };
  if (process.platform === 'win32') return { command: 'cmd', args: ['/c', 'start', '""', url] };
  return { command: 'xdg-open', args: [url] };
}

/** Opens `url` without waiting for the browser; false when there is no opener (a server without a desktop). */
function openInBrowser(url: string): Promise<boolean> {
  const { command, args } = browserOpener(url);
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: 'ignore', detached: true });
    child.once('error', () => resolve(false));
    child.once('spawn', () => {
      child.unref();
      resolve(true);
    });
  });
}

/** `packdesk desk`: the packing desk in the browser, opened signed in through a one-time link. */
export function registerDeskCommand(program: Command): void {
  program.command('desk')
    .description('open the packing desk in the browser, signed in with the configured API key (a one-time link)')
    .option('--no-open', 'only print the link (e.g. to open it on the station\'s screen yourself)')
    .option('--json', 'print JSON')
    .action(action(async (o: { open: boolean; json?: boolean }) => {
      const { body } = await ApiClient.fromConfig().post<{ data: { url: string; expires_at: string } }>('/v1/desk/login-links');
      const { url, expires_at: expiresAt } = body.data;
      const opened = o.open && !o.json && !process.env.CI ? await openInBrowser(url) : false;
      if (o.json) {
        printJson({ url, expires_at: expiresAt });
        return;
      }
      process.stdout.write(`${opened ? 'Opened the desk in your browser' : 'Open the desk in a browser'}: ${url}\n`
        + `The link signs in once, until ${expiresAt}; afterwards the browser stays signed in for 12 hours.\n`);
    }));
}
