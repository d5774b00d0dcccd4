import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Browser, chromium } from 'playwright-core';

/** The distribution's Chromium; tests never download a browser. */
export const CHROMIUM_PATH = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';

/** Called when a spec file loads, so a missing browser fails the suite once, with one line. */
export function requireChromium(): void {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(`Chromium is missing: ${CHROMIUM_PATH} does not exist (install the distribution's chromium package, or set CHROMIUM_PATH)`);
  }
}

export async function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: ['--headless', '--no-sandbox', '--disable-background-networking'] });
}

/** Screenshots of every page the tests pass through, for a look by eye (tmp/ is not committed). */
export const SCREENSHOT_DIR = join(__dirname, '../../../../tmp/iam-browser');

export function screenshotPath(name: string): string {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  return join(SCREENSHOT_DIR, `${name}.png`);
}
