import { applyHomography, fitHomography, homographyResidual, type Point } from '../../../src/domain/liveness/homography';
import { LIVENESS_LANDMARKS } from '../../../src/domain/liveness/landmarks';
import type { FrameObservation, LivenessAction, LivenessChallenge } from '../../../src/domain/liveness/types';
import { LIVENESS_THRESHOLDS, verifyLiveness } from '../../../src/domain/liveness/verify';
import ruleThresholds from '../../../config/rules.json';

/** A head's landmarks in 3-D (face half-width 1, y down, z towards the camera; the outline about one half-width behind the nose tip, as on Human's mesh), in LIVENESS_LANDMARKS order. */
const HEAD: Record<(typeof LIVENESS_LANDMARKS)[number], [number, number, number]> = {
  nose_tip: [0, 0.1, 0.6],
  nose_bridge: [0, -0.35, 0.35],
  chin: [0, 0.95, 0.15],
  forehead: [0, -0.9, 0.2],
  eye_outer_image_left: [-0.65, -0.35, 0.05],
  eye_inner_image_left: [-0.22, -0.33, 0.1],
  eye_inner_image_right: [0.22, -0.33, 0.1],
  eye_outer_image_right: [0.65, -0.35, 0.05],
  mouth_image_left: [-0.35, 0.5, 0.2],
  mouth_image_right: [0.35, 0.5, 0.2],
  cheek_image_left: [-0.95, 0.05, -0.45],
  cheek_image_right: [0.95, 0.05, -0.45],
  temple_image_left: [-0.85, -0.55, -0.4],
  temple_image_right: [0.85, -0.55, -0.4],
  jaw_image_left: [-0.85, 0.45, -0.45],
  jaw_image_right: [0.85, 0.45, -0.45],
  jaw_low_image_left: [-0.5, 0.8, -0.05],
  jaw_low_image_right: [0.5, 0.8, -0.05],
  brow_image_left: [-0.45, -0.6, 0.2],
  brow_image_right: [0.45, -0.6, 0.2],
};
const head3d = LIVENESS_LANDMARKS.map((n) => HEAD[n]);
/** The same landmarks printed on a card: every point in one plane. */
const card3d = head3d.map(([x, y]) => [x, y, 0] as [number, number, number]);

const rad = (deg: number) => (deg * Math.PI) / 180;
/** Rotates (yaw about the vertical axis, then pitch; + yaw turns the face towards image right, + pitch up) and projects in perspective. */
function project(points: [number, number, number][], yaw: number, pitch: number): Point[] {
  return points.map(([x, y, z]) => {
    const x1 = x * Math.cos(rad(yaw)) + z * Math.sin(rad(yaw));
    const z1 = -x * Math.sin(rad(yaw)) + z * Math.cos(rad(yaw));
    const y2 = y * Math.cos(rad(pitch)) - z1 * Math.sin(rad(pitch));
    const z2 = y * Math.sin(rad(pitch)) + z1 * Math.cos(rad(pitch));
    const f = 100 / (6 - z2);
    return [200 + 6 * f * x1, 240 + 6 * f * y2];
  });
}

/** Deterministic pseudo-random numbers (mulberry32). */
function rng(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const random = rng(7);
const vector = () => Array.from({ length: 128 }, () => (random() - 0.5) * 0.18);
const personA = vector();
const personB = vector();
const near = (v: number[], spread: number) => v.map((x) => x + (random() - 0.5) * spread);

const ISSUED = '2026-01-01T10:00:00.000Z';
function challenge(actions: LivenessAction[], overrides: Partial<LivenessChallenge> = {}): LivenessChallenge {
  return {
    nonce: 'n1',
    verificationId: 'v1',
    sessionHash: 'h',
    steps: actions.map((action, i) => ({ action, windowMs: [400 + i * 1300, 400 + (i + 1) * 1300] as [number, number] })),
    issuedAt: ISSUED,
    expiresAt: '2026-01-01T10:02:00.000Z',
    usedAt: null,
    ...overrides,
  };
}
const NOW = '2026-01-01T10:00:30.000Z';

/** A bell from 0 to 1 and back over [start, start + length] ms. */
const bell = (ms: number, start: number, length: number) => (ms < start || ms > start + length ? 0 : Math.sin((Math.PI * (ms - start)) / length));

interface Capture {
  /** Actions performed, each starting at its ms. */
  performed: [LivenessAction, number][];
  fps?: number;
  durationMs?: number;
  points?: [number, number, number][];
}
/** Observations of a capture in which a head performs the actions given, at the times given. */
function capture({ performed, fps = 12, durationMs = 4400, points = head3d }: Capture): FrameObservation[] {
  const frames: FrameObservation[] = [];
  for (let i = 0; i * (1000 / fps) <= durationMs; i++) {
    const ms = Math.round(i * (1000 / fps));
    let yaw = 0;
    let pitch = 0;
    let eyeOpen = 0.8;
    let mouthOpen = 0.05;
    for (const [action, start] of performed) {
      if (action === 'turn_left') yaw += 28 * bell(ms, start, 900);
      if (action === 'turn_right') yaw -= 28 * bell(ms, start, 900);
      if (action === 'look_up') pitch += 20 * bell(ms, start, 900);
      if (action === 'look_down') pitch -= 20 * bell(ms, start, 900);
      if (action === 'blink') eyeOpen -= 0.75 * bell(ms, start, 250);
      if (action === 'open_mouth') mouthOpen += 0.6 * bell(ms, start, 900);
    }
    frames.push({ t: 1000 + ms, faces: 1, yaw, pitch, roll: 0, eyeOpen, mouthOpen, landmarks: project(points, yaw, pitch), descriptor: near(personA, 0.02), sha256: `frame-${i}` });
  }
  return frames;
}

const ACTIONS: LivenessAction[] = ['turn_left', 'blink', 'turn_right'];
const good = () => capture({ performed: [['turn_left', 500], ['blink', 2000], ['turn_right', 2900]] });

describe('verifyLiveness', () => {
  it('passes a head that performs the actions in order, within their windows', () => {
    const verdict = verifyLiveness(challenge(ACTIONS), good(), { now: NOW, portraitDescriptor: near(personA, 0.02) });
    expect(verdict).toMatchObject({ passed: true, reasons: [] });
    expect(verdict.measures.parallax_frames).toBeGreaterThanOrEqual(LIVENESS_THRESHOLDS.minParallaxFrames);
  });

  it('passes look_up and open_mouth when they happen', () => {
    const frames = capture({ performed: [['look_up', 500], ['open_mouth', 1800], ['turn_left', 3000]] });
    expect(verifyLiveness(challenge(['look_up', 'open_mouth', 'turn_left']), frames, { now: NOW }).reasons).toEqual([]);
  });

  it('passes look_down when it happens, and refuses a look up in its place', () => {
    const steps: LivenessAction[] = ['turn_right', 'look_down', 'open_mouth'];
    const down = capture({ performed: [['turn_right', 500], ['look_down', 1800], ['open_mouth', 3000]] });
    expect(verifyLiveness(challenge(steps), down, { now: NOW }).reasons).toEqual([]);
    const up = capture({ performed: [['turn_right', 500], ['look_up', 1800], ['open_mouth', 3000]] });
    expect(verifyLiveness(challenge(steps), up, { now: NOW }).reasons).toContain('action_missing');
  });

  it('asks an action given twice in each of its windows: one turn does not answer both', () => {
    const steps: LivenessAction[] = ['turn_left', 'blink', 'turn_left'];
    const twice = capture({ performed: [['turn_left', 500], ['blink', 2000], ['turn_left', 3000]] });
    expect(verifyLiveness(challenge(steps), twice, { now: NOW }).reasons).toEqual([]);
    // One turn, in the first window only: the second turn asked is not there (its window holds no onset).
    const once = capture({ performed: [['turn_left', 500], ['blink', 2000]] });
    expect(verifyLiveness(challenge(steps), once, { now: NOW })).toMatchObject({ passed: false, reasons: ['action_out_of_order'] });
  });

  const refusals: [string, () => { c: LivenessChallenge; frames: FrameObservation[]; portrait?: number[] }][] = [
    ['nonce_used', () => ({ c: challenge(ACTIONS, { usedAt: '2026-01-01T10:00:20.000Z' }), frames: good() })],
    ['nonce_expired', () => ({ c: challenge(ACTIONS, { expiresAt: '2026-01-01T10:00:29.999Z' }), frames: good() })],
    ['too_few_frames', () => ({ c: challenge(ACTIONS), frames: capture({ performed: [['turn_left', 500], ['blink', 2000], ['turn_right', 2900]], fps: 8 }) })],
    [
      'timing_implausible',
      () => {
        const frames = good();
        (frames[3] as FrameObservation).t = (frames[2] as FrameObservation).t;
        return { c: challenge(ACTIONS), frames };
      },
    ],
    [
      'repeated_frames',
      () => {
        const frames = good();
        (frames[5] as FrameObservation).sha256 = (frames[4] as FrameObservation).sha256;
        return { c: challenge(ACTIONS), frames };
      },
    ],
    [
      'no_single_face',
      () => {
        const frames = good().map((f, i) => (i < 5 || i >= 46 ? { t: f.t, faces: 0, sha256: f.sha256 } : f));
        return { c: challenge(ACTIONS), frames };
      },
    ],
    ['action_missing', () => ({ c: challenge(ACTIONS), frames: capture({ performed: [['turn_left', 500], ['turn_right', 2900]] }) })],
    ['action_out_of_order', () => ({ c: challenge(ACTIONS), frames: capture({ performed: [['turn_right', 500], ['blink', 2000], ['turn_left', 2900]] }) })],
    [
      'different_person',
      () => {
        const frames = good().map((f) => (f.t - 1000 > 2800 ? { ...f, descriptor: near(personB, 0.02) } : f));
        return { c: challenge(ACTIONS), frames };
      },
    ],
    ['portrait_mismatch', () => ({ c: challenge(ACTIONS), frames: good(), portrait: near(personB, 0.02) })],
    ['flat_motion', () => ({ c: challenge(ACTIONS), frames: capture({ performed: [['turn_left', 500], ['blink', 2000], ['turn_right', 2900]], points: card3d }) })],
  ];

  it.each(refusals)('refuses with exactly %s', (reason, make) => {
    const { c, frames, portrait } = make();
    const verdict = verifyLiveness(c, frames, { now: NOW, ...(portrait ? { portraitDescriptor: portrait } : {}) });
    expect(verdict.passed).toBe(false);
    expect(verdict.reasons).toEqual([reason]);
  });

  it('refuses a capture longer than allowed and one with a long gap as implausible timing', () => {
    const long = capture({ performed: [['turn_left', 500], ['blink', 2000], ['turn_right', 2900]], durationMs: 6500 });
    expect(verifyLiveness(challenge(ACTIONS), long, { now: NOW }).reasons).toEqual(['timing_implausible']);
    const gap = good().map((f) => (f.t - 1000 > 4000 ? { ...f, t: f.t + 400 } : f));
    expect(verifyLiveness(challenge(ACTIONS), gap, { now: NOW }).reasons).toEqual(['timing_implausible']);
  });

  it('refuses a capture that runs on well after the last window (a recording made for another challenge)', () => {
    const frames = capture({ performed: [['turn_left', 500], ['blink', 2000], ['turn_right', 2900]], durationMs: 4400 });
    expect(verifyLiveness(challenge(['turn_left', 'blink']), frames, { now: NOW }).reasons).toEqual(['timing_implausible']);
  });

  it('refuses more frames than a capture can hold before judging them', () => {
    const frames = capture({ performed: [['turn_left', 500], ['blink', 2000], ['turn_right', 2900]], fps: 25 });
    const verdict = verifyLiveness(challenge(ACTIONS), frames, { now: NOW });
    expect(verdict.reasons).toEqual(['timing_implausible']);
    expect(verdict.measures).toEqual({ frames: frames.length });
  });

  it('refuses a recording that does every action all the time as out of order', () => {
    const frames = capture({ performed: [['turn_left', 500], ['turn_right', 1600], ['turn_left', 2600], ['turn_right', 3500]] });
    expect(verifyLiveness(challenge(['turn_left', 'turn_right', 'blink']), frames, { now: NOW }).reasons).toContain('action_out_of_order');
  });

  it('refuses a second person in more than one frame', () => {
    const frames = good().map((f, i) => (i === 46 || i === 48 ? { t: f.t, faces: 2, sha256: f.sha256 } : f));
    expect(verifyLiveness(challenge(ACTIONS), frames, { now: NOW }).reasons).toEqual(['no_single_face']);
    expect(verifyLiveness(challenge(ACTIONS), frames.map((f, i) => (i === 48 ? good()[48] as FrameObservation : f)), { now: NOW }).reasons).toEqual([]);
  });

  it('fails closed when too few frames carry a descriptor', () => {
    const frames = good().map((f, i) => (i === 0 ? f : { ...f, descriptor: undefined }));
    expect(verifyLiveness(challenge(ACTIONS), frames, { now: NOW }).reasons).toEqual(['different_person']);
  });

  it('refuses a head that never moves as flat (nothing separates it from a picture)', () => {
    const frames = capture({ performed: [['blink', 600], ['open_mouth', 1800]], durationMs: 3200 });
    expect(verifyLiveness(challenge(['blink', 'open_mouth']), frames, { now: NOW }).reasons).toEqual(['flat_motion']);
  });

  it('refuses a portrait at the score below which the rules reject a selfie', () => {
    const distanceAtReview = 0.9 - (0.6 * ruleThresholds.selfie_similarity.review) / 100;
    expect(LIVENESS_THRESHOLDS.portraitMaxDistance).toBeCloseTo(distanceAtReview, 6);
  });
});

/** A capture whose frames are changed where `where` holds (what a real face does beside an action: eyelids that drop, a pitch that drifts). */
function alter(frames: FrameObservation[], where: (f: FrameObservation) => boolean, change: Partial<FrameObservation> | ((f: FrameObservation) => Partial<FrameObservation>)): FrameObservation[] {
  return frames.map((f) => (where(f) ? { ...f, ...(typeof change === 'function' ? change(f) : change) } : f));
}

describe('verifyLiveness: what answers a blink, and movements nobody asked for (a recording made for another challenge)', () => {
  const opts = { now: NOW };

  it('does not take eyelids lowered by a look down for a blink', () => {
    const down = alter(capture({ performed: [['turn_left', 500], ['look_down', 1900], ['turn_right', 2900]] }), (f) => (f.pitch ?? 0) < -9, (f) => ({ eyeOpen: 0.8 * (1 + (f.pitch ?? 0) / 40) }));
    expect(verifyLiveness(challenge(ACTIONS), down, opts).reasons).toContain('action_missing');
  });

  it('does not take eyes narrowed by a wide-open mouth for a blink', () => {
    const mouth = alter(capture({ performed: [['turn_left', 500], ['open_mouth', 1900], ['turn_right', 2900]] }), (f) => (f.mouthOpen ?? 0) > 0.4, { eyeOpen: 0.4 });
    expect(verifyLiveness(challenge(ACTIONS), mouth, opts).reasons).toContain('action_missing');
  });

  it('refuses a head movement nobody asked for, made in the window of another step', () => {
    const unasked = capture({ performed: [['turn_left', 500], ['blink', 2000], ['look_up', 2300], ['turn_right', 3000]] });
    const verdict = verifyLiveness(challenge(ACTIONS), unasked, opts);
    expect(verdict.reasons).toEqual(['action_out_of_order']);
    expect(verdict.measures.look_up_stray_onset_ms).toBeGreaterThanOrEqual(1700);
  });

  it('does not count the pitch or the mouth a turned head seems to show (the mesh drifts there)', () => {
    const drift = alter(good(), (f) => Math.abs(f.yaw ?? 0) >= LIVENESS_THRESHOLDS.turnDegrees, { pitch: -12, mouthOpen: 0.3 });
    expect(verifyLiveness(challenge(ACTIONS), drift, opts).reasons).toEqual([]);
  });
});

describe('homography', () => {
  it('explains a pure perspective warp of landmarks (a picture is flat)', () => {
    const flat = project(card3d, 0, 0);
    const h = [0.9, 0.12, 15, -0.08, 1.05, 30, 0.0006, -0.0004, 1];
    const warped = flat.map((p) => applyHomography(h, p));
    const fitted = fitHomography(flat, warped) as number[];
    fitted.forEach((x, i) => expect(x).toBeCloseTo(h[i] as number, 6));
    expect(homographyResidual(flat, warped).residual).toBeLessThan(1e-6);
    expect(homographyResidual(project(card3d, 0, 0), project(card3d, 30, 15)).residual).toBeLessThan(1e-6);
  });

  it('does not explain a 3-D rotation of 3-D points (a head shows parallax)', () => {
    const { residual, perPoint } = homographyResidual(project(head3d, 0, 0), project(head3d, 25, 0));
    expect(residual).toBeGreaterThan(LIVENESS_THRESHOLDS.flatResidual);
    expect(perPoint[0]).toBeGreaterThan(residual);
  });

  it('gives no homography for degenerate points', () => {
    const line: Point[] = [[0, 0], [1, 1], [2, 2], [3, 3]];
    expect(fitHomography(line, line)).toBeUndefined();
    expect(homographyResidual(line, line).residual).toBe(Number.POSITIVE_INFINITY);
  });
});
