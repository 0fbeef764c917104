import { randomInt } from 'node:crypto';
import { drawSteps, SEQUENCES, isVirtualCameraLabel, LIVENESS_LIMITS, limitedUntil, newChallenge, newNonce, nonceIssuedAtMs, nonceProblem } from '../../../src/app/liveness-challenge';
import { LIVENESS_ACTIONS } from '../../../src/domain/liveness/types';
import type { LivenessChallengeRecord } from '../../../src/ports/liveness';

const T0 = Date.parse('2026-11-27T10:00:00.000Z');

function record(issuedAtMs: number, over: Partial<LivenessChallengeRecord> = {}): LivenessChallengeRecord {
  return {
    ...newChallenge('ver_1', 'hash-1', issuedAtMs),
    frames: [],
    documentId: null,
    signals: null,
    verdict: null,
    ...over,
  };
}

describe('drawing a challenge', () => {
  const draws = Array.from({ length: 2000 }, () => drawSteps());

  it('asks for 3 of the known actions, never the same twice in a row', () => {
    for (const steps of draws) {
      expect(steps).toHaveLength(3);
      steps.forEach((s, i) => i === 0 || expect(s.action).not.toBe(steps[i - 1]?.action));
      for (const s of steps) expect(LIVENESS_ACTIONS).toContain(s.action);
    }
  });

  it('gives windows that follow each other, each long enough to act in, all within the burst', () => {
    for (const steps of draws) {
      let previousEnd = 0;
      for (const [i, { windowMs }] of steps.entries()) {
        const [start, end] = windowMs;
        if (i === 0) expect(start).toBeGreaterThanOrEqual(200);
        else expect(start).toBe(previousEnd);
        expect(end - start).toBeGreaterThanOrEqual(1200);
        previousEnd = end;
      }
      expect(previousEnd).toBeLessThanOrEqual(LIVENESS_LIMITS.maxDurationMs);
    }
  });

  it('varies the actions, their order and the windows from draw to draw, uniformly over 114 sequences', () => {
    const sequences = new Set(draws.map((s) => s.map((x) => x.action).join(',')));
    // 6·5·5 triples without an action twice in a row, less the 4·3·3 with no head turn: a replayed
    // recording meets its own sequence again once in 114 draws; every one shows up in 2,000 draws.
    expect(SEQUENCES).toHaveLength(6 * 5 * 5 - 4 * 3 * 3);
    expect(sequences.size).toBe(114);
    const counts = [...sequences].map((seq) => draws.filter((s) => s.map((x) => x.action).join(',') === seq).length);
    expect(Math.max(...counts)).toBeLessThan(40);
    expect(draws.every((s) => s.some((x) => x.action === 'turn_left' || x.action === 'turn_right'))).toBe(true);
    expect(new Set(draws.map((s) => s[0]?.windowMs[0])).size).toBeGreaterThan(100);
    expect(new Set(draws.map((s) => s[s.length - 1]?.windowMs[1])).size).toBeGreaterThan(100);
  });

  it('takes its randomness from the source it is given (crypto by default)', () => {
    const calls: [number, number][] = [];
    const lowest = (min: number, max: number) => {
      calls.push([min, max]);
      return min;
    };
    expect(drawSteps(lowest)).toEqual([
      { action: 'turn_left', windowMs: [200, 1400] },
      { action: 'turn_right', windowMs: [1400, 2600] },
      { action: 'turn_left', windowMs: [2600, 3800] },
    ]);
    expect(calls[0]).toEqual([0, 114]);
    expect(drawSteps((min, max) => randomInt(min, max))).toHaveLength(3);
  });

  it('binds the challenge to its verification and session for two minutes, unused', () => {
    const c = newChallenge('ver_1', 'hash-1', T0);
    expect(c).toMatchObject({ verificationId: 'ver_1', sessionHash: 'hash-1', issuedAt: '2026-11-27T10:00:00.000Z', expiresAt: '2026-11-27T10:02:00.000Z', usedAt: null });
  });
});

describe('nonces', () => {
  it('are unguessable and sort by issue time', () => {
    const nonces = Array.from({ length: 1000 }, (_, i) => newNonce(T0 + i * 1000));
    expect(new Set(nonces).size).toBe(1000);
    expect([...nonces].sort()).toEqual(nonces);
    expect(newNonce(T0)).not.toBe(newNonce(T0));
    expect(nonces.map(nonceIssuedAtMs)).toEqual(nonces.map((_, i) => T0 + i * 1000));
  });

  it('are refused when not of ours', () => {
    for (const bad of ['', 'abc', `${newNonce(T0)}x`, '0000000000aaaaaaaaaaaaaaaaaaaaaaa!']) expect(nonceIssuedAtMs(bad)).toBeNaN();
  });

  it('are usable once, before they expire, by the session they were issued to', () => {
    const c = record(T0);
    expect(nonceProblem(c, 'hash-1', T0 + 1000)).toBeNull();
    expect(nonceProblem(undefined, 'hash-1', T0)).toBe('nonce_unknown');
    expect(nonceProblem(c, 'another-session', T0)).toBe('nonce_unknown');
    expect(nonceProblem(c, 'hash-1', T0 + LIVENESS_LIMITS.ttlMs - 1)).toBeNull();
    expect(nonceProblem(c, 'hash-1', T0 + LIVENESS_LIMITS.ttlMs)).toBe('nonce_expired');
    expect(nonceProblem({ ...c, usedAt: '2026-11-27T10:00:30.000Z' }, 'hash-1', T0 + 40_000)).toBe('nonce_used');
  });
});

describe('the failed-challenge limit', () => {
  const used = { usedAt: '2026-11-27T10:00:10.000Z' };

  it('allows 5 failed challenges in 3 minutes, then says when the oldest leaves the window', () => {
    const four = [0, 10, 20, 30].map((s) => record(T0 + s * 1000));
    expect(limitedUntil(four, T0 + 40_000)).toBeNull();
    const five = [...four, record(T0 + 40_000)];
    expect(limitedUntil(five, T0 + 50_000)).toBe(T0 + LIVENESS_LIMITS.windowMs);
    expect(limitedUntil(five, T0 + LIVENESS_LIMITS.windowMs + 1)).toBeNull();
  });

  it('does not count challenges whose frames were accepted and not refused', () => {
    const mixed = [record(T0, used), record(T0 + 1000, used), record(T0 + 2000), record(T0 + 3000), record(T0 + 4000), record(T0 + 5000)];
    expect(limitedUntil(mixed, T0 + 6000)).toBeNull();
  });

  it('counts challenges whose frames the check refused', () => {
    const refused = { ...used, verdict: { passed: false, reasons: ['flat_motion' as const], measures: {} } };
    const five = [0, 1, 2, 3, 4].map((s) => record(T0 + s * 1000, refused));
    expect(limitedUntil(five, T0 + 5000)).toBe(T0 + LIVENESS_LIMITS.windowMs);
  });
});

describe('virtual camera hints', () => {
  it('recognises common virtual cameras by their label', () => {
    for (const label of ['OBS Virtual Camera', 'ManyCam Virtual Webcam', 'Snap Camera', 'v4l2loopback device']) expect(isVirtualCameraLabel(label)).toBe(true);
    for (const label of ['FaceTime HD Camera', 'Integrated Webcam (0bda:58f4)', null]) expect(isVirtualCameraLabel(label)).toBe(false);
  });
});
