import { homographyResidual, type Point } from './homography';
import { landmarkIndex } from './landmarks';
import { type ChallengeStep, type FrameObservation, LIVENESS_ACTIONS, type LivenessAction, type LivenessChallenge, type LivenessReason, type LivenessVerdict } from './types';

/**
 * Every tunable figure of the liveness check, in one place. They were set on classes of inputs
 * (the genuine synthetic set and each attack class of `npm run bench:liveness`), never on one file;
 * change one only with the bench run before and after.
 */
export const LIVENESS_THRESHOLDS = {
  /** Fewer frames than this cannot show 2–3 actions (the widget sends ≥ 10 per second). */
  minFrames: 10,
  /**
   * More frames than this (a little over 6 s at 15 fps) are not a capture the widget makes: refused
   * before any per-frame work, so that an oversized upload costs nothing. The upload should cap it too.
   */
  maxFrames: 100,
  /** Below this rate a blink (100–300 ms) can fall between two frames. */
  minFps: 10,
  /** A browser camera does not deliver more than this; a higher rate means the stamps were made up. */
  maxFps: 61,
  /** The capture lasts about 5 s; a little slack for the widget's own timing. */
  maxDurationMs: 6000,
  /**
   * The widget stops filming when the last window closes: a capture running on longer than this
   * after it is a recording made for another challenge (one whose first steps happen to match).
   */
  maxTailMs: 1000,
  /** A gap longer than this between two frames is a cut (or a stalled camera), not a steady capture. */
  maxIntervalMs: 300,
  /** ... or longer than this many times the median interval. */
  maxIntervalRatio: 3.5,
  /**
   * Share of frames that must show exactly one face ("nearly every frame"): the detector loses a
   * face for a few frames at the far end of a turn. Lost frames carry no evidence for any action.
   */
  minSingleFaceShare: 0.8,
  /** Frames with two or more faces tolerated (a detector's double detection); more means another person. */
  maxMultiFaceFrames: 1,
  /** Yaw excursion from the capture's median (degrees) that counts as a turn. */
  turnDegrees: 14,
  /** Pitch excursion upwards from the median (degrees) that counts as looking up. */
  lookUpDegrees: 9,
  /** Pitch excursion downwards from the median (degrees) that counts as looking down. */
  lookDownDegrees: 9,
  /**
   * A blink: eye openness at most this fraction of the eyes' level around it (median of the frames
   * within blinkContextMs): the eyes' apparent openness changes with head pose, so a fixed level would
   * miss blinks made while turned. At 10–15 fps a blink shows in one or two frames, rarely fully closed
   * (synthetic blinks measured 0.57–0.66; pictures, cards and screens never below 0.81).
   */
  blinkRatio: 0.75,
  blinkContextMs: 600,
  /**
   * A blink counts only with the head at rest and the mouth closed: eyelids drop when the head looks
   * down, the eyes foreshorten in a turn and narrow when the mouth opens wide, and a recording made
   * for another challenge would otherwise answer a drawn blink with any of them (the replay bound of
   * `npm run bench:liveness` traced every pass it found to one). The degrees of yaw and of pitch
   * from the resting pose within which a frame can show a blink. (A long closure is no blink either:
   * the eyes' level around it falls with it.)
   */
  blinkLevelDegrees: 8,
  /** Open-eye level below which eyes are never seen open: no blink can be judged. */
  minOpenEyeLevel: 0.15,
  /**
   * Mouth opening: rise of mouthOpen (inner-lip gap over mouth width) above the closed level (25th
   * percentile of the capture). Closed mouths and pictures vary by about 0.05; an open mouth rises 0.25+.
   */
  mouthOpenRise: 0.18,
  /** Consecutive frames an action must hold (at 10 fps; a blink may show in one frame only). */
  minRunFrames: { turn_left: 2, turn_right: 2, look_up: 2, look_down: 2, blink: 1, open_mouth: 2 } satisfies Record<LivenessAction, number>,
  /**
   * Largest descriptor distance (Euclidean, the face engine's 128-D dlib descriptors) between the
   * most frontal frame and any other described frame: dlib's customary decision distance (score 50
   * in face-match.ts). Frames of one person in one capture sit below it, turned 30° included.
   */
  samePersonMaxDistance: 0.6,
  /**
   * Largest distance to the ID portrait: 0.624 is score 46, the `selfie_similarity.review` line of
   * config/rules.json (face-match.ts). Liveness refuses a person the face rule would reject outright;
   * between review and pass the selfie_similarity rule decides, as for any selfie, so that one
   * decision is not made twice with two thresholds.
   */
  portraitMaxDistance: 0.624,
  /** At least this many frames with a descriptor are needed to say "the same person throughout"; fewer fails closed. */
  minDescribedFrames: 2,
  /** A frame whose head pose differs this much (degrees, yaw and pitch combined) from the reference frame is "posed". */
  minPoseChangeDegrees: 10,
  /** Posed frames needed to judge flatness: without head motion nothing separates a head from a picture. */
  minPosedFrames: 3,
  /**
   * Homography residual (RMS landmark distance to the best homography from the reference frame,
   * divided by the landmarks' spread) above which a posed frame shows parallax. Pictures moved in any
   * way stayed under 0.075 in every frame (screens the noisiest: moiré and bands move the landmarks);
   * rendered heads turned 25–38° reached 0.17–0.34.
   */
  flatResidual: 0.1,
  /** Posed frames that must show parallax (a single noisy frame does not make a picture a head). */
  minParallaxFrames: 3,
} as const;

export type LivenessThresholds = typeof LIVENESS_THRESHOLDS;

export interface VerifyOptions {
  /** The ID portrait's descriptor (face engine of face-match.ts); without it the portrait is not compared. */
  portraitDescriptor?: number[];
  /** ISO time of the check: the challenge's expiry is judged against it. */
  now: string;
  /** Overrides of LIVENESS_THRESHOLDS (the bench sweeps them; the service uses the defaults). */
  thresholds?: Partial<LivenessThresholds>;
  /** Descriptor distance; the face engine's (Euclidean for face-api's dlib descriptors) by default. */
  distance?: (a: number[], b: number[]) => number;
}

const euclidean = (a: number[], b: number[]): number => Math.sqrt(a.reduce((s, x, i) => s + (x - (b[i] ?? 0)) ** 2, 0));

function quantile(values: number[], q: number): number {
  const s = [...values].sort((a, b) => a - b);
  if (s.length === 0) return Number.NaN;
  const pos = (s.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return (s[lo] ?? 0) + ((s[hi] ?? 0) - (s[lo] ?? 0)) * (pos - lo);
}
const defined = (xs: (number | undefined)[]): number[] => xs.filter((x): x is number => typeof x === 'number' && Number.isFinite(x));
const round = (x: number, d = 3) => (Number.isFinite(x) ? Math.round(x * 10 ** d) / 10 ** d : -1);

interface Baseline {
  yaw: number;
  pitch: number;
  mouth: number;
  /** Each frame's eye level: the median eye openness of the frames around it. */
  eyeAround: Map<FrameObservation, number>;
}

function eyeLevels(frames: FrameObservation[], t: LivenessThresholds): Map<FrameObservation, number> {
  const levels = new Map<FrameObservation, number>();
  for (const f of frames) {
    const near = defined(frames.filter((g) => g.faces === 1 && Math.abs(g.t - f.t) <= t.blinkContextMs).map((g) => g.eyeOpen));
    levels.set(f, quantile(near, 0.5));
  }
  return levels;
}

/** Whether one frame shows the action, measured from the capture's own resting levels. */
function shows(action: LivenessAction, o: FrameObservation, base: Baseline, t: LivenessThresholds): boolean {
  if (o.faces !== 1) return false;
  switch (action) {
    case 'turn_left':
      return o.yaw !== undefined && o.yaw - base.yaw >= t.turnDegrees;
    case 'turn_right':
      return o.yaw !== undefined && base.yaw - o.yaw >= t.turnDegrees;
    case 'look_up':
      return o.pitch !== undefined && o.pitch - base.pitch >= t.lookUpDegrees;
    case 'look_down':
      return o.pitch !== undefined && base.pitch - o.pitch >= t.lookDownDegrees;
    case 'blink': {
      const level = base.eyeAround.get(o) ?? Number.NaN;
      const atRest = o.yaw !== undefined && o.pitch !== undefined && Math.abs(o.yaw - base.yaw) <= t.blinkLevelDegrees && Math.abs(o.pitch - base.pitch) <= t.blinkLevelDegrees;
      const mouthClosed = o.mouthOpen === undefined || o.mouthOpen - base.mouth < t.mouthOpenRise;
      return atRest && mouthClosed && o.eyeOpen !== undefined && level >= t.minOpenEyeLevel && o.eyeOpen <= level * t.blinkRatio;
    }
    case 'open_mouth':
      return o.mouthOpen !== undefined && o.mouthOpen - base.mouth >= t.mouthOpenRise;
  }
}

/** Start times (ms after the first frame) of each run of frames showing the action long enough. */
function onsets(action: LivenessAction, frames: FrameObservation[], t0: number, base: Baseline, t: LivenessThresholds, show = shows): number[] {
  const out: number[] = [];
  let run = 0;
  let start = 0;
  for (const o of frames) {
    if (show(action, o, base, t)) {
      if (run === 0) start = o.t - t0;
      run++;
      if (run === t.minRunFrames[action]) out.push(start);
    } else {
      run = 0;
    }
  }
  return out;
}

/**
 * Whether a frame shows an action nobody asked for at that moment: as `shows`, but pitch and mouth
 * are not read while the head is turned, where the mesh's pitch drifts and the mouth foreshortens
 * into an apparent opening (genuine captures measured both), so that only a movement made with the
 * head to the front counts against the capture.
 */
const showsUnasked = (action: LivenessAction, o: FrameObservation, base: Baseline, t: LivenessThresholds): boolean =>
  shows(action, o, base, t) && (action === 'turn_left' || action === 'turn_right' || (o.yaw !== undefined && Math.abs(o.yaw - base.yaw) < t.turnDegrees));

const inWindow = (ms: number, step: ChallengeStep) => ms >= step.windowMs[0] && ms <= step.windowMs[1];

/**
 * Every requested action must start inside its own window (an action asked twice, in each of its
 * windows); an action that starts only elsewhere is out of order, one that never shows is missing.
 * A head or mouth movement, requested or not, that starts in the window of a step asking for
 * something else is out of order too: a recording that does everything all the time, or one made
 * for another challenge, would otherwise fill every window. Blinks are exempt there, as people blink
 * unprompted.
 */
function checkActions(challenge: LivenessChallenge, frames: FrameObservation[], base: Baseline, t: LivenessThresholds, measures: Record<string, number>): LivenessReason[] {
  const t0 = frames[0]?.t ?? 0;
  let missing = false;
  let outOfOrder = false;
  challenge.steps.forEach((step, i) => {
    const mine = onsets(step.action, frames, t0, base, t);
    measures[`step${i + 1}_onset_ms`] = mine.find((ms) => inWindow(ms, step)) ?? mine[0] ?? -1;
    if (!mine.some((ms) => inWindow(ms, step))) {
      if (mine.length > 0) outOfOrder = true;
      else missing = true;
    }
  });
  for (const action of LIVENESS_ACTIONS) {
    if (action === 'blink') continue;
    const own = challenge.steps.filter((s) => s.action === action);
    const stray = onsets(action, frames, t0, base, t, showsUnasked).filter((ms) => !own.some((s) => inWindow(ms, s)) && challenge.steps.some((s) => inWindow(ms, s)));
    if (stray.length > 0) {
      outOfOrder = true;
      measures[`${action}_stray_onset_ms`] = stray[0] as number;
    }
  }
  const reasons: LivenessReason[] = [];
  if (missing) reasons.push('action_missing');
  if (outOfOrder) reasons.push('action_out_of_order');
  return reasons;
}

function checkTiming(challenge: LivenessChallenge, frames: FrameObservation[], t: LivenessThresholds, measures: Record<string, number>): LivenessReason[] {
  const reasons: LivenessReason[] = [];
  const n = frames.length;
  const first = frames[0]?.t ?? 0;
  const last = frames[n - 1]?.t ?? 0;
  const duration = last - first;
  const intervals = frames.slice(1).map((f, i) => f.t - (frames[i]?.t ?? 0));
  const fps = duration > 0 ? ((n - 1) * 1000) / duration : 0;
  const median = quantile(intervals, 0.5);
  const longest = intervals.length ? Math.max(...intervals) : 0;
  Object.assign(measures, { frames: n, duration_ms: duration, fps: round(fps, 2), max_interval_ms: longest });
  if (n < t.minFrames || fps < t.minFps) reasons.push('too_few_frames');
  const monotonic = intervals.every((d) => d > 0) && frames.every((f) => Number.isFinite(f.t));
  const lastWindowEnd = Math.max(0, ...challenge.steps.map((s) => s.windowMs[1]));
  const tooLong = duration > t.maxDurationMs || duration > lastWindowEnd + t.maxTailMs;
  if (!monotonic || tooLong || fps > t.maxFps || longest > t.maxIntervalMs || longest > t.maxIntervalRatio * median) reasons.push('timing_implausible');
  const seen = new Set<string>();
  let repeated = 0;
  for (const f of frames) {
    if (seen.has(f.sha256)) repeated++;
    seen.add(f.sha256);
  }
  measures.repeated_frames = repeated;
  if (repeated > 0) reasons.push('repeated_frames');
  return reasons;
}

function poseDistance(o: FrameObservation, yaw: number, pitch: number): number {
  return Math.hypot((o.yaw ?? Number.POSITIVE_INFINITY) - yaw, (o.pitch ?? Number.POSITIVE_INFINITY) - pitch);
}

/**
 * Same person throughout: every described frame close to the most frontal one; and, given the
 * portrait, the best described frame close to it. Too few descriptors fail closed.
 */
function checkIdentity(frames: FrameObservation[], base: Baseline, opts: VerifyOptions, t: LivenessThresholds, measures: Record<string, number>): LivenessReason[] {
  const distance = opts.distance ?? euclidean;
  const described = frames.filter((f) => f.faces === 1 && f.descriptor && f.descriptor.length > 0);
  measures.described_frames = described.length;
  const reasons: LivenessReason[] = [];
  const ref = [...described].sort((a, b) => poseDistance(a, base.yaw, base.pitch) - poseDistance(b, base.yaw, base.pitch))[0];
  if (described.length < t.minDescribedFrames || !ref?.descriptor) {
    reasons.push('different_person');
  } else {
    const worst = Math.max(...described.map((f) => distance(ref.descriptor as number[], f.descriptor as number[])));
    measures.max_frame_distance = round(worst);
    if (worst > t.samePersonMaxDistance) reasons.push('different_person');
  }
  if (opts.portraitDescriptor) {
    const portrait = opts.portraitDescriptor;
    const best = described.length ? Math.min(...described.map((f) => distance(portrait, f.descriptor as number[]))) : Number.POSITIVE_INFINITY;
    measures.portrait_distance = round(best);
    if (!(best <= t.portraitMaxDistance)) reasons.push('portrait_mismatch');
  }
  return reasons;
}

/**
 * The 3-D check. The reference frame is the one nearest the resting pose; every frame whose pose
 * differs from it by minPoseChangeDegrees is fitted with one homography from the reference landmarks.
 * A picture, however turned, tilted, slid or seen in perspective, is explained by it (residual under
 * flatResidual); a head shows parallax between the nose and the outline. Too little head motion to
 * judge is refused too: nothing else separates a head from a picture.
 */
function checkDepth(frames: FrameObservation[], base: Baseline, t: LivenessThresholds, measures: Record<string, number>): LivenessReason[] {
  const marked = frames.filter((f) => f.faces === 1 && f.landmarks && f.landmarks.length >= 4 && f.yaw !== undefined && f.pitch !== undefined);
  const ref = [...marked].sort((a, b) => poseDistance(a, base.yaw, base.pitch) - poseDistance(b, base.yaw, base.pitch))[0];
  let posed = 0;
  let parallax = 0;
  let maxResidual = 0;
  let noseParallax = 0;
  const nose = landmarkIndex('nose_tip');
  let anyResidual = 0;
  if (ref?.landmarks) {
    for (const f of marked) {
      if (f.landmarks?.length !== ref.landmarks.length) continue;
      const { residual, perPoint } = homographyResidual(ref.landmarks as Point[], f.landmarks as Point[]);
      // Over every frame too (posed or not), so that the bench can show how far pictures stay from parallax.
      anyResidual = Math.max(anyResidual, residual);
      if (poseDistance(f, ref.yaw ?? 0, ref.pitch ?? 0) < t.minPoseChangeDegrees) continue;
      posed++;
      if (residual >= t.flatResidual) parallax++;
      maxResidual = Math.max(maxResidual, residual);
      noseParallax = Math.max(noseParallax, perPoint[nose] ?? 0);
    }
  }
  Object.assign(measures, { posed_frames: posed, parallax_frames: parallax, max_homography_residual: round(maxResidual, 4), max_homography_residual_any_frame: round(anyResidual, 4), nose_parallax: round(noseParallax, 4) });
  return posed < t.minPosedFrames || parallax < t.minParallaxFrames ? ['flat_motion'] : [];
}

/**
 * The stretches of a capture (ms after its first frame) where the check reads eye openness: each
 * blink window widened by blinkContextMs on both sides (the eyes' level around a frame is judged from
 * its neighbours). Empty when no blink is asked: the observer then spares the eye model, whose
 * readings nothing would use.
 */
export function eyeSpans(steps: readonly ChallengeStep[], context: number = LIVENESS_THRESHOLDS.blinkContextMs): [number, number][] {
  return steps.filter((s) => s.action === 'blink').map((s) => [s.windowMs[0] - context, s.windowMs[1] + context]);
}

/**
 * The server's check of one challenge's frames, as observed by the face models: pure, no I/O, so
 * that the bench and the unit tests judge exactly what the pipeline judges. Every failed check adds
 * its own reason; `measures` carries the figures behind them. The challenge store answers
 * `nonce_unknown` itself (there is no challenge to give here); this judges expiry and single use from
 * the record as read.
 */
export function verifyLiveness(challenge: LivenessChallenge, frames: FrameObservation[], opts: VerifyOptions): LivenessVerdict {
  const t: LivenessThresholds = { ...LIVENESS_THRESHOLDS, ...opts.thresholds };
  const measures: Record<string, number> = {};
  const reasons: LivenessReason[] = [];
  if (challenge.usedAt !== null) reasons.push('nonce_used');
  const now = Date.parse(opts.now);
  const expires = Date.parse(challenge.expiresAt);
  if (!(Number.isFinite(now) && Number.isFinite(expires) && now <= expires)) reasons.push('nonce_expired');

  if (frames.length > t.maxFrames) {
    measures.frames = frames.length;
    return { passed: false, reasons: [...reasons, 'timing_implausible'], measures };
  }
  reasons.push(...checkTiming(challenge, frames, t, measures));

  const single = frames.filter((f) => f.faces === 1);
  const multi = frames.filter((f) => f.faces > 1).length;
  measures.single_face_share = round(frames.length ? single.length / frames.length : 0);
  measures.multi_face_frames = multi;
  if (frames.length === 0 || single.length / frames.length < t.minSingleFaceShare || multi > t.maxMultiFaceFrames) reasons.push('no_single_face');

  const base: Baseline = {
    yaw: quantile(defined(single.map((f) => f.yaw)), 0.5),
    pitch: quantile(defined(single.map((f) => f.pitch)), 0.5),
    mouth: quantile(defined(single.map((f) => f.mouthOpen)), 0.25),
    eyeAround: eyeLevels(frames, t),
  };
  const yaws = defined(single.map((f) => f.yaw));
  const pitches = defined(single.map((f) => f.pitch));
  const mouths = defined(single.map((f) => f.mouthOpen));
  Object.assign(measures, {
    yaw_left_deg: round(yaws.length ? Math.max(...yaws) - base.yaw : 0, 1),
    yaw_right_deg: round(yaws.length ? base.yaw - Math.min(...yaws) : 0, 1),
    pitch_up_deg: round(pitches.length ? Math.max(...pitches) - base.pitch : 0, 1),
    eye_open_min_ratio: round(Math.min(1, ...single.map((f) => (f.eyeOpen ?? 1) / (base.eyeAround.get(f) || 1)))),
    mouth_open_rise: round(mouths.length ? Math.max(...mouths) - base.mouth : 0),
  });

  reasons.push(...checkActions(challenge, frames, base, t, measures));
  reasons.push(...checkIdentity(frames, base, opts, t, measures));
  reasons.push(...checkDepth(frames, base, t, measures));
  return { passed: reasons.length === 0, reasons, measures };
}
