/**
 * Challenges and performances for the liveness bench: the draw the server makes (its own drawSteps),
 * and what a person (or an attacker holding a picture)
 * does over time in answer to it. Seeded: the same seed gives the same sets.
 */
import { BURST_LIMITS } from '../../../src/app/liveness';
import { drawSteps } from '../../../src/app/liveness-challenge';
import { captureDone, capturePlan, FRAME_SIDE, frameDue } from '../../../src/web/liveness-capture';
import type { LivenessAction, LivenessChallenge } from '../../../src/domain/liveness/types';
import type { Hold, Pose } from './scenes';

/** Deterministic pseudo-random numbers in [0, 1) (mulberry32). */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
export const between = (random: () => number, lo: number, hi: number) => lo + (hi - lo) * random();
export const pick = <T>(random: () => number, xs: readonly T[]): T => xs[Math.floor(random() * xs.length)] as T;

/** A challenge as the server draws it (src/app/liveness-challenge.ts drawSteps), from the bench's seeded source. */
export function drawChallenge(random: () => number, nonce: string): LivenessChallenge {
  return benchChallenge(nonce, drawSteps((min, max) => min + Math.floor(random() * (max - min))));
}

const benchChallenge = (nonce: string, steps: LivenessChallenge['steps']): LivenessChallenge => ({ nonce, verificationId: 'bench', sessionHash: 'bench', steps, issuedAt: '2026-01-01T10:00:00.000Z', expiresAt: '2026-01-01T10:02:00.000Z', usedAt: null });

/** A challenge drawn as the server draws it, but of the sequence SEQUENCES[sequence] (the windows drawn from `random`). */
export function drawChallengeWith(random: () => number, nonce: string, sequence: number): LivenessChallenge {
  let first = true;
  const steps = drawSteps((min, max) => {
    if (first) {
      first = false;
      return sequence;
    }
    return min + Math.floor(random() * (max - min));
  });
  return benchChallenge(nonce, steps);
}

/** One action as performed: when it starts (ms after the first frame) and how far it goes. */
export interface Move {
  action: LivenessAction;
  at: number;
  amount: number;
}

/** Rises over `rise` ms, holds `hold`, falls over `fall`: 0..1. */
function envelope(ms: number, at: number, rise: number, hold: number, fall: number): number {
  const d = ms - at;
  if (d <= 0 || d >= rise + hold + fall) return 0;
  if (d < rise) return 0.5 - 0.5 * Math.cos((Math.PI * d) / rise);
  if (d < rise + hold) return 1;
  return 0.5 + 0.5 * Math.cos((Math.PI * (d - rise - hold)) / fall);
}

/** The moves answering a challenge's steps, in the order given, each starting 250–600 ms into its window. */
export function answer(random: () => number, steps: { action: LivenessAction; windowMs: [number, number] }[]): Move[] {
  return steps.map(({ action, windowMs }) => ({
    action,
    at: windowMs[0] + between(random, 250, 600),
    amount: action === 'turn_left' || action === 'turn_right' ? between(random, 28, 38) : action === 'look_up' || action === 'look_down' ? between(random, 20, 28) : between(random, 0.8, 1),
  }));
}

/** A head's pose at a time: the moves, a slow sway and drift, and sometimes an unprompted blink. */
export function headPose(moves: Move[], ms: number, sway: { phase: number; blinkAt: number }): Pose {
  const pose: Pose = {
    yaw: 2 * Math.sin(ms / 700 + sway.phase),
    pitch: 1.5 * Math.sin(ms / 900 + 2 * sway.phase),
    roll: 1.5 * Math.sin(ms / 1100 + sway.phase),
    dx: 4 * Math.sin(ms / 1300 + sway.phase),
    dy: 3 * Math.sin(ms / 1500 + sway.phase),
    eyesClosed: envelope(ms, sway.blinkAt, 70, 60, 100),
    mouthOpen: 0,
  };
  for (const m of moves) {
    if (m.action === 'turn_left') pose.yaw += m.amount * envelope(ms, m.at, 380, 300, 380);
    if (m.action === 'turn_right') pose.yaw -= m.amount * envelope(ms, m.at, 380, 300, 380);
    if (m.action === 'look_up') pose.pitch += m.amount * envelope(ms, m.at, 350, 300, 350);
    if (m.action === 'look_down') pose.pitch -= m.amount * envelope(ms, m.at, 350, 300, 350);
    if (m.action === 'blink') pose.eyesClosed = Math.max(pose.eyesClosed, m.amount * envelope(ms, m.at, 80, 80, 110));
    if (m.action === 'open_mouth') pose.mouthOpen = Math.max(pose.mouthOpen, m.amount * envelope(ms, m.at, 250, 400, 250));
  }
  return pose;
}

/**
 * How an attacker holds a printed card or a screen while answering: turning it for a turn, tilting
 * it back for "look up", a quick wobble for what a picture cannot do (blink, open the mouth); plus
 * the hand's drift, and for some tries a steady slide, a roll and a bend of the card.
 */
export function cardHold(moves: Move[], ms: number, style: { scale: number; bend: number; roll: number; slide: number; phase: number }): Hold {
  const hold: Hold = {
    yaw: 2 * Math.sin(ms / 600 + style.phase),
    pitch: 2 * Math.sin(ms / 800 + style.phase),
    roll: style.roll * Math.sin(ms / 900 + style.phase),
    dx: 5 * Math.sin(ms / 1000 + style.phase) + (style.slide * ms) / 1000,
    dy: 4 * Math.sin(ms / 1200 + style.phase),
    scale: style.scale,
    bend: style.bend,
  };
  for (const m of moves) {
    const e = envelope(ms, m.at, 380, 300, 380);
    if (m.action === 'turn_left') hold.yaw += m.amount * e;
    if (m.action === 'turn_right') hold.yaw -= m.amount * e;
    if (m.action === 'look_up') hold.pitch += m.amount * e;
    if (m.action === 'look_down') hold.pitch -= m.amount * e;
    // What a picture cannot do, faked: a quick tilt back (flattens the eyes) and a roll.
    if (m.action === 'blink' || m.action === 'open_mouth') {
      hold.pitch += 30 * envelope(ms, m.at, 120, 80, 120);
      hold.roll += 6 * envelope(ms, m.at, 150, 100, 150);
    }
  }
  return hold;
}

/**
 * Frame times as the widget takes them (capturePlan and frameDue of src/web/liveness-capture.ts, with
 * the limits a challenge gives) from a camera giving 24–30 pictures a second with a few ms of jitter:
 * as many frames as allowed (60), evenly spread, from 0 until just after the last window has closed.
 */
export function frameTimes(random: () => number, challenge: LivenessChallenge): number[] {
  const steps = challenge.steps.map((s) => ({ action: s.action, start_ms: s.windowMs[0], end_ms: s.windowMs[1] }));
  const plan = capturePlan(steps, BURST_LIMITS, FRAME_SIDE);
  const picture = 1000 / between(random, 24, 30);
  const times: number[] = [];
  for (let k = 0; ; k++) {
    const t = Math.round(k * picture + (k === 0 ? 0 : between(random, -3, 3)));
    if (captureDone(t, times.length, plan)) break;
    if (frameDue(t, times.length, plan)) times.push(t);
  }
  return times;
}
