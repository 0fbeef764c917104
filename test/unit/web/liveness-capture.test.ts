import { generatedTexts } from '../../../lib/served-files';
import { BURST_LIMITS, LivenessRateLimitedError } from '../../../src/app/liveness';
import { drawSteps } from '../../../src/app/liveness-challenge';
import * as capture from '../../../src/web/liveness-capture';
import {
  base64Bytes,
  cameraProblem,
  captureDone,
  capturePlan,
  downscaleSize,
  FRAME_SIDE,
  type FrameLimits,
  frameDue,
  measuredFps,
  nextQuality,
  promptIndex,
  type PromptStep,
  retryAfterSeconds,
  selfieOffer,
} from '../../../src/web/liveness-capture';
import { pageFunction } from './page-functions';

/** The limits as POST /v/{token}/liveness/challenge gives them (src/app/liveness.ts). */
const LIMITS: FrameLimits = BURST_LIMITS;

/** A seeded source of integers in [min, max), as drawSteps takes one. */
function seeded(seed: number): (min: number, max: number) => number {
  let a = seed >>> 0;
  return (min, max) => {
    a = (a * 1664525 + 1013904223) >>> 0;
    return min + (a % (max - min));
  };
}
/** Challenges as the server draws them, in the shape the widget receives. */
const challenges = Array.from({ length: 200 }, (_, i) => drawSteps(seeded(i + 1)).map((s): PromptStep => ({ action: s.action, start_ms: s.windowMs[0], end_ms: s.windowMs[1] })));

/**
 * The frames the page takes from a camera delivering a picture every `periodMs` (with up to
 * `jitterMs` of lateness), as its frame callback runs: elapsed times of the frames kept.
 */
function film(steps: PromptStep[], periodMs: number, jitterMs = 0, seed = 1): number[] {
  const plan = capturePlan(steps, LIMITS, FRAME_SIDE);
  const random = seeded(seed);
  const taken: number[] = [];
  for (let k = 0; ; k++) {
    const elapsed = k * periodMs + (k === 0 ? 0 : random(0, jitterMs + 1));
    if (frameDue(elapsed, taken.length, plan)) taken.push(elapsed);
    if (captureDone(elapsed, taken.length, plan)) return taken;
  }
}

describe('the burst a challenge is filmed in', () => {
  it.each([
    ['a 30 fps camera', 1000 / 30, 4],
    ['a 24 fps camera', 1000 / 24, 6],
    ['a 15 fps camera (the browser test\'s fake camera)', 1000 / 15, 0],
    ['a 15 fps camera late by up to 20 ms', 1000 / 15, 20],
  ])('stays within every limit of the server with %s, covering every window', (_name, period, jitter) => {
    for (const [i, steps] of challenges.entries()) {
      const times = film(steps, period, jitter, i);
      const span = (times[times.length - 1] as number) - (times[0] as number);
      const gaps = times.slice(1).map((x, k) => x - (times[k] as number));
      expect(times.length).toBeGreaterThanOrEqual(LIMITS.min_frames);
      expect(times.length).toBeLessThanOrEqual(LIMITS.max_frames);
      expect(span).toBeLessThanOrEqual(LIMITS.max_duration_ms);
      expect(measuredFps(times)).toBeGreaterThanOrEqual(LIMITS.min_fps + 1);
      // No gap a check could take for a cut (the check's limit is 300 ms), never one picture twice.
      expect(Math.max(...gaps)).toBeLessThanOrEqual(Math.min(capturePlan(steps, LIMITS, FRAME_SIDE).intervalMs + period + jitter, 299));
      expect(Math.min(...gaps)).toBeGreaterThan(0);
      // Filmed until every window has closed (or the longest burst allowed).
      expect(span).toBeGreaterThanOrEqual(Math.min(LIMITS.max_duration_ms, (steps[steps.length - 1] as PromptStep).end_ms) - period - jitter);
    }
  });

  it('spreads the frames evenly: about one a slot whatever the camera gives', () => {
    const steps = challenges[0] as PromptStep[];
    const plan = capturePlan(steps, LIMITS, FRAME_SIDE);
    const fast = film(steps, 1000 / 60);
    expect(Math.abs(measuredFps(fast) - 1000 / plan.intervalMs)).toBeLessThan(1);
    expect(fast.length).toBeLessThanOrEqual(plan.maxFrames);
  });

  it('shares the total out over the most frames and keeps each frame under the per-frame limit', () => {
    const plan = capturePlan(challenges[0] as PromptStep[], LIMITS, FRAME_SIDE);
    expect(plan.frameBudget * plan.maxFrames).toBeLessThanOrEqual(LIMITS.max_total_bytes);
    expect(plan.frameBudget).toBeLessThanOrEqual(LIMITS.max_frame_bytes);
    expect(capturePlan([], { ...LIMITS, max_total_bytes: 10_000_000 }, FRAME_SIDE).frameBudget).toBe(LIMITS.max_frame_bytes);
    expect(plan.side).toBe(FRAME_SIDE);
    expect(capturePlan([], { ...LIMITS, max_frame_side: 320 }, FRAME_SIDE).side).toBe(320);
  });

  it('shortens the burst rather than the rate when the frames allowed cannot cover it at the lowest rate', () => {
    const plan = capturePlan([{ action: 'blink', start_ms: 500, end_ms: 9000 }], { ...LIMITS, max_duration_ms: 9000, max_frames: 40 }, FRAME_SIDE);
    expect(1000 / plan.intervalMs).toBeGreaterThanOrEqual(LIMITS.min_fps);
    expect(plan.durationMs).toBeLessThanOrEqual(39 * plan.intervalMs);
  });
});

describe('the prompts', () => {
  const steps: PromptStep[] = [
    { action: 'turn_left', start_ms: 400, end_ms: 1700 },
    { action: 'blink', start_ms: 1700, end_ms: 3000 },
    { action: 'look_up', start_ms: 3000, end_ms: 4300 },
  ];
  it('shows one at a time, from the moment its window opens, in the order drawn, then none', () => {
    const at = (ms: number) => promptIndex(steps, ms);
    expect([0, 399].map(at)).toEqual([-1, -1]);
    expect([400, 1699].map(at)).toEqual([0, 0]);
    expect([1700, 2999].map(at)).toEqual([1, 1]);
    expect([3000, 4299].map(at)).toEqual([2, 2]);
    expect([4300, 5000].map(at)).toEqual([3, 3]);
  });

  it('never shows a prompt before its window opens, for any challenge the server draws', () => {
    const early: string[] = [];
    for (const drawn of challenges) {
      for (let ms = 0; ms <= 5000; ms += 5) {
        const i = promptIndex(drawn, ms);
        if (i >= 0 && i < drawn.length && ms < (drawn[i] as PromptStep).start_ms) early.push(`${JSON.stringify(drawn)} at ${ms}`);
      }
    }
    expect(early).toEqual([]);
  });
});

describe('the frames and the camera', () => {
  it('downscales the camera picture to the long side asked, never up', () => {
    expect(downscaleSize(1280, 720, 480)).toEqual({ width: 480, height: 270 });
    expect(downscaleSize(480, 640, 480)).toEqual({ width: 360, height: 480 });
    expect(downscaleSize(320, 240, 480)).toEqual({ width: 320, height: 240 });
    expect(downscaleSize(0, 0, 480)).toEqual({ width: 1, height: 1 });
  });

  it('counts the bytes of base64 data as the server decodes them', () => {
    for (const n of [1, 2, 3, 4, 100, 65_537]) expect(base64Bytes(Buffer.alloc(n, 7).toString('base64'))).toBe(n);
  });

  it('lowers the JPEG quality in proportion when a frame passes its budget, raises it slowly when well under, within bounds', () => {
    expect(nextQuality(0.8, 130_000, 65_000)).toBe(0.36);
    expect(nextQuality(0.8, 70_000, 65_000)).toBe(0.67);
    expect(nextQuality(0.8, 40_000, 65_000)).toBe(0.8);
    expect(nextQuality(0.8, 20_000, 65_000)).toBe(0.85);
    expect(nextQuality(0.35, 500_000, 65_000)).toBe(0.35);
  });

  it('says what a failed camera means: refused, absent, held by another app, or failed', () => {
    expect(['NotAllowedError', 'SecurityError', 'NotFoundError', 'OverconstrainedError', 'NotReadableError', 'AbortError', undefined].map(cameraProblem)).toEqual([
      'denied',
      'denied',
      'absent',
      'absent',
      'busy',
      'failed',
      'failed',
    ]);
  });

  it('reads the wait out of the server\'s rate-limit answer', () => {
    expect(retryAfterSeconds(new LivenessRateLimitedError(42).message)).toBe(42);
    expect(retryAfterSeconds('Too many liveness attempts for this verification: continue without liveness or contact the company')).toBeNull();
  });
});

describe('what the selfie step offers', () => {
  it('never offers the still photo as the way through a flow that requires liveness: only once the camera cannot be used, saying a person reviews it', () => {
    expect(selfieOffer('required', true)).toEqual({ guided: true, picker: false, stillCamera: false, reviewNote: false, handoff: false });
    expect(selfieOffer('required', false)).toEqual({ guided: false, picker: true, stillCamera: false, reviewNote: true, handoff: true });
  });

  it('offers the video check first and the photo beside it where liveness is optional (the default when the session does not say)', () => {
    expect(selfieOffer('optional', true)).toEqual({ guided: true, picker: true, stillCamera: true, reviewNote: false, handoff: false });
    expect(selfieOffer(undefined, true)).toEqual(selfieOffer('optional', true));
    expect(selfieOffer('optional', false)).toMatchObject({ guided: false, picker: true, handoff: true });
  });

  it('offers the photo alone where liveness is off', () => {
    expect(selfieOffer('off', true)).toEqual({ guided: false, picker: true, stillCamera: true, reviewNote: false, handoff: false });
  });
});

describe('the page runs this very code', () => {
  // Each function is embedded by its source: one that reached outside itself would break in the page.
  const served = generatedTexts('src/web/asset-texts.ts')['widget.js'] ?? '';
  it('embeds every decision as a function standing on its own, answering as the module does', () => {
    const steps = challenges[3] as PromptStep[];
    const plan = capturePlan(steps, LIMITS, FRAME_SIDE);
    const calls: [keyof typeof capture, unknown[]][] = [
      ['capturePlan', [steps, LIMITS, FRAME_SIDE]],
      ['frameDue', [130, 1, plan]],
      ['captureDone', [5000, 40, plan]],
      ['promptIndex', [steps, 2000]],
      ['downscaleSize', [640, 480, 480]],
      ['base64Bytes', ['QUJDRA==']],
      ['nextQuality', [0.8, 90_000, 66_666]],
      ['measuredFps', [[0, 80, 160, 240]]],
      ['cameraProblem', ['NotAllowedError']],
      ['retryAfterSeconds', ['try again in 7 seconds']],
      ['selfieOffer', ['required', false]],
    ];
    for (const [name, args] of calls) expect([name, pageFunction(served, name)(...args)]).toEqual([name, (capture[name] as (...a: unknown[]) => unknown)(...args)]);
  });
});
