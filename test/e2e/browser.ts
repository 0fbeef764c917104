import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';

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

/**
 * axe-core's WCAG 2.x A/AA (2.2 included) violations on the page as it is now. The library is
 * evaluated through the DevTools protocol, which the page's CSP does not govern (an injected
 * <script> would be refused by `script-src 'self'`), so the page under test keeps its real CSP.
 */
export async function consoleAxeViolations(page: Page): Promise<{ id: string; impact: string | null; nodes: string[] }[]> {
  const source = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
  await page.evaluate(source);
  return page.evaluate(async () => {
    const axe = (globalThis as unknown as { axe: { run(context: unknown, options: unknown): Promise<{ violations: { id: string; impact: string | null; nodes: { target: string[] }[] }[] }> } }).axe;
    const result = await axe.run((globalThis as unknown as { document: unknown }).document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'] } });
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.map((n) => n.target.join(' ')) }));
  });
}
