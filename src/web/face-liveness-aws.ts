/**
 * The Rekognition mode of the widget's selfie step (docs/explanation/liveness.md "Deployed option"),
 * its parts that need no browser: which AWS hosts the page may reach in that mode, and the temporary
 * credentials AWS's capture component streams with. The separate bundle (src/web/face-liveness.ts)
 * runs them in the page; the page function's Content-Security-Policy (src/web/widget.ts widgetCsp)
 * opens exactly these hosts, and only for a flow in that mode.
 */

/** What the widget is given to run AWS's component: the challenge's answer in a `rekognition` flow. */
export interface FaceLivenessTarget {
  sessionId: string;
  region: string;
  /**
   * The Cognito identity pool whose unauthenticated role may only call
   * rekognition:StartFaceLivenessSession (lib/face-liveness-identity.ts), in the stack's region.
   */
  identityPoolId: string;
}

/** A region name as AWS spells them (eu-west-1, us-gov-west-1); anything else never reaches a host name. */
export const AWS_REGION = /^[a-z]{2}(-[a-z]+)+-\d$/;

/** AWS's CDN for the face-detection model, which no npm package carries in the form the component loads. */
export const FACE_MODEL_ORIGIN = 'https://cdn.liveness.rekognition.amazonaws.com';

/** An identity pool id, `<region>:<uuid>`: the region is the pool's (the stack's), which may differ from Face Liveness's. */
const IDENTITY_POOL_ID = /^([a-z]{2}(?:-[a-z]+)+-\d):[0-9a-f-]{36}$/;

/** The region of an identity pool, from its id; throws on anything that is not one. */
export function identityPoolRegion(identityPoolId: string): string {
  const region = IDENTITY_POOL_ID.exec(identityPoolId)?.[1];
  if (region === undefined) throw new Error('not an identity pool id');
  return region;
}

/**
 * The origins the page reaches in the Rekognition mode, for `connect-src`: Cognito in the pool's
 * region (two calls for the credentials), Rekognition's streaming endpoint in the sessions' region (a
 * WebSocket), and AWS's CDN for the face model. Throws on a region or pool id that is not one (it
 * would otherwise be written into the page's policy).
 */
export function faceLivenessOrigins(target: Pick<FaceLivenessTarget, 'region' | 'identityPoolId'>): string[] {
  if (!AWS_REGION.test(target.region)) throw new Error(`not an AWS region: ${target.region}`);
  return [`https://cognito-identity.${identityPoolRegion(target.identityPoolId)}.amazonaws.com`, `wss://streaming-rekognition.${target.region}.amazonaws.com`, FACE_MODEL_ORIGIN];
}

/** Temporary credentials as the component's `credentialProvider` returns them. */
export interface TemporaryCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken: string;
  expiration?: Date;
}

type Fetch = (url: string, init: { method: string; headers: Record<string, string>; body: string }) => Promise<{ ok: boolean; status: number; json(): Promise<unknown> }>;

/** One call of Cognito's identity API (JSON 1.1, unsigned: the two calls of the unauthenticated flow need no credentials). */
async function cognitoCall(fetchFn: Fetch, region: string, action: 'GetId' | 'GetCredentialsForIdentity', body: Record<string, string>): Promise<Record<string, unknown>> {
  const response = await fetchFn(`https://cognito-identity.${region}.amazonaws.com/`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-amz-json-1.1', 'X-Amz-Target': `AWSCognitoIdentityService.${action}` },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`Cognito ${action} answered ${response.status}`);
  return (await response.json()) as Record<string, unknown>;
}

/**
 * Credentials of the identity pool's unauthenticated role, by Cognito's enhanced flow: GetId, then
 * GetCredentialsForIdentity. Two unsigned HTTPS calls instead of Amplify's Auth category or the
 * SDK's Cognito client (the bundle stays smaller; what the role may do is the pool's business, not
 * the page's). Throws when Cognito cannot be reached or answers without credentials.
 */
export async function cognitoCredentials(fetchFn: Fetch, identityPoolId: string): Promise<TemporaryCredentials> {
  const region = identityPoolRegion(identityPoolId);
  const { IdentityId } = await cognitoCall(fetchFn, region, 'GetId', { IdentityPoolId: identityPoolId });
  if (typeof IdentityId !== 'string') throw new Error('Cognito gave no identity');
  const { Credentials } = await cognitoCall(fetchFn, region, 'GetCredentialsForIdentity', { IdentityId });
  const c = (Credentials ?? {}) as Record<string, unknown>;
  if (typeof c.AccessKeyId !== 'string' || typeof c.SecretKey !== 'string' || typeof c.SessionToken !== 'string') throw new Error('Cognito gave no credentials');
  // Expiration: seconds since the epoch, as Cognito's JSON protocol gives timestamps.
  return { accessKeyId: c.AccessKeyId, secretAccessKey: c.SecretKey, sessionToken: c.SessionToken, ...(typeof c.Expiration === 'number' && { expiration: new Date(c.Expiration * 1000) }) };
}

/**
 * The three tfjs WebAssembly binaries by the names tfjs asks for, mapped to the URLs the bundle made
 * of the two it carries (the page is not cross-origin isolated, so tfjs never picks the threaded
 * build; it still wants an entry for it).
 */
export function wasmFileMap(plainUrl: string, simdUrl: string): Record<string, string> {
  return { 'tfjs-backend-wasm.wasm': plainUrl, 'tfjs-backend-wasm-simd.wasm': simdUrl, 'tfjs-backend-wasm-threaded-simd.wasm': simdUrl };
}
