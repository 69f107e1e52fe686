import { readFileSync } from 'node:fs';

/** packdesk's version, read from package.json (found from src/ and from dist/src/). */
function readVersion(): string {
  for (const rel of ['../package.json', '../../package.json']) {
    try {
      const pkg = JSON.parse(readFileSync(new URL(rel, import.meta.url), 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'packdesk' && pkg.version) return pkg.version;
    } catch {
      // try the next location
    }
  }
  return '0.0.0';
}

/** Set by scripts/package.mjs when it bundles the single executable, which has no package.json beside it. */
declare const PACKDESK_BUNDLED_VERSION: string | undefined;

export const VERSION = typeof PACKDESK_BUNDLED_VERSION === 'string' ? PACKDESK_BUNDLED_VERSION : readVersion();
