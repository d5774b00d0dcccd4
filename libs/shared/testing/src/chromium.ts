import { existsSync } from 'node:fs';
import type { Browser } from 'playwright-core';

/** The distribution's Chromium (npm test provisions it, or CHROMIUM_PATH names one); tests never download a browser. */
export const CHROMIUM_PATH = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';

/** Called when a spec file loads, so a missing browser fails the suite once, with one line. */
export function requireChromium(): void {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(`Chromium is missing: ${CHROMIUM_PATH} does not exist (install the distribution's chromium package, or set CHROMIUM_PATH)`);
  }
}

/** Loads playwright-core only here, so the many specs that import this lib for other helpers do not pay for it. */
export async function launchChromium(): Promise<Browser> {
  const { chromium } = await import('playwright-core');
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: ['--headless', '--no-sandbox', '--disable-background-networking'] });
}
