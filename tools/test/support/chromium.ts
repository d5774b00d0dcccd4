import { existsSync } from 'node:fs';
import { Browser, chromium } from 'playwright-core';

/** The distribution's Chromium (as iam's browser tests use it); tests never download a browser. */
export const CHROMIUM_PATH = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';

/** Called when a spec file loads, so a missing browser fails the suite once, with one line. */
export function requireChromium(): void {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(`Chromium is missing: ${CHROMIUM_PATH} does not exist (install the distribution's chromium package, or set CHROMIUM_PATH)`);
  }
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: ['--headless', '--no-sandbox', '--disable-background-networking'] });
}
