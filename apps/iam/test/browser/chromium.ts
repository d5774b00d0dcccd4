import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

// The browser itself is the shared one (@platform/testing): launchChromium, requireChromium.
export { launchChromium, requireChromium } from '@platform/testing';

/** Screenshots of every page the tests pass through, for a look by eye (tmp/ is not committed). */
export const SCREENSHOT_DIR = join(__dirname, '../../../../tmp/iam-browser');

export function screenshotPath(name: string): string {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  return join(SCREENSHOT_DIR, `${name}.png`);
}
