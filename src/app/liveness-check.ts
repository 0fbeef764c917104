import type { DocumentRecord, VerificationAggregate } from '../domain/entities';
import { DEFAULT_CHECKS, type Flow, type LivenessRequirement } from '../domain/flow';
import { FACE_LIVENESS, judgeFaceLiveness } from '../domain/liveness/provider';
import type { LivenessVerdict } from '../domain/liveness/types';
import { verifyLiveness } from '../domain/liveness/verify';
import type { RuleResult } from '../domain/rules';
import type { LivenessChallengeRecord } from '../ports/liveness';
import type { Deps } from './deps';
import { challengeStore, type FaceLivenessDeps, providerOf } from './liveness';

/**
 * The challenge that made this SELFIE. Without a store (the shared in-memory fakes give none; every
 * function that evaluates names it) there is none: the rule then says not evaluated, never passed.
 */
function challengeOf(deps: Pick<Deps, 'liveness'>, doc: DocumentRecord): Promise<LivenessChallengeRecord | undefined> {
  return deps.liveness ? challengeStore(deps).forDocument(doc.verificationId, doc.id) : Promise.resolve(undefined);
}

const requirementOf = (flow: Flow): LivenessRequirement => ({ ...DEFAULT_CHECKS, ...flow.checks }).liveness ?? 'optional';

/** Only finite figures are kept (the item holds numbers; a NaN says nothing). */
function kept(verdict: LivenessVerdict): LivenessVerdict {
  const measures = Object.fromEntries(Object.entries(verdict.measures).filter(([, x]) => Number.isFinite(x)));
  return { passed: verdict.passed, reasons: [...verdict.reasons], measures };
}

/**
 * ExtractDocument's part: the frames of the challenge that made this SELFIE are observed by the
 * face models and judged (src/domain/liveness/verify.ts), with the ID portrait's descriptor when the
 * verification has a photo ID, and the verdict is recorded on the challenge with its reasons and
 * figures. The nonce is judged as it stood when the frames were accepted (unused, unexpired: the
 * conditional write checked it then). Nothing for a selfie made otherwise, a flow with liveness
 * off, or a deployment without an observer (the rule then says it was not evaluated).
 */
export async function observeChallenge(deps: Pick<Deps, 'liveness' | 'livenessObserver'>, flow: Flow, agg: VerificationAggregate, doc: DocumentRecord): Promise<void> {
  // A Rekognition flow's selfie was judged by Rekognition: its result was recorded when the widget completed the session.
  if (doc.contextType !== 'SELFIE' || requirementOf(flow) === 'off' || providerOf(flow) === 'rekognition' || !deps.livenessObserver) return;
  const challenge = await challengeOf(deps, doc);
  if (!challenge || challenge.usedAt === null || challenge.frames.length === 0) return;
  const photoId = agg.documents.find((d) => d.contextType === 'PHOTO_ID');
  const { frames, portraitDescriptor } = await deps.livenessObserver.observe(challenge.frames, challenge.steps, photoId?.front);
  const verdict = verifyLiveness({ ...challenge, usedAt: null }, frames, { now: challenge.usedAt, ...(portraitDescriptor && { portraitDescriptor }) });
  await challengeStore(deps).recordVerdict(doc.verificationId, challenge.nonce, kept(verdict));
}

const BASE = { name: 'selfie.liveness', expected: 'a live person following a server-drawn challenge' } as const;

function signalsNote(c: LivenessChallengeRecord): string {
  return c.signals?.virtualCameraLabel ? `; the browser named a virtual camera ("${c.signals.deviceLabel ?? ''}"): a signal for the reviewer` : '';
}

const STILL = { extracted: 'still image', result: 'not_evaluated', source: 'liveness' } as const;

const score = (confidence: number | null) => (confidence === null ? 'no confidence' : `confidence ${confidence.toFixed(1)}`);

/**
 * `selfie.liveness` in a flow whose liveness provider is `rekognition`: passes only when the session
 * that made this SELFIE finished SUCCEEDED with a confidence at least the configured threshold
 * (judgeFaceLiveness, the threshold of this function's deployment); any other result is review with
 * its named reason, never a pass. A selfie made otherwise is a still image, not evaluated.
 */
async function faceLivenessRule(deps: FaceLivenessDeps, doc: DocumentRecord, required: { required?: true }): Promise<RuleResult> {
  const expected = `a live person, by Amazon Rekognition Face Liveness (confidence at least ${deps.faceLivenessMinConfidence ?? FACE_LIVENESS.minConfidence})`;
  const base = { name: BASE.name, expected };
  if (!deps.faceLivenessSessions) {
    return { ...base, ...STILL, extracted: 'not checked', reason: 'the Rekognition session behind the selfie could not be read: this function is not given its store', ...required };
  }
  const session = await deps.faceLivenessSessions.forDocument(doc.verificationId, doc.id);
  if (!session) return { ...base, ...STILL, reason: 'a still image: the selfie was not taken through Amazon Rekognition Face Liveness', ...required };
  const minConfidence = deps.faceLivenessMinConfidence ?? FACE_LIVENESS.minConfidence;
  const judged = judgeFaceLiveness(session.result, minConfidence);
  const outcome = session.result ? `${session.result.status}, ${score(session.result.confidence)}` : 'no result recorded';
  const figures = { ...(typeof session.result?.confidence === 'number' && { score: session.result.confidence }), threshold: `pass >= ${minConfidence}` };
  if (judged.passed) {
    return { ...base, ...figures, extracted: 'live', result: 'passed', reason: `Amazon Rekognition Face Liveness: ${outcome} (at least ${minConfidence})`, source: 'liveness', ...required };
  }
  return {
    ...base,
    ...figures,
    extracted: `refused: ${judged.reason}`,
    result: 'review',
    reason: `Amazon Rekognition Face Liveness: ${outcome}; ${judged.reason}${judged.reason === 'provider_low_confidence' ? ` (under ${minConfidence})` : ''}`,
    source: 'liveness',
    ...required,
  };
}

/**
 * `selfie.liveness` (active liveness). Passes only from a challenge whose frames the check passed;
 * a selfie not made from a challenge (created through the API, or a file) is `not_evaluated`, and
 * so is one whose frames could not be checked; in a flow that requires liveness that result is
 * marked `required`, which sends the document to review, never to approval. A refused challenge
 * goes to review with the check's reasons (a person decides; the check is calibrated on a synthetic
 * genuine set, docs/explanation/liveness.md). The browser's camera signals are named in the reason, never
 * decisive. In a `rekognition` flow, Rekognition's recorded result decides instead (faceLivenessRule).
 * Undefined when the rule does not apply (not a selfie, liveness off).
 */
export async function livenessRule(deps: Pick<Deps, 'liveness'> & FaceLivenessDeps, doc: DocumentRecord, flow: Flow): Promise<RuleResult | undefined> {
  const requirement = requirementOf(flow);
  if (doc.contextType !== 'SELFIE' || requirement === 'off') return undefined;
  const required = requirement === 'required' ? { required: true as const } : {};
  if (providerOf(flow) === 'rekognition') return faceLivenessRule(deps, doc, required);
  const challenge = await challengeOf(deps, doc);
  if (!challenge) {
    return { ...BASE, extracted: 'still image', result: 'not_evaluated', reason: 'a still image: the selfie was not taken through a liveness challenge', source: 'liveness', ...required };
  }
  const verdict = challenge.verdict;
  if (!verdict) {
    return { ...BASE, extracted: 'not checked', result: 'not_evaluated', reason: 'the challenge\'s frames were not checked: this deployment has no face observer', source: 'liveness', ...required };
  }
  const actions = challenge.steps.map((s) => s.action).join(', ');
  const frames = verdict.measures.frames ?? challenge.frames.length;
  if (verdict.passed) {
    return { ...BASE, extracted: 'live', result: 'passed', reason: `the challenge (${actions}) was followed live in ${frames} frames${signalsNote(challenge)}`, source: 'liveness', ...required };
  }
  return {
    ...BASE,
    extracted: `refused: ${verdict.reasons.join(', ')}`,
    result: 'review',
    reason: `the challenge (${actions}) was refused: ${verdict.reasons.join(', ')}${signalsNote(challenge)}`,
    source: 'liveness',
    ...required,
  };
}
