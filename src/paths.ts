import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

/** Data directory: `--data-dir`, else `$PACKDESK_HOME`, else `~/.local/share/packdesk`. */
export function resolveDataDir(flag?: string): string {
  if (flag) return resolve(flag);
  if (process.env.PACKDESK_HOME) return resolve(process.env.PACKDESK_HOME);
  return join(process.env.XDG_DATA_HOME || join(homedir(), '.local', 'share'), 'packdesk');
}

/** CLI config written by `packdesk init`: `$XDG_CONFIG_HOME/packdesk/config.json` (default `~/.config/…`). */
export function configPath(): string {
  return join(process.env.XDG_CONFIG_HOME || join(homedir(), '.config'), 'packdesk', 'config.json');
}

export const DEFAULT_HOST = '127.0.0.1';
export const DEFAULT_PORT = 7420;
