import { closeSync, mkdtempSync, openSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import type { Page } from 'playwright-core';
import { type Move, answer, headPose, rng } from '../../scripts/bench/liveness/performance';
import { rotate } from '../../scripts/bench/liveness/raster';
import { SANDBOX_KEYWORD } from '../../src/adapters/sandbox/payload';
import { LIVENESS_LANDMARKS } from '../../src/domain/liveness/landmarks';
import type { LivenessAction } from '../../src/domain/liveness/types';
import { COUNTDOWN_MS } from '../../src/web/liveness-capture';
import { b64, png } from '../fixtures/images';
import { useTestRuntime } from '../integration/harness';
import { ARTIFACTS, axeViolations, refuseCamera, smallTargets, useBrowser, y4mVideo } from './browser';

/**
 * The widget's guided liveness capture, end to end: Chromium's fake camera plays a generated Y4M,
 * the widget asks the local runtime for a challenge, films the burst and uploads it; the pipeline
 * judges it with the real check (src/domain/liveness/verify.ts) and the page shows the decision.
 *
 * The face model is the sandbox's: what each frame shows is what its payload says. The Y4M's
 * pictures carry their head pose in a strip of grey blocks at their foot, which survives the
 * widget's canvas and JPEG; on its way to the service each frame the widget sends gets the payload
 * that pose means (this file's `observe`, standing in for the face models), in the frame's JPEG
 * comment. Everything else (the challenge, the widget's timing, frame count, sizes and encoding,
 * the nonce, the upload, the check, the decision) is the real thing.
 */
const W = 320;
const H = 240;
const FPS = 15;
/** Frames of every film: the countdown, the longest burst and some slack (9.6 s at 15 fps). */
const FRAMES = Math.ceil(((COUNTDOWN_MS + 100 + 6500) * FPS) / 1000);
const FLOW = 'id-and-live-selfie';
const dir = mkdtempSync(join(tmpdir(), 'idv-liveness-camera-'));
const CAMERA = join(dir, 'camera.y4m');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** What the camera films: a head's pose (degrees), eyes closed (0..1), mouth open (0..1). */
interface Shown {
  yaw: number;
  pitch: number;
  eyesClosed: number;
  mouthOpen: number;
}
const REST: Shown = { yaw: 0, pitch: 0, eyesClosed: 0, mouthOpen: 0 };

/** The grey levels of the code strip's eight blocks: black and white (levels), the four measures, a face mark. */
function code(s: Shown): number[] {
  const level = (x: number) => Math.max(0, Math.min(255, Math.round(x)));
  return [0, 255, level(128 + 2.5 * s.yaw), level(128 + 2.5 * s.pitch), level(30 + 200 * s.eyesClosed), level(30 + 200 * s.mouthOpen), 255, 0];
}

/** A drawn face looking at the camera, 320 x 240 RGB, the strip at its foot coding `s`. */
function picture(s: Shown): Buffer {
  const rgb = Buffer.alloc(W * H * 3);
  const inside = (x: number, y: number, ex: number, ey: number, rx: number, ry: number) => ((x - ex) / rx) ** 2 + ((y - ey) / ry) ** 2 <= 1;
  const strip = code(s);
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      let c = [109, 127, 149];
      if (inside(x, y, 160, 105, 52, 66)) c = [217, 167, 132];
      if (inside(x, y, 140, 91, 9, 6) || inside(x, y, 180, 91, 9, 6)) c = [42, 29, 20];
      if (inside(x, y, 160, 139, 16, 3)) c = [122, 46, 46];
      if (y >= 224) c = [strip[Math.floor(x / 40)] as number, strip[Math.floor(x / 40)] as number, strip[Math.floor(x / 40)] as number];
      rgb.set(c, (y * W + x) * 3);
    }
  }
  return rgb;
}

/** The drawn face as one Y4M frame: its header, and its Y, U and V planes. */
const [HEADER, FACE] = (() => {
  const video = y4mVideo(W, H, FPS, [picture(REST)]);
  const at = video.indexOf('FRAME\n');
  return [video.subarray(0, at), video.subarray(at)];
})();

/**
 * A film of the drawn face, frame k showing `shown(k)` in its strip (a grey block's luma is its
 * grey), with sensor noise over the face when `noise` is given: built by patching the face's frame,
 * so that it is ready at once when a challenge arrives.
 */
function film(shown: (k: number) => Shown, noise?: () => number): Buffer {
  const frames: Buffer[] = [HEADER];
  const luma = 'FRAME\n'.length;
  for (let k = 0; k < FRAMES; k++) {
    const frame = Buffer.from(FACE);
    const strip = code(shown(k));
    for (let y = 224; y < H; y++) for (let x = 0; x < W; x++) frame[luma + y * W + x] = strip[Math.floor(x / 40)] as number;
    if (noise) for (let y = 40; y < 170; y++) for (let x = 108; x < 212; x++) frame[luma + y * W + x] = Math.max(0, Math.min(255, (frame[luma + y * W + x] as number) + noise()));
    frames.push(frame);
  }
  return Buffer.concat(frames);
}

/**
 * The film of a person following `steps`: the camera starts with the page's countdown (the widget
 * films from COUNTDOWN_MS after the first picture, plus the ~100 ms before it plays), then each
 * action 250–600 ms into its window, with a slow sway and sensor noise (the liveness bench's
 * performance). 15 fps.
 */
function followed(steps: { action: LivenessAction; start_ms: number; end_ms: number }[], seed: number): Buffer {
  const random = rng(seed);
  const moves: Move[] = answer(random, steps.map((s) => ({ action: s.action, windowMs: [s.start_ms, s.end_ms] as [number, number] })));
  const sway = { phase: random() * 6, blinkAt: -10_000 };
  const lead = COUNTDOWN_MS + 100;
  return film(
    (k) => {
      const pose = headPose(moves, (k * 1000) / FPS - lead, sway);
      return { yaw: pose.yaw, pitch: pose.pitch, eyesClosed: pose.eyesClosed, mouthOpen: pose.mouthOpen };
    },
    () => Math.round((random() - 0.5) * 12),
  );
}
/** A still picture of the face, replayed: the one picture in every frame. */
const still = () => film(() => REST);

/**
 * Puts a film in the camera's file. Chromium maps the file while it films, so the file is never
 * truncated (that would pull the pages from under it): every film has the same size and is
 * written over the last one in place.
 */
function load(film: Buffer): void {
  const fd = openSync(CAMERA, 'r+');
  try {
    writeSync(fd, film, 0, film.length, 0);
  } finally {
    closeSync(fd);
  }
}

/** One person's face descriptor (the sandbox's face model: compared only with the sandbox's). */
const PERSON = Array.from({ length: 128 }, (_, i) => Math.sin(i * 1.3) * 0.08);
/** A head's landmarks in 3-D (half-width 1): the nose tip stands out, the others go round the face at varied depths. */
const HEAD = LIVENESS_LANDMARKS.map((name, i): [number, number, number] => {
  if (name === 'nose_tip') return [0, 0.1, 0.6];
  const a = (2 * Math.PI * i) / LIVENESS_LANDMARKS.length;
  return [0.9 * Math.cos(a), 0.95 * Math.sin(a), 0.3 * Math.cos(3 * a) - 0.1];
});

/**
 * The stand-in face model: the pose a frame's strip codes (levels read against its black and
 * white blocks, wherever the frame was scaled to), as the sandbox observer's payload, landmarks
 * projected from the pose; the first frame, which becomes the selfie, also says how well it
 * matches the passport. A frame without the strip shows no face.
 */
async function observe(frame: Buffer, first: boolean): Promise<Buffer> {
  const { data, info } = await sharp(frame).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const block = (b: number) => {
    let sum = 0;
    let n = 0;
    for (let y = Math.round((228 / H) * info.height); y < Math.round((236 / H) * info.height); y++) {
      for (let x = Math.round(((b * 40 + 12) / W) * info.width); x < Math.round(((b * 40 + 28) / W) * info.width); x++) {
        const i = (y * info.width + x) * 3;
        sum += ((data[i] as number) + (data[i + 1] as number) + (data[i + 2] as number)) / 3;
        n++;
      }
    }
    return sum / n;
  };
  const [black, white] = [block(0), block(1)];
  const level = (b: number) => ((block(b) - black) * 255) / Math.max(1, white - black);
  const marked = white - black > 150 && Math.abs(level(6) - 255) < 40 && Math.abs(level(7)) < 40;
  const yaw = (level(2) - 128) / 2.5;
  const pitch = (level(3) - 128) / 2.5;
  const liveness = marked
    ? {
        faces: 1,
        yaw,
        pitch,
        roll: 0,
        eyeOpen: 0.8 * (1 - Math.max(0, (level(4) - 30) / 200)),
        mouthOpen: 0.05 + 0.6 * Math.max(0, (level(5) - 30) / 200),
        landmarks: HEAD.map((p) => {
          const [x, y, z] = rotate(p, yaw, pitch);
          const f = 600 / (6 - z);
          return [Math.round((info.width / 2 + f * x) * 100) / 100, Math.round((info.height / 2 + f * y) * 100) / 100];
        }),
        descriptor: PERSON,
      }
    : { faces: 0 };
  const text = Buffer.from(`${SANDBOX_KEYWORD}:${JSON.stringify(first ? { liveness, document: { selfie_comparison: 92 } } : { liveness })}`, 'utf8');
  const segment = Buffer.alloc(4);
  segment.writeUInt16BE(0xfffe, 0);
  segment.writeUInt16BE(text.length + 2, 2);
  return Buffer.concat([frame.subarray(0, 2), segment, text, frame.subarray(2)]);
}

const t = useTestRuntime();
const b = useBrowser({
  cameraFile: async () => {
    writeFileSync(CAMERA, still());
    return CAMERA;
  },
});

const phone = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };
const PASSPORT = {
  person: { given_names: 'Ada', surname: 'Lovelace', date_of_birth: '1990-12-10' },
  document: { number: 'P123', country_code: 'GBR', expiration_date: '2031-01-01', type: 'P' },
  face: { descriptor: PERSON },
};

/** A verification of the liveness flow whose passport was given through the API: its link opens on the selfie. */
async function withPassport(): Promise<{ id: string; url: string }> {
  const v = (
    await t.api('POST', `/api/v1/${FLOW}/verifications`, {
      person: { first_name: 'Ada', last_name: 'Lovelace', date_of_birth: '1990-12-10' },
      address: { street: '1 Main St', city: 'Austin', state: 'TX', postal_code: '78701', country: 'usa' },
      documents: { photo_id: { type: 'Passport', number: 'P123', country: 'gbr' } },
    })
  ).body.data;
  const doc = await t.api('POST', `/api/v1/${FLOW}/documents`, { verification: v.id, document: { context_type: 'PHOTO_ID', type: 1, country: 'GBR', front_side_data: b64(png(8, 8, 1, PASSPORT)) } });
  expect(doc.status).toBe(201);
  return { id: v.id, url: v.url };
}

interface Sent {
  challenges: { nonce: string; steps: { action: LivenessAction; start_ms: number; end_ms: number }[] }[];
  bursts: { nonce: string; frames: { t: number; data: string }[]; signals: { device_label?: string; reported_fps?: number } }[];
}
/**
 * Films what `film` makes of each challenge the widget is given (written before the widget opens
 * the camera, which reads the file then), and gives every frame it sends the stand-in face model's payload.
 */
async function camera(page: Page, film: (steps: Sent['challenges'][number]['steps'], n: number) => Buffer): Promise<Sent> {
  const sent: Sent = { challenges: [], bursts: [] };
  await page.route('**/liveness/challenge', async (route) => {
    const response = await route.fetch();
    const challenge = (await response.json()).data;
    sent.challenges.push(challenge);
    load(film(challenge.steps, sent.challenges.length));
    await route.fulfill({ response });
  });
  await page.route('**/liveness/frames', async (route) => {
    const body = route.request().postDataJSON();
    sent.bursts.push(JSON.parse(JSON.stringify(body)));
    body.frames = await Promise.all(body.frames.map(async (f: { t: number; data: string }, i: number) => ({ t: f.t, data: b64(await observe(Buffer.from(f.data, 'base64'), i === 0)) })));
    await route.continue({ postData: JSON.stringify(body) });
  });
  return sent;
}

/** What the status line (the page's live region) said, in order, from now on. */
async function listen(page: Page): Promise<() => Promise<string[]>> {
  await page.evaluate(() => {
    const w = globalThis as any;
    w.idvSaid = [];
    const status = w.document.getElementById('status');
    new w.MutationObserver(() => status.textContent && w.idvSaid.push(status.textContent)).observe(status, { childList: true, characterData: true, subtree: true });
  });
  return () => page.evaluate(() => (globalThis as any).idvSaid as string[]);
}

/** Continue, Submit, and the decision the page shows when the checks are done. */
async function submitAndWait(page: Page): Promise<string> {
  await page.click('#ctx-SELFIE-next');
  await page.click('#submit');
  await page.waitForFunction(() => {
    const title = (globalThis as any).document.getElementById('title').textContent;
    return title === 'Identity verified' || title === 'Being reviewed' || title === 'Not verified';
  }, undefined, { timeout: 60_000 });
  return (await page.textContent('#title')) ?? '';
}

const selfieRule = async (id: string) => {
  await t.h.runtime.idle();
  const v = (await t.api('GET', `/api/v1/${FLOW}/verifications/${id}`)).body.data;
  return { status: v.status_label, rule: v.documents.find((d: any) => d.document_type.type_label === 'Selfie').rules.results.find((r: any) => r.name === 'selfie.liveness') };
};

const PROMPTS: Record<LivenessAction, string> = {
  turn_left: 'Turn your head to the left',
  turn_right: 'Turn your head to the right',
  look_up: 'Look up',
  look_down: 'Look down',
  blink: 'Blink',
  open_mouth: 'Open your mouth',
};
/** Actions that move the head: a challenge without one cannot show depth, so the check refuses it whoever follows it. */
const MOVES_HEAD: LivenessAction[] = ['turn_left', 'turn_right', 'look_up', 'look_down'];

describe('the widget\'s guided liveness capture', () => {
  it('walks a person who follows the challenge through to a passing result, each prompt said in turn', async () => {
    const v = await withPassport();
    const context = await b.browser.newContext({ ...phone, locale: 'en-GB', reducedMotion: 'reduce' });
    const page = await context.newPage();
    const sent = await camera(page, followed);
    await page.goto(v.url);
    await page.waitForSelector('#ctx-SELFIE-live-start');
    const said = await listen(page);
    // A challenge the check refuses whoever follows it (blink and open the mouth: no head motion,
    // so no depth) is given up with Stop, as a person would be told to; the next one is followed.
    let steps: Sent['challenges'][number]['steps'] = [];
    for (let attempt = 0; attempt < 4 && steps.length === 0; attempt++) {
      await page.click('#ctx-SELFIE-live-start');
      await page.waitForSelector('#ctx-SELFIE-live-stage:visible');
      const drawn = sent.challenges[sent.challenges.length - 1]?.steps ?? [];
      if (drawn.some((s) => MOVES_HEAD.includes(s.action))) steps = drawn;
      else await page.click('#ctx-SELFIE-live-cancel');
    }
    expect(steps.length).toBeGreaterThanOrEqual(2);
    // The oval over the mirrored preview; with reduced motion the prompt's arrow stays still.
    await page.waitForSelector('#ctx-SELFIE-live-progress:has-text("Instruction 1 of")');
    expect(await page.evaluate(() => (globalThis as any).getComputedStyle((globalThis as any).document.querySelector('.live-arrow')).animationName)).toBe('none');
    await page.waitForSelector('#ctx-SELFIE-live-sent', { timeout: 30_000 });

    // Each prompt was said once, in the order drawn, between the countdown and the upload.
    const prompts = (await said()).filter((s) => Object.values(PROMPTS).includes(s));
    expect(prompts).toEqual(steps.map((s) => PROMPTS[s.action]));
    const burst = sent.bursts[0];
    if (!burst) throw new Error('no burst was sent');
    const times = burst.frames.map((f) => f.t);
    const bytes = burst.frames.map((f) => Buffer.from(f.data, 'base64'));
    expect(burst.nonce).toBe(sent.challenges[sent.challenges.length - 1]?.nonce);
    expect(times[0]).toBe(0);
    expect(times.every((x, i) => i === 0 || x > (times[i - 1] as number))).toBe(true);
    expect(burst.frames.length).toBeGreaterThanOrEqual(10);
    expect(burst.frames.length).toBeLessThanOrEqual(60);
    expect(((burst.frames.length - 1) * 1000) / (times[times.length - 1] as number)).toBeGreaterThanOrEqual(10);
    expect(times[times.length - 1]).toBeLessThanOrEqual(5000);
    expect(Math.max(...bytes.map((x) => x.length))).toBeLessThanOrEqual(100_000);
    expect(bytes.reduce((s, x) => s + x.length, 0)).toBeLessThanOrEqual(4_000_000);
    expect(bytes.every((x) => x[0] === 0xff && x[1] === 0xd8)).toBe(true);
    expect(burst.signals.device_label).toBe(CAMERA);
    expect(burst.signals.reported_fps).toBeGreaterThan(10);
    expect(await page.textContent('#ctx-SELFIE-live-sent')).toBe(`Video check sent (${burst.frames.length} pictures). It is checked after you submit.`);

    expect(await submitAndWait(page)).toBe('Identity verified');
    const { status, rule } = await selfieRule(v.id);
    expect(rule).toMatchObject({ result: 'passed', required: true });
    expect(status).toBe('Approved');
    await context.close();
  }, 180_000);

  it('refuses a still picture replayed to the camera: the person is told a person reviews it', async () => {
    const v = await withPassport();
    const context = await b.browser.newContext({ ...phone, locale: 'en-GB' });
    const page = await context.newPage();
    await camera(page, still);
    await page.goto(v.url);
    await page.click('#ctx-SELFIE-live-start');
    // The capture screen, as the person sees it while filmed: WCAG 2.2 AA, 44 px targets.
    await page.waitForSelector('#ctx-SELFIE-live-progress:has-text("Instruction 1 of")');
    expect(await axeViolations(page)).toEqual([]);
    expect(await smallTargets(page)).toEqual([]);
    await page.screenshot({ path: join(ARTIFACTS, 'widget-phone-liveness-capture.png'), fullPage: true });
    await page.waitForSelector('#ctx-SELFIE-live-sent', { timeout: 30_000 });

    expect(await submitAndWait(page)).toBe('Being reviewed');
    const { status, rule } = await selfieRule(v.id);
    expect(status).toBe('Double Check');
    expect(rule.result).toBe('review');
    expect(rule.extracted).toContain('action_missing');
    await context.close();
  }, 180_000);

  it('in a flow that requires liveness, offers no photo until the camera cannot be used, then says a person reviews it and offers the phone', async () => {
    const v = await withPassport();
    const context = await b.browser.newContext({ ...phone, locale: 'en-GB' });
    const page = await context.newPage();
    // The session as it says a required liveness (src/app/widget.ts `liveness`, README "Liveness").
    await page.route('**/session', async (route) => {
      const response = await route.fetch();
      const json = await response.json();
      json.data.liveness = 'required';
      await route.fulfill({ response, json });
    });
    await camera(page, still);
    await page.goto(v.url);
    await page.waitForSelector('#ctx-SELFIE-live-start');
    expect(await page.isVisible('label[for=ctx-SELFIE-front]')).toBe(false);
    expect(await page.$$('#ctx-SELFIE-front-camera')).toHaveLength(0);
    expect(await page.isVisible('#ctx-SELFIE-upload')).toBe(false);
    // Stopped during the countdown: the camera goes off, the start button is back with the focus.
    await page.click('#ctx-SELFIE-live-start');
    await page.waitForSelector('#ctx-SELFIE-live-cancel:visible');
    await page.click('#ctx-SELFIE-live-cancel');
    expect(await page.isVisible('#ctx-SELFIE-live-stage')).toBe(false);
    expect(await page.evaluate(() => (globalThis as any).document.getElementById('ctx-SELFIE-live-video').srcObject)).toBeNull();
    expect(await page.textContent('#status')).toBe('Video check stopped. You can start it again.');
    expect(await page.evaluate(() => (globalThis as any).document.activeElement.id)).toBe('ctx-SELFIE-live-start');
    await context.close();

    // A browser that refuses the camera.
    const refused = await b.browser.newContext({ ...phone, locale: 'en-GB' });
    const p2 = await refused.newPage();
    await refuseCamera(p2);
    await p2.route('**/session', async (route) => {
      const response = await route.fetch();
      const json = await response.json();
      json.data.liveness = 'required';
      await route.fulfill({ response, json });
    });
    await p2.goto(v.url);
    await p2.click('#ctx-SELFIE-live-start');
    await p2.waitForSelector('#ctx-SELFIE-live-start-error');
    expect(await p2.textContent('#ctx-SELFIE-live-start-error')).toBe(
      "The camera is blocked: your browser did not let this page use it. Allow the camera in your browser's settings and try again, or continue on your phone.",
    );
    expect(await p2.isVisible('#ctx-SELFIE-review-note')).toBe(true);
    expect(await p2.textContent('#ctx-SELFIE-review-note')).toBe('A photo cannot show that you are really here: a person will review it, which takes longer.');
    expect(await p2.isVisible('label[for=ctx-SELFIE-front]')).toBe(true);
    expect(await p2.isVisible('#handoff')).toBe(false);
    await p2.click('#ctx-SELFIE-live-handoff');
    expect(await p2.isVisible('#handoff')).toBe(true);
    expect(await p2.evaluate(() => (globalThis as any).document.activeElement.id)).toBe('handoff-title');
    expect(await axeViolations(p2)).toEqual([]);
    expect(await smallTargets(p2)).toEqual([]);
    await p2.screenshot({ path: join(ARTIFACTS, 'widget-phone-liveness-camera-refused.png'), fullPage: true });
    await refused.close();
  }, 120_000);
});
