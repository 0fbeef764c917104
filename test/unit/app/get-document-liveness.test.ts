import { createDocument } from '../../../src/app/create-document';
import { createVerification } from '../../../src/app/create-verification';
import { getDocumentLiveness } from '../../../src/app/get-document-liveness';
import { issueLivenessChallenge } from '../../../src/app/liveness';
import { newChallenge } from '../../../src/app/liveness-challenge';
import { completeFaceLivenessSession } from '../../../src/app/liveness-session';
import { sessionToken } from '../../../src/app/tokens';
import { NotFoundError, WrongFlowError } from '../../../src/domain/errors';
import { DEFAULT_CHECKS, type Flow } from '../../../src/domain/flow';
import { safeParse } from 'valibot';
import { DocumentLivenessSchema } from '../../../src/http/document-liveness-schema';
import { b64, png } from '../../fixtures/images';
import { FixedClock, fakeDeps, REQ, type StaticFlows } from '../../fakes/in-memory';
import { InMemoryLiveness, ScriptedFaceLiveness } from '../../fakes/liveness';

const T0 = '2026-11-27T10:00:00.000000Z';
const SELFIE = { type: 6, country: 'GBR' };

async function setup(provider: 'challenge' | 'rekognition') {
  const fakes = fakeDeps();
  const flows = fakes.deps.flows as StaticFlows;
  const base = flows.flows.find((f) => f.path === 'id-and-live-selfie') as Flow;
  const flow: Flow = { ...base, path: `live-${provider}`, checks: { ...DEFAULT_CHECKS, ...base.checks, liveness: 'required', liveness_provider: provider } };
  flows.flows.push(flow);
  const store = new InMemoryLiveness();
  const rekognition = new ScriptedFaceLiveness();
  const deps = { ...fakes.deps, clock: new FixedClock(T0), liveness: store, faceLiveness: rekognition, faceLivenessSessions: store.sessions };
  const v = await createVerification(deps, REQ, flow.path, { person: { first_name: 'Ada', last_name: 'Lovelace' } });
  return { ...fakes, deps, flow, store, rekognition, v, token: sessionToken(deps.sessionSecret, v.id) };
}

describe('what the liveness check behind a SELFIE showed (GET /api/v1/{flow}/documents/{documentId}/liveness)', () => {
  it('gives a Rekognition session\'s status and confidence, a signed link to its reference image and to at most 4 audit images', async () => {
    const { deps, flow, token, rekognition, v } = await setup('rekognition');
    const { session_id } = (await issueLivenessChallenge(deps, token)) as { session_id: string };
    rekognition.finish(session_id, 'SUCCEEDED', 97.5, { bytes: png(8, 8, 1) }, [1, 2, 3, 4, 5].map((i) => ({ bytes: png(8, 8, 10 + i) })));
    const selfie = await completeFaceLivenessSession(deps, token, session_id, { document: SELFIE });
    const shown = await getDocumentLiveness(deps, flow.path, selfie.id);
    expect(shown).toMatchObject({ provider: 'rekognition', session_id, completed_at: T0, status: 'SUCCEEDED', confidence: 97.5, verdict: { passed: true, reasons: [], measures: { confidence: 97.5 } } });
    if (shown.provider !== 'rekognition') throw new Error('expected a Rekognition session');
    // Signed links valid 30 minutes, as url_front; the keys under the verification's liveness folder.
    expect(safeParse(DocumentLivenessSchema, shown).issues).toBeUndefined();
    const link = (name: string) => expect.stringMatching(new RegExp(`^https://blobs\\.test/documents/${v.id}/liveness-[^/]+/${name}\\?expires=1800$`));
    expect(shown.reference_image_url).toEqual(link('reference'));
    expect(shown.audit_image_urls).toEqual([1, 2, 3, 4].map((i) => link(`audit-${i}`)));
  });

  it("gives the service's own challenge: the actions and windows, the frames, the verdict with its reasons and measures, the camera signals; no frame is linked", async () => {
    const { deps, flow, store, v } = await setup('challenge');
    const doc = await createDocument(deps, flow.path, { verification: v.id, document: { context_type: 'SELFIE', ...SELFIE, front_side_data: b64(png(8, 8, 2)) } });
    const c = newChallenge(v.id, 'h', Date.parse(T0)); // issued_at stored in milliseconds, answered in microseconds
    await store.issue(c, 0);
    const signals = { deviceLabel: 'OBS Virtual Camera', reportedFps: 30, virtualCameraLabel: true };
    await store.accept(v.id, c.nonce, { sessionHash: 'h', usedAt: '2026-11-27T10:00:05.000000Z', frames: { keyPrefix: `documents/${v.id}/liveness-${c.nonce}/frame-`, times: [0, 100, 200] }, signals });
    await store.bindDocument(v.id, c.nonce, doc.id);
    await store.recordVerdict(v.id, c.nonce, { passed: false, reasons: ['flat_motion'], measures: { frames: 3, homography_residual: 0.04 } });
    const shown = await getDocumentLiveness(deps, flow.path, doc.id);
    expect(shown).toEqual({
      provider: 'challenge',
      issued_at: T0,
      completed_at: '2026-11-27T10:00:05.000000Z',
      steps: c.steps.map((s) => ({ action: s.action, start_ms: s.windowMs[0], end_ms: s.windowMs[1] })),
      frames: 3,
      verdict: { passed: false, reasons: ['flat_motion'], measures: { frames: 3, homography_residual: 0.04 } },
      signals: { device_label: 'OBS Virtual Camera', reported_fps: 30, virtual_camera_label: true },
    });
    expect(JSON.stringify(shown)).not.toContain('frame-');
    expect(safeParse(DocumentLivenessSchema, shown).issues).toBeUndefined();
  });

  it('answers 404 for a still selfie and for a document of another kind, 404 for no document, 400 for another flow', async () => {
    const { deps, flow, v } = await setup('challenge');
    const still = await createDocument(deps, flow.path, { verification: v.id, document: { context_type: 'SELFIE', ...SELFIE, front_side_data: b64(png(8, 8, 3)) } });
    await expect(getDocumentLiveness(deps, flow.path, still.id)).rejects.toThrow(new NotFoundError('No liveness check made this document'));
    await expect(getDocumentLiveness({ ...deps, liveness: undefined }, flow.path, still.id)).rejects.toBeInstanceOf(NotFoundError);
    await expect(getDocumentLiveness(deps, flow.path, 'doc_unknown')).rejects.toThrow('Document not found');
    await expect(getDocumentLiveness(deps, 'id-and-live-selfie', still.id)).rejects.toBeInstanceOf(WrongFlowError);
  });
});
