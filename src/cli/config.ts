import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { configPath } from '../paths.js';
import { CliError, EXIT } from './exit-codes.js';

export interface CliConfig {
  url: string;
  api_key: string;
  data_dir?: string;
  account_id?: string;
}

export function readConfigFile(): Partial<CliConfig> {
  const path = configPath();
  if (!existsSync(path)) return {};
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as Partial<CliConfig>;
  } catch {
    throw new CliError(`cannot read ${path}: not valid JSON`, EXIT.failure);
  }
}

export function writeConfigFile(config: CliConfig): string {
  const path = configPath();
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  writeFileSync(path, JSON.stringify(config, null, 2) + '\n', { mode: 0o600 });
  return path;
}

/** Where the daemon is and which key to use: `PACKDESK_URL`/`PACKDESK_API_KEY` win over the config file. */
export function clientConfig(): { url: string; apiKey: string } {
  const file = readConfigFile();
  const url = process.env.PACKDESK_URL || file.url;
  const apiKey = process.env.PACKDESK_API_KEY || file.api_key;
  if (!url || !apiKey) {
    throw new CliError('no daemon configured: run `packdesk init`, or set PACKDESK_URL and PACKDESK_API_KEY', EXIT.usage);
  }
  return { url: url.replace(/\/+$/, ''), apiKey };
}
