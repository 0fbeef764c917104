import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { b64, pdf, png } from '../fixtures/images';
import { defaultBody, useTestRuntime } from '../integration/harness';
import { ARTIFACTS, useBrowser } from './browser';

const t = useTestRuntime();
const b = useBrowser();

describe('reviewer console in a real browser', () => {
  it('signs in with a token, finds a Double Check case, approves it and downloads the PDF report', async () => {
    // A near match on the surname sends the verification to Double Check.
    const v = (await t.api('POST', '/api/v1/default/verifications', defaultBody())).body.data.id as string;
    const photo = { person: { given_names: 'Ada', surname: 'Lovelase', date_of_birth: '1990-12-10' }, document: { number: 'P123', expiration_date: '2031-01-01' } };
    await t.api('POST', '/api/v1/default/documents', { verification: v, document: { context_type: 'PHOTO_ID', type: 1, country: 'GBR', front_side_data: b64(png(64, 40, 1, photo)) } });
    await t.api('POST', '/api/v1/default/documents', {
      verification: v,
      document: { context_type: 'PROOF_OF_ADDRESS', type: 4, country: 'USA', front_side_data: b64(pdf({ person: { full_name: 'Ada Lovelace' }, address: { full: '1 Main St Austin TX 78701', country: 'USA' } })) },
    });
    await t.api('PUT', `/api/v1/default/verifications/${v}/submit`);
    await t.h.runtime.idle();
    expect((await t.api('GET', `/api/v1/default/verifications/${v}`)).body.data.status_label).toBe('Double Check');

    const context = await b.browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    await page.goto(`${t.h.runtime.url}/console`);
    await page.fill('#token', t.h.runtime.token);
    await page.click('#signin button');
    await page.waitForSelector(`button[data-id="${v}"]`);
    expect(page.url()).not.toContain(t.h.runtime.token);
    await page.selectOption('#flow-filter', 'default');
    await page.waitForSelector(`button[data-id="${v}"]`);
    await page.selectOption('#status-filter', 'Double Check');
    await page.screenshot({ path: join(ARTIFACTS, 'console-1-list.png'), fullPage: true });
    await page.click(`button[data-id="${v}"]`);
    await page.waitForSelector('#detail-status');
    expect(await page.textContent('#detail-status')).toContain('Double Check');
    await page.screenshot({ path: join(ARTIFACTS, 'console-2-detail.png'), fullPage: true });

    await page.fill('#comment', 'Surname typo on the passport scan; identity confirmed.');
    await page.fill('#email', 'reviewer@example.com');
    await page.click('#action-approve');
    await page.waitForFunction(
      (id) => ((globalThis as unknown as { document: { getElementById(i: string): { textContent: string | null } | null } }).document.getElementById('detail-status')?.textContent ?? '').includes(`${id} — Approved`),
      v,
    );
    // Missing comment and e-mail: the API's 422 is shown, not swallowed.
    await page.fill('#comment', '');
    await page.click('#action-status');
    await page.waitForSelector('#error:not([hidden])');
    expect(await page.textContent('#error')).toMatch(/comment: is required/);
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('.doc button')]);
    const file = await download.path();
    expect(readFileSync(file!).subarray(0, 5).toString()).toBe('%PDF-');
    await page.screenshot({ path: join(ARTIFACTS, 'console-3-approved.png'), fullPage: true });
    // The deliberate 422 above is the only failed request; no script or CSP error.
    expect(errors.filter((e) => !e.includes('status of 422'))).toEqual([]);
    const history = (await t.api('GET', `/api/v1/default/verifications/${v}`)).body.data.history;
    expect(history[0]).toMatchObject({ to_status: 'Approved', user: 'reviewer@example.com' });
    await context.close();
  }, 60_000);
});
