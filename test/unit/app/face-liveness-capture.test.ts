import { createVerification } from '../../../src/app/create-verification';
import type { FaceLivenessCapture } from '../../../src/app/deps';
import { issueLivenessChallenge } from '../../../src/app/liveness';
import { sessionToken } from '../../../src/app/tokens';
import { sessionStatus } from '../../../src/app/widget';
import { loadConfig } from '../../../src/config';
import { DEFAULT_CHECKS, type Flow } from '../../../src/domain/flow';
import { fakeDeps, FixedClock, REQ, type StaticFlows } from '../../fakes/in-memory';
import { InMemoryLiveness, ScriptedFaceLiveness } from '../../fakes/liveness';

/**
 * What the widget's Rekognition-mode capture is told, and by whom: the challenge's answer carries the
 * identity pool it gets its credentials from, and the page's status says where it will connect (the
 * page function opens its policy to exactly that), both from the `faceLivenessCapture` settings, and
 * only in a `rekognition` flow. Without them the capture is told nothing, and the widget says the
 * check cannot start there.
 */
const POOL = 'eu-west-1:0f1e2d3c-4b5a-6978-8a9b-0c1d2e3f4a5b';
const CAPTURE: FaceLivenessCapture = { region: 'eu-west-1', identityPoolId: POOL };

async function setup(capture: FaceLivenessCapture | null, provider: 'rekognition' | 'challenge' = 'rekognition') {
  const fakes = fakeDeps();
  const flows = fakes.deps.flows as StaticFlows;
  const base = flows.flows.find((f) => f.path === 'id-and-live-selfie') as Flow;
  const flow: Flow = { ...base, path: `id-and-${provider}`, checks: { ...DEFAULT_CHECKS, ...base.checks, liveness_provider: provider } };
  flows.flows.push(flow);
  const store = new InMemoryLiveness();
  const deps = { ...fakes.deps, clock: new FixedClock('2026-11-27T10:00:00.000Z'), liveness: store, faceLiveness: new ScriptedFaceLiveness(), faceLivenessSessions: store.sessions, faceLivenessCapture: capture };
  const v = await createVerification(deps, REQ, flow.path, { person: { first_name: 'Ada', last_name: 'Lovelace' } });
  return { deps, token: sessionToken(deps.sessionSecret, v.id) };
}

describe("the Rekognition-mode challenge's answer", () => {
  it('carries the identity pool the capture gets its credentials from', async () => {
    const { deps, token } = await setup(CAPTURE);
    expect(await issueLivenessChallenge(deps, token)).toEqual({
      provider: 'rekognition',
      session_id: expect.any(String),
      region: 'eu-west-1',
      expires_at: '2026-11-27T10:03:00.000Z',
      identity_pool_id: POOL,
    });
  });

  it('carries none where the deployment has no pool (the widget then says the check cannot start: no pass)', async () => {
    const { deps, token } = await setup(null);
    const answer = await issueLivenessChallenge(deps, token);
    expect(answer).toMatchObject({ provider: 'rekognition', region: 'eu-west-1' });
    expect(answer).not.toHaveProperty('identity_pool_id');
  });

  it("tells the service's own challenge nothing of it", async () => {
    const { deps, token } = await setup(CAPTURE, 'challenge');
    const answer = await issueLivenessChallenge(deps, token);
    expect(answer).toHaveProperty('steps');
    expect(JSON.stringify(answer)).not.toContain(POOL);
  });
});

describe("the page's status (what its policy opens)", () => {
  it('says where the capture connects in a rekognition flow of a deployment that has both settings', async () => {
    const { deps, token } = await setup(CAPTURE);
    expect(await sessionStatus(deps, token)).toEqual({ statusLabel: 'Started', widget: expect.any(Object), faceLiveness: CAPTURE });
  });

  it('says nothing of it in a flow with the service\'s own challenge, or without the settings', async () => {
    for (const [capture, provider] of [[CAPTURE, 'challenge'], [null, 'rekognition']] as const) {
      const { deps, token } = await setup(capture, provider);
      expect([provider, await sessionStatus(deps, token)]).toEqual([provider, { statusLabel: 'Started', widget: expect.any(Object) }]);
    }
  });
});

describe("the capture's settings (src/config.ts)", () => {
  // They are written into the page's policy as host names: a cold start with anything else fails, naming the setting.
  const env = { TABLE_NAME: 't', BUCKET_NAME: 'b', SESSION_SECRET: 's'.repeat(48) };

  it('are a region and an identity pool id, or absent', () => {
    expect(loadConfig({ ...env, REKOGNITION_LIVENESS_REGION: 'eu-west-1', REKOGNITION_LIVENESS_IDENTITY_POOL_ID: POOL })).toMatchObject({ REKOGNITION_LIVENESS_REGION: 'eu-west-1', REKOGNITION_LIVENESS_IDENTITY_POOL_ID: POOL });
    expect(loadConfig(env).REKOGNITION_LIVENESS_IDENTITY_POOL_ID).toBeUndefined();
    for (const bad of ['eu-west-1 https://evil.example', 'https://evil.example', '']) expect(() => loadConfig({ ...env, REKOGNITION_LIVENESS_REGION: bad })).toThrow(/REKOGNITION_LIVENESS_REGION/);
    for (const bad of ['0f1e2d3c-4b5a-6978-8a9b-0c1d2e3f4a5b', `${POOL} https://evil.example`, 'eu-west-1:*']) expect(() => loadConfig({ ...env, REKOGNITION_LIVENESS_IDENTITY_POOL_ID: bad })).toThrow(/REKOGNITION_LIVENESS_IDENTITY_POOL_ID/);
  });
});
