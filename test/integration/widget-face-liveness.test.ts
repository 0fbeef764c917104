import flowsFile from '../../config/flows.json';
import { generatedTexts } from '../../lib/served-files';
import { resolveFlows } from '../../src/domain/flow';
import { widgetCsp } from '../../src/web/widget';
import { defaultBody } from './harness';
import { FACE_LIVENESS_TARGET, REKOGNITION_FLOW, useFaceLivenessRuntime } from './face-liveness-runtime';

/**
 * The Rekognition mode's wiring under npm start, by HTTP: the page of a `rekognition` flow is served
 * with the policy that lets AWS's capture connect (Cognito in the pool's region, the streaming
 * endpoint of the sessions' region, AWS's face-model CDN, WebAssembly), the page of any other flow
 * with none of it, and the capture's bundle is served by the widget's asset route.
 */
const t = useFaceLivenessRuntime();
const AWS_HOSTS = ['https://cognito-identity.eu-west-1.amazonaws.com', 'wss://streaming-rekognition.eu-west-1.amazonaws.com', 'https://cdn.liveness.rekognition.amazonaws.com'];

/** The policy of a new verification's widget page in `flow`, and the shipped flow's page settings (the rekognition flow has the live-selfie flow's). */
async function pageOf(flow: string) {
  const passport = { person: { first_name: 'Ada', last_name: 'Lovelace', date_of_birth: '1990-12-10' }, documents: { photo_id: { type: 'Passport', number: 'P123', country: 'gbr' } } };
  const created = await t.api('POST', `/api/v1/${flow}/verifications`, flow === 'default' ? defaultBody() : passport);
  expect([flow, created.status]).toEqual([flow, 201]);
  const v = created.body.data;
  const page = await fetch(v.url);
  expect([flow, page.status]).toEqual([flow, 200]);
  const shipped = resolveFlows(flowsFile).find((f) => f.path === (flow === REKOGNITION_FLOW ? 'id-and-live-selfie' : flow));
  return { csp: page.headers.get('content-security-policy') ?? '', widget: shipped?.widget };
}

describe("the widget's Rekognition mode under npm start", () => {
  it("opens the page's policy to AWS's capture in a rekognition flow only", async () => {
    const rekognition = await pageOf(REKOGNITION_FLOW);
    expect(rekognition.csp).toBe(widgetCsp(rekognition.widget, FACE_LIVENESS_TARGET));
    for (const host of AWS_HOSTS) expect(rekognition.csp).toContain(host);
    expect(rekognition.csp).toContain("'wasm-unsafe-eval'");

    for (const flow of ['id-and-live-selfie', 'default']) {
      const other = await pageOf(flow);
      expect(other.csp).toBe(widgetCsp(other.widget));
      expect([flow, other.csp.includes('amazonaws.com'), other.csp.includes('wasm-unsafe-eval')]).toEqual([flow, false, false]);
    }
  });

  it('serves the capture bundle at /widget/face-liveness.js', async () => {
    const res = await fetch(`${t.h.runtime.url}/widget/face-liveness.js`);
    const body = await res.text();
    expect([res.status, res.headers.get('content-type'), res.headers.get('cache-control')]).toEqual([200, 'text/javascript; charset=utf-8', 'public, max-age=300']);
    expect(body === generatedTexts('src/web/face-liveness.ts')['face-liveness.js']).toBe(true);
  });
});
