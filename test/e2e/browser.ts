import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { type Browser, chromium } from 'playwright-core';

/** Debian's Chromium (.ci/run installs it: apt-get install chromium). */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/** Screenshots of each main screen (git-ignored). */
export const ARTIFACTS = join(__dirname, '..', '..', 'test-artifacts');

/** Launches headless Chromium for the test file (no network beyond loopback) and closes it after. */
export function useBrowser(): { browser: Browser } {
  const state = {} as { browser: Browser };
  beforeAll(async () => {
    if (!existsSync(CHROMIUM)) throw new Error(`Chromium not found at ${CHROMIUM}: apt-get install chromium (or set CHROMIUM_PATH)`);
    mkdirSync(ARTIFACTS, { recursive: true });
    state.browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
  });
  afterAll(async () => {
    await state.browser?.close();
  });
  return state;
}
