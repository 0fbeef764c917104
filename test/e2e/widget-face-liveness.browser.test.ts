import { join } from 'node:path';
import type { Page, Route } from 'playwright-core';
import { b64, png } from '../fixtures/images';
import { FACE_LIVENESS_POOL, FACE_LIVENESS_TARGET, REKOGNITION_FLOW, useFaceLivenessRuntime } from '../integration/face-liveness-runtime';
import { ARTIFACTS, axeViolations, refuseCamera, useBrowser } from './browser';

/**
 * The widget's Rekognition mode in Chromium (fake camera): the selfie step's challenge answers with
 * an Amazon Rekognition Face Liveness session, the widget fetches the separate bundle, mounts AWS's
 * own component, and, AWS being out of reach here, says so plainly with the hand-off; nothing is
 * sent to the completion route and the verification gets no selfie, let alone a pass.
 *
 * The runtime is given the capture's settings as the stack gives them, and the flow is a `rekognition`
 * flow: the page, its policy and the bundle are the service's own. What stands in, and why: the
 * local runtime has no Rekognition (its challenge route says so), so the challenge's answer is the
 * one the deployed service gives (src/app/liveness.ts, with the identity pool the construct
 * creates). Every AWS host is cut off, as it is from this machine: nothing here pretends that AWS
 * answered.
 */
const FLOW = REKOGNITION_FLOW;
const SESSION = '2b9a2e0c-3a54-4a6c-9a55-5b2d8c6f1e07';

const t = useFaceLivenessRuntime();
const b = useBrowser();
const phone = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };

/** A verification of the liveness flow whose passport was given through the API: its link opens on the selfie. */
async function withPassport(): Promise<{ id: string; url: string }> {
  const v = (
    await t.api('POST', `/api/v1/${FLOW}/verifications`, {
      person: { first_name: 'Ada', last_name: 'Lovelace', date_of_birth: '1990-12-10' },
      documents: { photo_id: { type: 'Passport', number: 'P123', country: 'gbr' } },
    })
  ).body.data;
  const passport = { person: { given_names: 'Ada', surname: 'Lovelace', date_of_birth: '1990-12-10' }, document: { number: 'P123', country_code: 'GBR', expiration_date: '2031-01-01', type: 'P' } };
  const doc = await t.api('POST', `/api/v1/${FLOW}/documents`, { verification: v.id, document: { context_type: 'PHOTO_ID', type: 1, country: 'GBR', front_side_data: b64(png(8, 8, 1, passport)) } });
  expect(doc.status).toBe(201);
  return { id: v.id, url: v.url };
}

interface Seen {
  bundle: number;
  aws: string[];
  completions: number;
  /** Lets the AWS requests held so far fail (until then they hang, as on a slow network). */
  cutOff(): void;
}

/** The Rekognition mode as deployed, AWS unreachable (see the file's comment). */
async function rekognitionMode(page: Page): Promise<Seen> {
  let cutOff = () => {};
  const held = new Promise<void>((resolve) => {
    cutOff = resolve;
  });
  const seen: Seen = { bundle: 0, aws: [], completions: 0, cutOff };
  page.on('response', (response) => {
    if (new URL(response.url()).pathname === '/widget/face-liveness.js' && response.status() === 200) seen.bundle++;
  });
  await page.route('**/liveness/challenge', (route) =>
    route.fulfill({
      status: 201,
      json: { data: { provider: 'rekognition', session_id: SESSION, region: FACE_LIVENESS_TARGET.region, expires_at: new Date(Date.now() + 180_000).toISOString(), identity_pool_id: FACE_LIVENESS_POOL } },
    }),
  );
  await page.route('**/liveness/session/**', async (route) => {
    seen.completions++;
    await route.continue();
  });
  await page.route(/amazonaws\.com/, async (route: Route) => {
    seen.aws.push(new URL(route.request().url()).host);
    await held;
    await route.abort('internetdisconnected');
  });
  return seen;
}

describe("the widget's Rekognition mode (AWS's Face Liveness component)", () => {
  it('loads the separate bundle only in that mode, mounts the component accessibly, and says plainly that AWS cannot be reached: no pass', async () => {
    const v = await withPassport();
    const context = await b.browser.newContext({ ...phone, locale: 'en-GB' });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    const seen = await rekognitionMode(page);
    // What the page's policy refused, if anything: the component (React's style properties, its
    // adopted stylesheet, tfjs's WebAssembly from blob: URLs) must run under it as it is.
    await page.addInitScript(() => {
      const w = globalThis as any;
      w.idvRefused = [];
      w.document.addEventListener('securitypolicyviolation', (e: any) => w.idvRefused.push(`${e.violatedDirective} ${e.blockedURI}`));
    });
    // The page's own policy, as the page function sets it for a rekognition flow of a deployment with the capture's settings.
    const served = await page.goto(v.url);
    expect(served?.headers()['content-security-policy']).toContain('wss://streaming-rekognition.eu-west-1.amazonaws.com');
    await page.waitForSelector('#ctx-SELFIE-live-start');
    // The ordinary widget does not fetch it.
    expect(seen.bundle).toBe(0);
    expect(await page.evaluate(() => 'idvFaceLiveness' in globalThis)).toBe(false);

    await page.click('#ctx-SELFIE-live-start');
    // AWS's component, in the page's language (its displayText from the locale), asking Cognito for
    // credentials: as far as it gets without AWS ("Connecting…"; the start screen needs the stream).
    await page.waitForSelector('#ctx-SELFIE-live-aws [data-testid=liveness-detector]', { timeout: 30_000 });
    await page.waitForSelector('#ctx-SELFIE-live-aws video[data-testid=video][aria-label="Front camera picture for the video check"]', { state: 'attached' });
    await page.waitForSelector('#ctx-SELFIE-live-aws button[aria-label="Stop the video check"]');
    await page.waitForSelector('#ctx-SELFIE-live-aws :text("Connecting…")');
    expect(seen.bundle).toBe(1);
    expect(await page.getAttribute('#ctx-SELFIE-live-aws', 'aria-label')).toBe('Video check by Amazon Rekognition');
    expect(await page.textContent('#ctx-SELFIE-live-intro')).toContain('move your face into the oval');
    await page.screenshot({ path: join(ARTIFACTS, 'widget-phone-face-liveness-mounted.png'), fullPage: true });
    expect(await axeViolations(page)).toEqual([]);

    // AWS out of reach: a plain error where the person is, the phone offered, nothing sent.
    seen.cutOff();
    const error = await page.waitForSelector('#ctx-SELFIE-live-start-error', { timeout: 60_000 });
    expect(await error.textContent()).toBe('The video check could not reach its service, so nothing was checked. Try again, or continue on your phone.');
    expect(await page.isVisible('#ctx-SELFIE-live-handoff')).toBe(true);
    expect(await page.isVisible('#ctx-SELFIE-live-aws')).toBe(false);
    // It got no further than Cognito: no credentials, so no stream.
    expect([...new Set(seen.aws)]).toEqual(['cognito-identity.eu-west-1.amazonaws.com']);
    expect(seen.completions).toBe(0);
    await page.screenshot({ path: join(ARTIFACTS, 'widget-phone-face-liveness-unreachable.png'), fullPage: true });
    expect(await axeViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
    expect(await page.evaluate(() => (globalThis as any).idvRefused)).toEqual([]);

    const verification = (await t.api('GET', `/api/v1/${FLOW}/verifications/${v.id}`)).body.data;
    expect(verification.status_label).toBe('Started');
    expect(verification.documents.map((d: { document_type: { type_label: string } }) => d.document_type.type_label)).not.toContain('Selfie');
    await context.close();
  }, 180_000);

  it('says plainly that the camera is blocked and offers the phone when the browser refuses it to the component', async () => {
    const v = await withPassport();
    const context = await b.browser.newContext({ ...phone, locale: 'de-DE' });
    const page = await context.newPage();
    await refuseCamera(page);
    const seen = await rekognitionMode(page);
    seen.cutOff();
    await page.goto(v.url);
    await page.click('#ctx-SELFIE-live-start');
    const error = await page.waitForSelector('#ctx-SELFIE-live-start-error', { timeout: 60_000 });
    expect(await error.textContent()).toBe(
      'Die Kamera ist gesperrt: Ihr Browser erlaubt dieser Seite nicht, sie zu benutzen. Erlauben Sie die Kamera in den Browser-Einstellungen und versuchen Sie es erneut, oder machen Sie auf Ihrem Handy weiter.',
    );
    expect(seen.bundle).toBe(1);
    expect(seen.completions).toBe(0);
    await page.click('#ctx-SELFIE-live-handoff');
    expect(await page.isVisible('#handoff')).toBe(true);
    expect(await axeViolations(page)).toEqual([]);
    await context.close();
  }, 180_000);
});
