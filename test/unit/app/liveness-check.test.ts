import { livenessRule, observeChallenge } from '../../../src/app/liveness-check';
import { newChallenge } from '../../../src/app/liveness-challenge';
import type { DocumentRecord, VerificationAggregate } from '../../../src/domain/entities';
import { DEFAULT_CHECKS, type Flow, type LivenessRequirement } from '../../../src/domain/flow';
import type { FrameObservation, LivenessVerdict } from '../../../src/domain/liveness/types';
import { overall } from '../../../src/domain/rules';
import type { LivenessChallengeRecord, LivenessChallenges, LivenessObserver } from '../../../src/ports/liveness';

const selfie = { id: 'doc_s', verificationId: 'ver_1', contextType: 'SELFIE', front: { key: 'k-s' } } as unknown as DocumentRecord;
const photoId = { id: 'doc_p', verificationId: 'ver_1', contextType: 'PHOTO_ID', front: { key: 'k-p' } } as unknown as DocumentRecord;
const agg = { verification: { id: 'ver_1' }, documents: [photoId, selfie], history: [] } as unknown as VerificationAggregate;
const flow = (liveness: LivenessRequirement) => ({ path: 'f', checks: { ...DEFAULT_CHECKS, liveness } }) as Flow;

const ISSUED = Date.parse('2026-11-27T10:00:00.000Z');
function challenge(over: Partial<LivenessChallengeRecord> = {}): LivenessChallengeRecord {
  return { ...newChallenge('ver_1', 'h', ISSUED), usedAt: '2026-11-27T10:00:20.000Z', frames: [{ key: 'f0', t: 0 }], documentId: 'doc_s', signals: null, verdict: null, ...over };
}

/** The store as far as the rule reads it: the challenge bound to the selfie, and the verdicts recorded. */
function store(found: LivenessChallengeRecord | undefined) {
  const recorded: LivenessVerdict[] = [];
  const liveness = {
    forDocument: async (_v: string, documentId: string) => (found?.documentId === documentId ? found : undefined),
    recordVerdict: async (_v: string, _n: string, verdict: LivenessVerdict) => {
      recorded.push(verdict);
    },
  } as unknown as LivenessChallenges;
  return { liveness, recorded };
}

const passed: LivenessVerdict = { passed: true, reasons: [], measures: { frames: 48 } };
const refused: LivenessVerdict = { passed: false, reasons: ['flat_motion', 'portrait_mismatch'], measures: { frames: 48 } };

describe('selfie.liveness', () => {
  it('is not evaluated for a still selfie, and marked required when the flow requires liveness', async () => {
    const { liveness } = store(undefined);
    const optional = await livenessRule({ liveness }, selfie, flow('optional'));
    expect(optional).toMatchObject({ result: 'not_evaluated', reason: 'a still image: the selfie was not taken through a liveness challenge' });
    expect(optional).not.toHaveProperty('required');
    const required = await livenessRule({ liveness }, selfie, flow('required'));
    expect(required).toMatchObject({ result: 'not_evaluated', required: true });
    // Decides nothing when optional; sends to review, never approval, when required.
    const pass = { name: 'selfie_comparison', expected: '', extracted: '', result: 'passed' as const, reason: '' };
    expect(overall([pass, optional!])).toBe('passed');
    expect(overall([pass, required!])).toBe('review');
  });

  it('is not evaluated when the challenge\'s frames were not checked (no observer)', async () => {
    expect(await livenessRule(store(challenge()), selfie, flow('required'))).toMatchObject({ result: 'not_evaluated', reason: expect.stringContaining('not checked'), required: true });
  });

  it('passes only from a passed challenge, and sends a refused one to review with its reasons and the camera signals', async () => {
    expect(await livenessRule(store(challenge({ verdict: passed })), selfie, flow('required'))).toMatchObject({ result: 'passed', extracted: 'live' });
    const signals = { deviceLabel: 'OBS Virtual Camera', reportedFps: 30, virtualCameraLabel: true };
    const r = await livenessRule(store(challenge({ verdict: refused, signals })), selfie, flow('optional'));
    expect(r).toMatchObject({ result: 'review', extracted: 'refused: flat_motion, portrait_mismatch' });
    expect(r?.reason).toContain('virtual camera ("OBS Virtual Camera")');
    // A virtual camera named beside a passed challenge is a signal only.
    expect(await livenessRule(store(challenge({ verdict: passed, signals })), selfie, flow('optional'))).toMatchObject({ result: 'passed' });
  });

  it('does not apply to other documents or when the flow turns it off', async () => {
    expect(await livenessRule(store(challenge({ verdict: passed })), photoId, flow('required'))).toBeUndefined();
    expect(await livenessRule(store(challenge({ verdict: passed })), selfie, flow('off'))).toBeUndefined();
  });
});

describe('observing a challenge in the pipeline', () => {
  const observed: FrameObservation[] = [{ t: 0, faces: 1, sha256: 'a' }];
  const observer = (portrait: number[] | undefined): LivenessObserver & { portraits: string[]; stepsSeen: unknown[] } => {
    const portraits: string[] = [];
    const stepsSeen: unknown[] = [];
    return {
      name: 'test',
      portraits,
      stepsSeen,
      observe: async (_frames, steps, ref) => {
        stepsSeen.push(steps);
        if (ref) portraits.push(ref.key);
        return { frames: observed, ...(ref && portrait && { portraitDescriptor: portrait }) };
      },
    };
  };

  it("hands the observer the challenge's steps, so it reads eyes and describes frames where the steps are", async () => {
    const c = challenge();
    const { liveness } = store(c);
    const o = observer([0.1, 0.2]);
    await observeChallenge({ liveness, livenessObserver: o }, flow('required'), agg, selfie);
    expect(o.stepsSeen).toEqual([c.steps]);
  });

  it('judges the frames as the nonce stood when they were accepted, with the ID portrait, and records the verdict', async () => {
    const { liveness, recorded } = store(challenge());
    const o = observer([0.1, 0.2]);
    await observeChallenge({ liveness, livenessObserver: o }, flow('required'), agg, selfie);
    expect(o.portraits).toEqual(['k-p']);
    expect(recorded).toHaveLength(1);
    // One frame is too few; neither "used" nor "expired": the nonce was fresh when the frames came.
    expect(recorded[0]?.reasons).toContain('too_few_frames');
    expect(recorded[0]?.reasons).not.toContain('nonce_used');
    expect(recorded[0]?.reasons).not.toContain('nonce_expired');
    expect(Object.values(recorded[0]?.measures ?? {}).every(Number.isFinite)).toBe(true);
  });

  it('does nothing for a still selfie, a flow with liveness off, or without an observer', async () => {
    for (const [found, f, o] of [[undefined, flow('required'), observer(undefined)], [challenge(), flow('off'), observer(undefined)], [challenge(), flow('required'), null]] as const) {
      const { liveness, recorded } = store(found);
      await observeChallenge({ liveness, livenessObserver: o }, f, agg, selfie);
      expect(recorded).toEqual([]);
    }
  });
});
