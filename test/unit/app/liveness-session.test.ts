import { createDocument } from '../../../src/app/create-document';
import { createVerification } from '../../../src/app/create-verification';
import { issueLivenessChallenge, removeLivenessFrames, submitLivenessFrames } from '../../../src/app/liveness';
import { LIVENESS_LIMITS } from '../../../src/app/liveness-challenge';
import { livenessRule } from '../../../src/app/liveness-check';
import { completeFaceLivenessSession } from '../../../src/app/liveness-session';
import { sessionToken } from '../../../src/app/tokens';
import { InvalidStateError, NotFoundError, ServiceUnavailableError, TooManyRequestsError } from '../../../src/domain/errors';
import { DEFAULT_CHECKS, type Flow, type LivenessRequirement } from '../../../src/domain/flow';
import { FaceLivenessSessionNotFoundError, judgeFaceLiveness } from '../../../src/domain/liveness/provider';
import { overall } from '../../../src/domain/rules';
import type { FaceLivenessResult } from '../../../src/ports/liveness';
import { b64, png } from '../../fixtures/images';
import { FixedClock, fakeDeps, REQ, type StaticFlows } from '../../fakes/in-memory';
import { InMemoryLiveness, ScriptedFaceLiveness } from '../../fakes/liveness';

const T0 = '2026-11-27T10:00:00.000Z';
const SELFIE = { type: 6, country: 'GBR' };

/** The shipped flow that requires a live selfie, with its liveness judged by Rekognition (and, for some tests, optional). */
function rekognitionFlow(flows: StaticFlows, liveness: LivenessRequirement = 'required', path = 'id-and-rekognition'): Flow {
  const base = flows.flows.find((f) => f.path === 'id-and-live-selfie') as Flow;
  const flow: Flow = { ...base, path, checks: { ...DEFAULT_CHECKS, ...base.checks, liveness, liveness_provider: 'rekognition' } };
  flows.flows.push(flow);
  return flow;
}

async function setup(options: { provider?: boolean; liveness?: LivenessRequirement; minConfidence?: number } = {}) {
  const fakes = fakeDeps();
  const flow = rekognitionFlow(fakes.deps.flows as StaticFlows, options.liveness);
  const store = new InMemoryLiveness();
  const rekognition = new ScriptedFaceLiveness();
  const clock = new FixedClock(T0);
  const deps = {
    ...fakes.deps,
    clock,
    liveness: store,
    faceLiveness: options.provider === false ? null : rekognition,
    faceLivenessSessions: store.sessions,
    ...(options.minConfidence !== undefined && { faceLivenessMinConfidence: options.minConfidence }),
  };
  const v = await createVerification(deps, REQ, flow.path, { person: { first_name: 'Ada', last_name: 'Lovelace' } });
  const token = sessionToken(deps.sessionSecret, v.id);
  return { ...fakes, deps, flow, store, rekognition, clock, v, token };
}

type Started = { provider: 'rekognition'; session_id: string; region: string; expires_at: string };

describe('a Rekognition flow\'s liveness session (POST /v/{token}/liveness/challenge)', () => {
  it('answers the Rekognition session and region instead of steps, valid 3 minutes, the session created for the challenge', async () => {
    const { deps, token, store, rekognition, v } = await setup();
    const started = (await issueLivenessChallenge(deps, token)) as Started;
    expect(started).toEqual({ provider: 'rekognition', session_id: rekognition.created[0]?.sessionId, region: 'eu-west-1', expires_at: '2026-11-27T10:03:00.000Z' });
    expect(started).not.toHaveProperty('nonce');
    const [item] = [...store.items.values()];
    // Idempotent on the challenge's nonce; the images go under the verification, in the challenge's own folder.
    expect(rekognition.created).toEqual([{ clientRequestToken: item?.challenge.nonce, imageKeyPrefix: `documents/${v.id}/liveness-${item?.challenge.nonce}`, sessionId: started.session_id }]);
    expect(item?.challenge.steps).toEqual([]);
    expect(item?.provider).toEqual({ sessionId: started.session_id, region: 'eu-west-1', result: null });
  });

  it('holds to the same limits as the challenge: 5 failed sessions in 3 minutes, then 429', async () => {
    const { deps, token, rekognition } = await setup();
    for (let i = 0; i < LIVENESS_LIMITS.maxFailed; i++) await issueLivenessChallenge(deps, token);
    await expect(issueLivenessChallenge(deps, token)).rejects.toBeInstanceOf(TooManyRequestsError);
    expect(rekognition.created).toHaveLength(LIVENESS_LIMITS.maxFailed);
  });

  it('says plainly that the deployment has no Rekognition Face Liveness (npm start), issuing nothing', async () => {
    const { deps, token, store } = await setup({ provider: false });
    const error = await issueLivenessChallenge(deps, token).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidStateError);
    expect((error as Error).message).toContain('not available in this deployment');
    expect(store.items.size).toBe(0);
  });

  it('answers 503 when Rekognition cannot create the session; the challenge issued counts as a failed attempt', async () => {
    const { deps, token, store, rekognition } = await setup();
    rekognition.failCreate = new ServiceUnavailableError();
    await expect(issueLivenessChallenge(deps, token)).rejects.toBeInstanceOf(ServiceUnavailableError);
    expect([...store.items.values()].map((i) => [i.challenge.usedAt, i.provider])).toEqual([[null, undefined]]);
  });

  it('refuses a burst of frames in a Rekognition flow', async () => {
    const { deps, token } = await setup();
    await expect(submitLivenessFrames(deps, token, { nonce: 'x', document: SELFIE, frames: [] })).rejects.toThrow("This flow's liveness check is Amazon Rekognition Face Liveness: frames are not accepted");
  });
});

describe('completing a Rekognition session (POST /v/{token}/liveness/session/{sessionId})', () => {
  const reference = png(8, 8, 7);
  const audit = png(8, 8, 8);

  async function started(options: Parameters<typeof setup>[0] = {}) {
    const s = await setup(options);
    const { session_id } = (await issueLivenessChallenge(s.deps, s.token)) as Started;
    const nonce = [...s.store.items.values()][0]?.challenge.nonce as string;
    return { ...s, sessionId: session_id, nonce, prefix: `documents/${s.v.id}/liveness-${nonce}` };
  }

  it('files the reference image as the SELFIE, keeps the audit images with the verification and records the result once', async () => {
    const { deps, token, sessionId, rekognition, blobs, store, prefix, v } = await started();
    rekognition.finish(sessionId, 'SUCCEEDED', 97.5, { bytes: reference }, [{ bytes: audit }]);
    const created = await completeFaceLivenessSession(deps, token, sessionId, { document: SELFIE });
    expect(created).toMatchObject({ context_type: 'SELFIE', status_label: 'Uploaded' });
    // Stored like any SELFIE's image: the face match against the ID reads it.
    const doc = (await deps.verifications.get(v.id))?.documents.find((d) => d.id === created.id);
    expect(Buffer.from(await blobs.get(doc?.front.key as string)).equals(reference)).toBe(true);
    expect(Buffer.from(await blobs.get(`${prefix}/reference`)).equals(reference)).toBe(true);
    expect(blobs.objects.get(`${prefix}/audit-1`)?.contentType).toBe('image/png');
    const session = await store.sessions.forDocument(v.id, created.id);
    expect(session).toMatchObject({ completedAt: T0, result: { status: 'SUCCEEDED', confidence: 97.5, referenceImageKey: `${prefix}/reference`, auditImageKeys: [`${prefix}/audit-1`] } });
    expect([...store.items.values()][0]?.challenge.verdict).toEqual({ passed: true, reasons: [], measures: { confidence: 97.5 } });
    // Once.
    await expect(completeFaceLivenessSession(deps, token, sessionId, { document: SELFIE })).rejects.toThrow('This liveness session was already completed: start a new check');
  });

  it('reads the reference image Rekognition wrote under the session\'s prefix, and takes no key outside it', async () => {
    const { deps, token, sessionId, rekognition, blobs, store, prefix, v } = await started();
    await blobs.put(`${prefix}/${sessionId}/reference.jpg`, reference, 'image/png');
    rekognition.finish(sessionId, 'SUCCEEDED', 99, { key: `${prefix}/${sessionId}/reference.jpg` }, [{ key: `${prefix}/${sessionId}/audit_images/1.jpg` }, { key: `documents/ver_other/doc/img-front` }]);
    const created = await completeFaceLivenessSession(deps, token, sessionId, { document: SELFIE });
    const session = await store.sessions.forDocument(v.id, created.id);
    expect(session?.result).toEqual({ status: 'SUCCEEDED', confidence: 99, referenceImageKey: `${prefix}/${sessionId}/reference.jpg`, auditImageKeys: [`${prefix}/${sessionId}/audit_images/1.jpg`] });
    // The purge removes what the session names.
    await removeLivenessFrames(deps, v.id);
    expect(blobs.objects.has(`${prefix}/${sessionId}/reference.jpg`)).toBe(false);
  });

  it('answers 503, recording nothing, when the reference image Rekognition names is not in the image store (yet)', async () => {
    const { deps, token, sessionId, rekognition, blobs, store, prefix } = await started();
    rekognition.finish(sessionId, 'SUCCEEDED', 99, { key: `${prefix}/${sessionId}/reference.jpg` });
    // The S3 store's answer for a key it does not hold.
    const notYet = Object.assign(Object.create(blobs) as typeof blobs, { get: async () => Promise.reject(new NotFoundError('Image not found')) });
    await expect(completeFaceLivenessSession({ ...deps, blobs: notYet }, token, sessionId, { document: SELFIE })).rejects.toBeInstanceOf(ServiceUnavailableError);
    expect([...store.items.values()][0]?.challenge.usedAt).toBeNull();
    await blobs.put(`${prefix}/${sessionId}/reference.jpg`, reference, 'image/png');
    await expect(completeFaceLivenessSession(deps, token, sessionId, { document: SELFIE })).resolves.toMatchObject({ context_type: 'SELFIE' });
  });

  it('files a FAILED check\'s reference image too (the pipeline sends it to review), counted as a failed attempt', async () => {
    const { deps, token, sessionId, rekognition, store } = await started();
    rekognition.finish(sessionId, 'FAILED', 12, { bytes: reference });
    await completeFaceLivenessSession(deps, token, sessionId, { document: SELFIE });
    expect([...store.items.values()][0]?.challenge.verdict).toEqual({ passed: false, reasons: ['provider_session_failed'], measures: { confidence: 12 } });
  });

  it('refuses a session id of another widget session, or not a session id, before asking Rekognition', async () => {
    const a = await started();
    // Another verification of the same flow, in the same store: its widget session cannot complete a's session.
    const other = await createVerification(a.deps, REQ, a.flow.path, { person: { first_name: 'Eve', last_name: 'X' } });
    await expect(completeFaceLivenessSession(a.deps, sessionToken(a.deps.sessionSecret, other.id), a.sessionId, { document: SELFIE })).rejects.toThrow('Unknown liveness session: start a new check');
    await expect(completeFaceLivenessSession(a.deps, a.token, '../../x', { document: SELFIE })).rejects.toThrow('Unknown liveness session');
    expect(a.rekognition.results.size).toBe(0);
  });

  it('records nothing for a check not finished, and completes once it is', async () => {
    const { deps, token, sessionId, rekognition, store } = await started();
    for (const status of ['CREATED', 'IN_PROGRESS'] as const) {
      rekognition.finish(sessionId, status, null, null);
      await expect(completeFaceLivenessSession(deps, token, sessionId, { document: SELFIE })).rejects.toThrow('This liveness check is not finished yet');
    }
    expect([...store.items.values()][0]?.challenge.usedAt).toBeNull();
    rekognition.finish(sessionId, 'SUCCEEDED', 95, { bytes: reference });
    await expect(completeFaceLivenessSession(deps, token, sessionId, { document: SELFIE })).resolves.toMatchObject({ context_type: 'SELFIE' });
  });

  it('records nothing when Rekognition does not answer (503, send again), and answers 400 for a session it no longer knows', async () => {
    const { deps, token, sessionId, rekognition, store } = await started();
    rekognition.results.set(sessionId, new ServiceUnavailableError());
    await expect(completeFaceLivenessSession(deps, token, sessionId, { document: SELFIE })).rejects.toBeInstanceOf(ServiceUnavailableError);
    rekognition.results.set(sessionId, new FaceLivenessSessionNotFoundError());
    await expect(completeFaceLivenessSession(deps, token, sessionId, { document: SELFIE })).rejects.toThrow('unknown or has expired: start a new check');
    expect([...store.items.values()][0]?.challenge.usedAt).toBeNull();
  });

  it('records an expired session, or one without a reference image, as a failed attempt and says to start again, with no SELFIE', async () => {
    for (const [result, message, reason] of [
      [['EXPIRED', null, null], 'This liveness session expired before the check finished', 'provider_session_expired'],
      [['SUCCEEDED', 99, null], 'The liveness check kept no picture of the face', 'provider_unavailable'],
    ] as const) {
      const { deps, token, sessionId, rekognition, store, v } = await started();
      rekognition.finish(sessionId, ...(result as unknown as [FaceLivenessResult['status'], number | null, null]));
      await expect(completeFaceLivenessSession(deps, token, sessionId, { document: SELFIE })).rejects.toThrow(message);
      const item = [...store.items.values()][0];
      expect(item?.challenge.usedAt).toBe(T0);
      expect(item?.challenge.verdict?.passed).toBe(false);
      expect(item?.challenge.verdict?.reasons).toEqual([reason]);
      expect((await deps.verifications.get(v.id))?.documents).toEqual([]);
    }
  });

  it('refuses when a SELFIE is already there, or the type is not a SELFIE type of the flow, without spending the session', async () => {
    const { deps, token, sessionId, rekognition, store, v, flow } = await started();
    rekognition.finish(sessionId, 'SUCCEEDED', 97, { bytes: reference });
    await expect(completeFaceLivenessSession(deps, token, sessionId, { document: { type: 1, country: 'GBR' } })).rejects.toThrow('is not a SELFIE document type');
    await createDocument(deps, flow.path, { verification: v.id, document: { context_type: 'SELFIE', ...SELFIE, front_side_data: b64(png()) } });
    await expect(completeFaceLivenessSession(deps, token, sessionId, { document: SELFIE })).rejects.toThrow('A SELFIE document already exists');
    expect([...store.items.values()][0]?.challenge.usedAt).toBeNull();
  });

  it('is refused in a flow whose liveness is the service\'s own challenge', async () => {
    const { deps, sessionId } = await started();
    const other = await createVerification(deps, REQ, 'id-and-live-selfie', { person: { first_name: 'A', last_name: 'B' } });
    await expect(completeFaceLivenessSession(deps, sessionToken(deps.sessionSecret, other.id), sessionId, { document: SELFIE })).rejects.toThrow("This flow's liveness check is the service's own challenge");
  });
});

describe('selfie.liveness in a Rekognition flow (the pipeline)', () => {
  async function completed(status: FaceLivenessResult['status'], confidence: number | null, options: Parameters<typeof setup>[0] = {}) {
    const s = await setup(options);
    const { session_id } = (await issueLivenessChallenge(s.deps, s.token)) as Started;
    s.rekognition.finish(session_id, status, confidence, { bytes: png(8, 8, 3) });
    const created = await completeFaceLivenessSession(s.deps, s.token, session_id, { document: SELFIE });
    const doc = (await s.deps.verifications.get(s.v.id))?.documents.find((d) => d.id === created.id);
    return { ...s, doc: doc as NonNullable<typeof doc> };
  }

  it('passes only a SUCCEEDED session at or above the threshold (90 by default)', async () => {
    const { deps, doc, flow } = await completed('SUCCEEDED', 90);
    const r = await livenessRule(deps, doc, flow);
    expect(r).toMatchObject({ name: 'selfie.liveness', result: 'passed', extracted: 'live', score: 90, threshold: 'pass >= 90', required: true });
    expect(r?.reason).toBe('Amazon Rekognition Face Liveness: SUCCEEDED, confidence 90.0 (at least 90)');
  });

  it.each([
    ['SUCCEEDED', 89.9, 'provider_low_confidence'],
    ['FAILED', 30, 'provider_session_failed'],
  ] as const)('sends %s (confidence %s) to review as %s, never a pass', async (status, confidence, reason) => {
    const { deps, doc, flow } = await completed(status, confidence);
    const r = await livenessRule(deps, doc, flow);
    expect(r).toMatchObject({ result: 'review', extracted: `refused: ${reason}`, score: confidence });
    expect(r?.reason).toContain(reason);
    expect(overall([{ name: 'selfie_comparison', expected: '', extracted: '', result: 'passed', reason: '' }, r!])).toBe('review');
  });

  it('takes the threshold it is configured with', async () => {
    const { deps, doc, flow } = await completed('SUCCEEDED', 85, { minConfidence: 80 });
    expect(await livenessRule(deps, doc, flow)).toMatchObject({ result: 'passed', threshold: 'pass >= 80' });
    expect(await livenessRule({ ...deps, faceLivenessMinConfidence: 95 }, doc, flow)).toMatchObject({ result: 'review', extracted: 'refused: provider_low_confidence' });
  });

  it('is review in a flow where liveness is optional too: a refused check is never ignored', async () => {
    const { deps, doc, flow } = await completed('FAILED', 5, { liveness: 'optional' });
    const r = await livenessRule(deps, doc, flow);
    expect(r).toMatchObject({ result: 'review' });
    expect(r).not.toHaveProperty('required');
  });

  it('judges an expired session, a missing result or a SUCCEEDED without confidence as named reasons, never a pass', () => {
    expect(judgeFaceLiveness({ status: 'EXPIRED', confidence: null }, 90)).toEqual({ passed: false, reason: 'provider_session_expired' });
    expect(judgeFaceLiveness(null, 90)).toEqual({ passed: false, reason: 'provider_unavailable' });
    expect(judgeFaceLiveness({ status: 'SUCCEEDED', confidence: null }, 90)).toEqual({ passed: false, reason: 'provider_unavailable' });
    expect(judgeFaceLiveness({ status: 'IN_PROGRESS', confidence: 99 }, 90)).toEqual({ passed: false, reason: 'provider_unavailable' });
    expect(judgeFaceLiveness({ status: 'SUCCEEDED', confidence: Number.NaN }, 0)).toEqual({ passed: false, reason: 'provider_unavailable' });
  });

  it('is review with provider_unavailable when the session bound to the selfie has no result', async () => {
    const { deps, doc, flow, store } = await completed('SUCCEEDED', 99);
    const item = [...store.items.values()][0];
    if (item?.provider) item.provider.result = null;
    expect(await livenessRule(deps, doc, flow)).toMatchObject({ result: 'review', extracted: 'refused: provider_unavailable', required: true });
  });

  it('does not evaluate a still selfie uploaded through the API: required, it sends to review', async () => {
    const { deps, flow, v } = await setup();
    const created = await createDocument(deps, flow.path, { verification: v.id, document: { context_type: 'SELFIE', ...SELFIE, front_side_data: b64(png()) } });
    const doc = (await deps.verifications.get(v.id))?.documents.find((d) => d.id === created.id);
    const r = await livenessRule(deps, doc!, flow);
    expect(r).toMatchObject({ result: 'not_evaluated', extracted: 'still image', required: true });
    expect(r?.reason).toBe('a still image: the selfie was not taken through Amazon Rekognition Face Liveness');
  });

  it('is not evaluated (required: review) when the function is not given the sessions\' store', async () => {
    const { deps, doc, flow } = await completed('SUCCEEDED', 99);
    const { faceLivenessSessions: _, ...without } = deps;
    expect(await livenessRule(without, doc, flow)).toMatchObject({ result: 'not_evaluated', extracted: 'not checked', required: true });
  });
});
