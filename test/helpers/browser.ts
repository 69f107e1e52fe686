import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';
import { expect } from 'vitest';

const CHROMIUM = process.env.PACKDESK_CHROMIUM ?? '/usr/bin/chromium';

/**
 * Debian's Chromium (`.ci/run` installs it), as every desk story drives it; playwright-core never downloads a browser.
 * Its shared memory goes to /tmp rather than /dev/shm, which a container may cap at 64 MB.
 */
export async function launchChromium(): Promise<Browser> {
  expect(existsSync(CHROMIUM), `Chromium at ${CHROMIUM} (apt-get install chromium)`).toBe(true);
  return chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-dev-shm-usage'] });
}
