import { existsSync } from 'node:fs';
import { chromium, type Browser, type BrowserContextOptions, type Page } from 'playwright-core';
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

/** The desk in a browser context of its own, signed in through a one-time login link (POST /v1/desk/login-links). */
export async function signedInDesk(browser: Browser, loginUrl: string, options: BrowserContextOptions = { viewport: { width: 1280, height: 720 }, locale: 'en-GB' }): Promise<Page> {
  const page = await (await browser.newContext(options)).newPage();
  await page.goto(loginUrl);
  await page.waitForSelector('header nav');
  return page;
}
