import { spawn } from 'node:child_process';
import type { Command } from 'commander';
import type { DeskLoginLink } from './api-types.js';
import { ApiClient } from './client.js';
import { printJson } from './output.js';
import { action } from './run.js';

/** How long an opener may run before it counts as having opened the browser (some wait until the browser closes). */
const OPENER_VERDICT_MS = 3_000;

/** The program that opens a URL in the person's browser, by platform. */
function browserOpener(url: string): { command: string; args: string[] } {
  if (process.platform === 'darwin') return { command: 'open', args: [url] };
  if (process.platform === 'win32') return { command: 'cmd', args: ['/c', 'start', '""', url] };
  return { command: 'xdg-open', args: [url] };
}

/** Why no browser can show the desk here: elsewhere than macOS and Windows, a graphical session is needed. */
function noDesktopReason(): string | undefined {
  if (process.platform === 'darwin' || process.platform === 'win32') return undefined;
  return process.env.DISPLAY || process.env.WAYLAND_DISPLAY ? undefined : 'no graphical session (DISPLAY and WAYLAND_DISPLAY are unset)';
}

/** Opens `url` in a browser; answers why not when there is no opener, or it failed (e.g. xdg-open found no browser). */
function openInBrowser(url: string): Promise<{ opened: true } | { opened: false; why: string }> {
  const { command, args } = browserOpener(url);
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: 'ignore', detached: true });
    const timer = setTimeout(() => {
      child.unref();
      resolve({ opened: true });
    }, OPENER_VERDICT_MS);
    child.once('error', (err: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      resolve({ opened: false, why: err.code === 'ENOENT' ? `${command} is not installed` : `${command} failed: ${err.message}` });
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve(code === 0 ? { opened: true } : { opened: false, why: `${command} could not open a browser (exit ${code ?? 'by a signal'})` });
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
      const { body } = await ApiClient.fromConfig().post<{ data: DeskLoginLink }>('/v1/desk/login-links');
      const { url, expires_at: expiresAt } = body.data;
      if (o.json) {
        printJson({ url, expires_at: expiresAt });
        return;
      }
      const tried = o.open && !process.env.CI ? (noDesktopReason() ?? await openInBrowser(url)) : undefined;
      const said = tried === undefined ? `Open the desk in a browser: ${url}`
        : typeof tried === 'string' ? `No browser here (${tried}), so here is the link to open in one: ${url}`
          : tried.opened ? `Opened the desk in your browser: ${url}`
            : `No browser opened (${tried.why}), so here is the link to open in one: ${url}`;
      process.stdout.write(`${said}\n`
        + `The link signs in once, until ${expiresAt}; afterwards the browser stays signed in for 12 hours.\n`);
    }));
}
