import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { generatedTexts } from '../../../lib/served-files';
import { cognitoCredentials, faceLivenessOrigins, identityPoolRegion, wasmFileMap } from '../../../src/web/face-liveness-aws';
import { completeFaceLiveness, faceLivenessDisplayText, faceLivenessProblem, livenessProvider } from '../../../src/web/liveness-capture';
import { widgetCsp } from '../../../src/web/widget';
import { pageFunction } from './page-functions';

/**
 * The widget's Rekognition mode (AWS's Face Liveness component in a separate bundle): which capture
 * a challenge leads to, the completion call, what the component's errors mean to the person, the
 * credentials it streams with, the page's policy in that mode, and the bundle itself.
 */
const POOL = 'eu-west-1:0f1e2d3c-4b5a-6978-8a9b-0c1d2e3f4a5b';
const SESSION = '2b9a2e0c-3a54-4a6c-9a55-5b2d8c6f1e07';
/** The challenge's answers (src/app/liveness.ts issueLivenessChallenge), the Rekognition one with the pool the page asks Cognito with. */
const REKOGNITION_ANSWER = { provider: 'rekognition', session_id: SESSION, region: 'us-east-1', expires_at: '2026-11-27T10:03:00.000Z', identity_pool_id: POOL };
const CHALLENGE_ANSWER = { nonce: 'n1', expires_at: '2026-11-27T10:02:00.000Z', steps: [{ action: 'blink', start_ms: 300, end_ms: 1500 }], frames: {} };

describe('which capture the selfie step runs', () => {
  it("runs AWS's component when the service answers the challenge with a Rekognition session, and the guided capture otherwise", () => {
    expect(livenessProvider(REKOGNITION_ANSWER)).toBe('rekognition');
    expect(livenessProvider(CHALLENGE_ANSWER)).toBe('challenge');
    // No session to stream into: not the Rekognition mode, whatever the answer says it is.
    expect(livenessProvider({ provider: 'rekognition' })).toBe('challenge');
    expect(livenessProvider({ provider: 'rekognition', session_id: '' })).toBe('challenge');
    expect(livenessProvider(null)).toBe('challenge');
  });

  it('asks the service for the result of the session (never deciding it) with the SELFIE type it is filed as', async () => {
    const calls: unknown[][] = [];
    const made = await completeFaceLiveness(async (...args: unknown[]) => (calls.push(args), { id: 'doc-1' }), SESSION, { type: 7, country: 'GBR' });
    expect(calls).toEqual([['POST', `/liveness/session/${SESSION}`, { document: { type: 7, country: 'GBR' } }]]);
    expect(made).toEqual({ id: 'doc-1' });
    // An id is a path segment: never more than one.
    await completeFaceLiveness(async (...args: unknown[]) => calls.push(args), 'a/../b', { type: 7, country: 'GBR' });
    expect(calls[1]?.[1]).toBe('/liveness/session/a%2F..%2Fb');
  });

  it("says what the component's errors mean: the camera's with the hand-off, the service unreachable, a phone held sideways, a check to run again", () => {
    expect(faceLivenessProblem('CAMERA_ACCESS_ERROR')).toBe('denied');
    expect(faceLivenessProblem('DEFAULT_CAMERA_NOT_FOUND_ERROR')).toBe('absent');
    expect(faceLivenessProblem('CAMERA_FRAMERATE_ERROR')).toBe('failed');
    expect(faceLivenessProblem('MOBILE_LANDSCAPE_ERROR')).toBe('landscape');
    for (const state of ['TIMEOUT', 'FRESHNESS_TIMEOUT', 'FACE_DISTANCE_ERROR', 'MULTIPLE_FACES_ERROR']) expect([state, faceLivenessProblem(state)]).toEqual([state, 'retry']);
    for (const state of ['CONNECTION_TIMEOUT', 'SERVER_ERROR', 'RUNTIME_ERROR', undefined, 'SOMETHING_NEW']) expect([state, faceLivenessProblem(state)]).toEqual([state, 'service']);
  });

  it("gives the component its texts in each of the page's languages, under the component's own keys", () => {
    const known = readFileSync(require.resolve('@aws-amplify/ui-react-liveness').replace(/index\.js$/, join('esm', 'components', 'FaceLivenessDetector', 'displayText.mjs')), 'utf8');
    const keys = (lang: string) => Object.keys(faceLivenessDisplayText(JSON.parse(readFileSync(join(__dirname, '..', '..', '..', 'src', 'web', 'locales', `widget.${lang}.json`), 'utf8')))).sort();
    const en = keys('en');
    expect(en.length).toBeGreaterThan(20);
    for (const key of en) expect([key, known.includes(`${key}:`)]).toEqual([key, true]);
    for (const lang of ['es', 'fr', 'de']) expect([lang, keys(lang)]).toEqual([lang, en]);
  });
});

describe('the page runs this very code', () => {
  const served = generatedTexts('src/web/asset-texts.ts')['widget.js'] ?? '';
  const embedded = (name: string) => pageFunction(served, name);
  it('embeds the mode, the error meanings and the completion call as functions standing on their own', async () => {
    expect(embedded('livenessProvider')(REKOGNITION_ANSWER)).toBe('rekognition');
    expect(embedded('livenessProvider')(CHALLENGE_ANSWER)).toBe('challenge');
    expect(embedded('faceLivenessProblem')('CAMERA_ACCESS_ERROR')).toBe('denied');
    const calls: unknown[][] = [];
    await embedded('completeFaceLiveness')(async (...args: unknown[]) => calls.push(args), SESSION, { type: 7, country: 'GBR' });
    expect(calls).toEqual([['POST', `/liveness/session/${SESSION}`, { document: { type: 7, country: 'GBR' } }]]);
    expect(embedded('faceLivenessDisplayText')({ 'live.aws.text.hintTooFarText': 'Näher heran', 'live.start': 'x' })).toEqual({ hintTooFarText: 'Näher heran' });
  });
});

describe('the credentials the component streams with', () => {
  type Call = { url: string; target: string; body: unknown };
  const cognito = (answers: { ok: boolean; status: number; body: unknown }[]) => {
    const calls: Call[] = [];
    const fetchFn = async (url: string, init: { method: string; headers: Record<string, string>; body: string }) => {
      calls.push({ url, target: init.headers['X-Amz-Target'] ?? '', body: JSON.parse(init.body) });
      const a = answers.shift() ?? { ok: false, status: 500, body: {} };
      return { ok: a.ok, status: a.status, json: async () => a.body };
    };
    return { calls, fetchFn };
  };

  it("asks the identity pool's region for an identity, then for its role's credentials", async () => {
    const { calls, fetchFn } = cognito([
      { ok: true, status: 200, body: { IdentityId: 'eu-west-1:id-1' } },
      { ok: true, status: 200, body: { IdentityId: 'eu-west-1:id-1', Credentials: { AccessKeyId: 'ASIA1', SecretKey: 's', SessionToken: 't', Expiration: 1_795_000_000 } } },
    ]);
    expect(await cognitoCredentials(fetchFn, POOL)).toEqual({ accessKeyId: 'ASIA1', secretAccessKey: 's', sessionToken: 't', expiration: new Date(1_795_000_000_000) });
    expect(calls).toEqual([
      { url: 'https://cognito-identity.eu-west-1.amazonaws.com/', target: 'AWSCognitoIdentityService.GetId', body: { IdentityPoolId: POOL } },
      { url: 'https://cognito-identity.eu-west-1.amazonaws.com/', target: 'AWSCognitoIdentityService.GetCredentialsForIdentity', body: { IdentityId: 'eu-west-1:id-1' } },
    ]);
  });

  it('fails (the component then reports an error, never a pass) when Cognito refuses, answers without credentials, or the pool id is not one', async () => {
    await expect(cognitoCredentials(cognito([{ ok: false, status: 400, body: {} }]).fetchFn, POOL)).rejects.toThrow('Cognito GetId answered 400');
    await expect(cognitoCredentials(cognito([{ ok: true, status: 200, body: { IdentityId: 'x' } }, { ok: true, status: 200, body: {} }]).fetchFn, POOL)).rejects.toThrow('Cognito gave no credentials');
    await expect(cognitoCredentials(cognito([]).fetchFn, 'evil.example/x:0f1e2d3c-4b5a-6978-8a9b-0c1d2e3f4a5b')).rejects.toThrow('not an identity pool id');
  });

  it('maps the three tfjs binaries to the two the bundle carries (the page is never cross-origin isolated)', () => {
    expect(wasmFileMap('blob:a', 'blob:b')).toEqual({ 'tfjs-backend-wasm.wasm': 'blob:a', 'tfjs-backend-wasm-simd.wasm': 'blob:b', 'tfjs-backend-wasm-threaded-simd.wasm': 'blob:b' });
  });
});

describe("the page's Content-Security-Policy in the Rekognition mode", () => {
  it("opens Cognito in the pool's region, the sessions' streaming endpoint, the face model's CDN and tfjs's WebAssembly, only in that mode", () => {
    const policy = widgetCsp({}, { region: 'us-east-1', identityPoolId: POOL });
    expect(policy).toContain("script-src 'self' 'wasm-unsafe-eval';");
    expect(policy).toContain(
      "connect-src 'self' blob: https://cognito-identity.eu-west-1.amazonaws.com wss://streaming-rekognition.us-east-1.amazonaws.com https://cdn.liveness.rekognition.amazonaws.com;",
    );
    expect(policy).toContain("default-src 'none'");
    const ordinary = widgetCsp({});
    expect(ordinary).toContain("script-src 'self';");
    expect(ordinary).toContain("connect-src 'self';");
    expect(ordinary).not.toMatch(/amazonaws|wasm/);
  });

  it('writes no host into the policy from a region or pool id that is not one', () => {
    expect(() => faceLivenessOrigins({ region: 'us-east-1 https://evil.example', identityPoolId: POOL })).toThrow('not an AWS region');
    expect(() => widgetCsp({}, { region: 'us-east-1', identityPoolId: "eu-west-1:x'; script-src *" })).toThrow('not an identity pool id');
    expect(identityPoolRegion(POOL)).toBe('eu-west-1');
  });
});

describe("the Rekognition mode's bundle (/widget/face-liveness.js)", () => {
  const bundle = generatedTexts('src/web/face-liveness.ts')['face-liveness.js'] ?? '';
  it("is built for the browser with AWS's component, its styles and the tfjs binaries inside, and registers its mount", () => {
    expect(bundle).toContain('idvFaceLiveness');
    // The two tfjs WebAssembly binaries (base64 of "\0asm", version 1) and the component's stylesheet.
    expect(bundle.match(/"AGFzbQEAAAA/g)).toHaveLength(2);
    expect(bundle).toContain('amplify-liveness');
    // Under Lambda's 6 MB response, with room.
    expect(bundle.length).toBeLessThan(4_000_000);
  });

  it('is not in the ordinary widget: the widget only names it', () => {
    const widget = generatedTexts('src/web/asset-texts.ts')['widget.js'] ?? '';
    expect(widget).toContain('face-liveness.js');
    expect(widget).not.toContain('AGFzbQEAAAA');
    expect(widget.length).toBeLessThan(200_000);
  });
});
