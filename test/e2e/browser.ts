import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { type Browser, chromium, type Page } from 'playwright-core';

/** Debian's Chromium (.ci/run installs it: apt-get install chromium). */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/** Screenshots of each main screen (git-ignored). */
export const ARTIFACTS = join(__dirname, '..', '..', 'test-artifacts');

/**
 * A Y4M video (what Chromium's fake camera plays, in a loop) of RGB frames: YUV 4:2:0 with
 * full-range (JPEG) coefficients, the frame rate `fps`.
 */
export function y4mVideo(width: number, height: number, fps: number, frames: Buffer[]): Buffer {
  const parts: Buffer[] = [Buffer.from(`YUV4MPEG2 W${width} H${height} F${fps}:1 Ip A1:1 C420jpeg\n`)];
  for (const rgb of frames) {
    const y = Buffer.alloc(width * height);
    const u = Buffer.alloc((width / 2) * (height / 2));
    const v = Buffer.alloc((width / 2) * (height / 2));
    for (let i = 0; i < width * height; i++) {
      const [r, g, b] = [rgb[i * 3] as number, rgb[i * 3 + 1] as number, rgb[i * 3 + 2] as number];
      y[i] = Math.round(0.299 * r + 0.587 * g + 0.114 * b);
      const px = i % width;
      const py = Math.floor(i / width);
      if (px % 2 === 0 && py % 2 === 0) {
        const j = (py / 2) * (width / 2) + px / 2;
        u[j] = Math.max(0, Math.min(255, Math.round(-0.169 * r - 0.331 * g + 0.5 * b + 128)));
        v[j] = Math.max(0, Math.min(255, Math.round(0.5 * r - 0.419 * g - 0.081 * b + 128)));
      }
    }
    parts.push(Buffer.from('FRAME\n'), y, u, v);
  }
  return Buffer.concat(parts);
}

/** A one-frame Y4M video: a drawn face, 640 x 480. */
async function fakeCameraFile(): Promise<string> {
  const width = 640;
  const height = 480;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="${width}" height="${height}" fill="#6d7f95"/><rect x="0" y="330" width="${width}" height="150" fill="#2d3a4a"/><ellipse cx="320" cy="220" rx="110" ry="140" fill="#d9a784"/><ellipse cx="280" cy="200" rx="16" ry="9" fill="#2a1d14"/><ellipse cx="360" cy="200" rx="16" ry="9" fill="#2a1d14"/><path d="M320 205 L305 260 L330 262" stroke="#8a5a3c" stroke-width="5" fill="none"/><path d="M285 295 Q320 320 355 295" stroke="#7a2e2e" stroke-width="8" fill="none"/><path d="M210 150 Q320 20 430 150 L430 120 Q320 50 210 120 Z" fill="#3b2a1e"/></svg>`;
  const rgb = await sharp(Buffer.from(svg)).removeAlpha().raw().toBuffer();
  const file = join(mkdtempSync(join(tmpdir(), 'idv-camera-')), 'face.y4m');
  writeFileSync(file, y4mVideo(width, height, 30, [rgb]));
  return file;
}

/**
 * Launches headless Chromium for the test file (no network beyond loopback) and closes it after.
 * `cameraFile`: the Y4M its fake camera plays instead of the drawn face (Chromium reads the file
 * each time a page opens the camera, so a test may rewrite it between openings, same header).
 */
export function useBrowser(options: { cameraFile?: () => Promise<string> } = {}): { browser: Browser } {
  const state = {} as { browser: Browser };
  beforeAll(async () => {
    if (!existsSync(CHROMIUM)) throw new Error(`Chromium not found at ${CHROMIUM}: apt-get install chromium (or set CHROMIUM_PATH)`);
    mkdirSync(ARTIFACTS, { recursive: true });
    state.browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      // A fake camera for the selfie's live capture, filming a still picture of a face (its own test
      // pattern is a mostly flat green, which the gate rightly calls empty), the permission prompt answered yes.
      args: [
        '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync',
        '--use-fake-device-for-media-stream', '--use-fake-ui-for-media-stream', `--use-file-for-fake-video-capture=${await (options.cameraFile ?? fakeCameraFile)()}`,
      ],
    });
  });
  afterAll(async () => {
    await state.browser?.close();
  });
  return state;
}

/** The slice of a playwright Page the accessibility checks use (typed loosely: this file has no DOM types). */
interface PageLike {
  evaluate<R>(fn: string | ((arg: any) => R | Promise<R>), arg?: any): Promise<R>;
}

const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
/** The WCAG 2.2 AA rule set (axe-core tags): levels A and AA of WCAG 2.0, 2.1 and 2.2. */
export const WCAG_AA_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

/**
 * axe-core's violations on the page as it stands, as "rule: target" lines (empty when clean). axe is
 * evaluated through the DevTools protocol, which the page's Content-Security-Policy does not block
 * (an injected <script> would be).
 */
export async function axeViolations(page: PageLike): Promise<string[]> {
  await page.evaluate(AXE_SOURCE);
  return page.evaluate(async (tags: string[]) => {
    const axe = (globalThis as any).axe;
    const result = await axe.run({ runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] });
    return result.violations.flatMap((v: any) => v.nodes.map((n: any) => `${v.id}: ${n.target.join(' ')} (${n.failureSummary.replace(/\s+/g, ' ')})`));
  }, WCAG_AA_TAGS);
}

/** A browser that refuses the camera, as one does when the person said no: getUserMedia rejects with NotAllowedError in every page of `page`'s lifetime. */
export async function refuseCamera(page: Page): Promise<void> {
  await page.addInitScript(() => {
    (globalThis as any).navigator.mediaDevices.getUserMedia = () => Promise.reject(Object.assign(new Error('denied'), { name: 'NotAllowedError' }));
  });
}

/** The visible controls (buttons, links, selects, file inputs, checkbox labels) smaller than 44 x 44 CSS px. */
export async function smallTargets(page: PageLike, selector = 'button, a, select, input, label.check'): Promise<string[]> {
  return page.evaluate((sel: string) => {
    const doc = (globalThis as any).document;
    const out: string[] = [];
    for (const e of doc.querySelectorAll(sel)) {
      const r = e.getBoundingClientRect();
      // Not rendered, or hidden to the eye only (a file input whose label is the button).
      if (r.width <= 1 && r.height <= 1) continue;
      if (e.tagName === 'INPUT' && e.type === 'checkbox') continue;
      if (r.width < 44 || r.height < 44) out.push(`${e.tagName.toLowerCase()}#${e.id || e.textContent.trim()} ${Math.round(r.width)}x${Math.round(r.height)}`);
    }
    return out;
  }, selector);
}

/** WCAG contrast ratio of two CSS rgb()/rgba() colours. */
export function contrast(a: string, b: string): number {
  const lum = (c: string) => {
    const [r = 0, g = 0, bl = 0] = (c.match(/[\d.]+/g) ?? []).map(Number).map((x) => {
      const s = x / 255;
      return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * bl;
  };
  const [hi, lo] = [lum(a), lum(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/**
 * axe-core's WCAG 2.x A/AA (2.2 included) violations on the page as it is now. The library is
 * evaluated through the DevTools protocol, which the page's CSP does not govern (an injected
 * <script> would be refused by `script-src 'self'`), so the page under test keeps its real CSP.
 */
export async function consoleAxeViolations(page: Page): Promise<{ id: string; impact: string | null; nodes: string[] }[]> {
  await page.evaluate(AXE_SOURCE);
  return page.evaluate(async (tags: string[]) => {
    const axe = (globalThis as unknown as { axe: { run(context: unknown, options: unknown): Promise<{ violations: { id: string; impact: string | null; nodes: { target: string[] }[] }[] }> } }).axe;
    const result = await axe.run((globalThis as unknown as { document: unknown }).document, { runOnly: { type: 'tag', values: tags } });
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.map((n) => n.target.join(' ')) }));
  }, WCAG_AA_TAGS);
}
