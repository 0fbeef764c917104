import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import type { Page } from 'playwright-core';
import { LOCAL_BUCKET } from '../../local/runtime';
import { DynamoFaceLivenessSessions } from '../../src/adapters/dynamodb/face-liveness-sessions';
import { DynamoLivenessChallenges } from '../../src/adapters/dynamodb/liveness-challenges';
import { providerImagePrefix } from '../../src/app/liveness';
import { newChallenge } from '../../src/app/liveness-challenge';
import { DynamoTokenRepository } from '../../src/adapters/dynamodb/token-repository';
import { hashToken } from '../../src/app/tokens';
import { SANDBOX_KEYWORD } from '../../src/adapters/sandbox/payload';
import { b64, png } from '../fixtures/images';
import { defaultBody, useTestRuntime } from '../integration/harness';
import { ARTIFACTS, consoleAxeViolations, useBrowser } from './browser';

/** The little of the DOM the page functions below use (the test compiles without the DOM library). */
type Doc = {
  querySelectorAll(selector: string): { length: number };
  querySelector(selector: string): { textContent: string | null } | null;
  getElementById(id: string): { textContent: string | null } | null;
  documentElement: { scrollWidth: number };
};

const t = useTestRuntime();
const b = useBrowser();
const REVIEWER = 'grace.reviewer@example.com';
const REVIEWER_TOKEN = 'idv_console-reviewer-token';

/** A two-page utility bill with real text (pdf-lib, standard font), carrying the sandbox's extraction payload. */
async function utilityBill(): Promise<Buffer> {
  const { PDFDocument, StandardFonts } = await import('pdf-lib');
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const first = doc.addPage([420, 300]);
  ['AUSTIN ENERGY — Utility bill', 'Ada Lovelace', '1 Main St', 'Austin TX 78701', 'Amount due: USD 42.00'].forEach((line, i) => first.drawText(line, { x: 30, y: 250 - i * 30, size: 18, font }));
  doc.addPage([420, 300]).drawText('Page 2: usage details', { x: 30, y: 250, size: 18, font });
  const payload = { person: { full_name: 'Ada Lovelace' }, address: { full: '1 Main St Austin TX 78701', country: 'USA' } };
  return Buffer.concat([Buffer.from(await doc.save()), Buffer.from(`%${SANDBOX_KEYWORD}:${JSON.stringify(payload)}\n`, 'latin1')]);
}

/** A verification that processing sends to Double Check: a near match on the surname. */
async function doubleCheckCase(reference: string): Promise<string> {
  const v = (await t.api('POST', '/api/v1/default/verifications', { ...defaultBody(), vendor_reference: reference })).body.data.id as string;
  const photo = { person: { given_names: 'Ada', surname: 'Lovelase', date_of_birth: '1990-12-10' }, document: { number: 'P123', expiration_date: '2031-01-01' } };
  await t.api('POST', '/api/v1/default/documents', { verification: v, document: { context_type: 'PHOTO_ID', type: 1, country: 'GBR', front_side_data: b64(png(64, 40, 1, photo)) } });
  await t.api('POST', '/api/v1/default/documents', {
    verification: v,
    document: { context_type: 'PROOF_OF_ADDRESS', type: 4, country: 'USA', front_side_data: b64(await utilityBill()) },
  });
  await t.api('PUT', `/api/v1/default/verifications/${v}/submit`);
  return v;
}

/** Where an element sits in the viewport (typed loosely: this file has no DOM types). */
async function boxOf(page: Page, selector: string): Promise<{ left: number; right: number; top: number; bottom: number; vw: number; vh: number }> {
  return page.$eval(selector, (e) => {
    const r = (e as unknown as { getBoundingClientRect(): { left: number; right: number; top: number; bottom: number } }).getBoundingClientRect();
    const w = globalThis as unknown as { innerWidth: number; innerHeight: number };
    return { left: r.left, right: r.right, top: r.top, bottom: r.bottom, vw: w.innerWidth, vh: w.innerHeight };
  });
}

/**
 * The words of the cells under `selector` that the browser broke across lines ("Need|s revie|w"):
 * each word (between spaces, hyphens and slashes) measured with a Range; one broken has boxes on
 * two lines.
 */
async function brokenWords(page: Page, selector: string): Promise<string[]> {
  return page.evaluate((sel) => {
    const doc = (globalThis as unknown as { document: any }).document;
    const out: string[] = [];
    for (const cell of doc.querySelectorAll(sel)) {
      const walker = doc.createTreeWalker(cell, 4);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const text: string = node.textContent ?? '';
        for (const m of text.matchAll(/[^\s\-/]+/g)) {
          const range = doc.createRange();
          range.setStart(node, m.index ?? 0);
          range.setEnd(node, (m.index ?? 0) + m[0].length);
          const tops = new Set([...range.getClientRects()].filter((r: { width: number }) => r.width > 0).map((r: { top: number }) => Math.round(r.top)));
          if (tops.size > 1) out.push(m[0]);
        }
      }
    }
    return out;
  }, selector);
}

const text = (page: Page, selector: string) => page.textContent(selector).then((s) => s ?? '');

/** A reviewer signed in to the console in a fresh English page, its console errors and page errors collected. */
async function signedIn(token: string, viewport = { width: 1280, height: 800 }) {
  const context = await b.browser.newContext({ viewport, locale: 'en-GB' });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`${t.h.runtime.url}/console`);
  await page.fill('#token', token);
  await page.click('#signin button');
  return { context, page, errors };
}

async function expectAxeClean(page: Page): Promise<void> {
  expect(await consoleAxeViolations(page)).toEqual([]);
}

describe('reviewer console in a real browser', () => {
  it('reviews a Double Check case with shortcuts: needs-review queue, field comparison, PDF viewer, confirmation, list updated, axe-core clean', async () => {
    await new DynamoTokenRepository(t.h.runtime.doc, 'idv-local').put({ name: REVIEWER, hash: hashToken(REVIEWER_TOKEN), createdAt: 'now', reviewer: true });
    const older = await doubleCheckCase('crm-older');
    const newer = await doubleCheckCase('crm-newer');
    // Not in the queue: still Started.
    const started = (await t.api('POST', '/api/v1/default/verifications', { ...defaultBody(), vendor_reference: 'crm-started' })).body.data.id as string;
    await t.h.runtime.idle();
    for (const id of [older, newer]) expect((await t.api('GET', `/api/v1/default/verifications/${id}`)).body.data.status_label).toBe('Double Check');

    const context = await b.browser.newContext({ viewport: { width: 1440, height: 900 }, acceptDownloads: true, timezoneId: 'Europe/Paris', locale: 'en-GB' });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${t.h.runtime.url}/console`);
    await expectAxeClean(page);
    await page.fill('#token', REVIEWER_TOKEN);
    await page.click('#signin button');

    // The needs-review queue comes first, served by the API's status filter, newest first.
    await page.waitForSelector(`button[data-id="${newer}"]`);
    expect(page.url()).not.toContain(REVIEWER_TOKEN);
    expect(await text(page, '#who-name')).toBe(`Signed in as ${REVIEWER}`);
    expect(await text(page, '#queue-title')).toBe('Needs review');
    expect(await text(page, '#count')).toBe('2 verifications waiting for review');
    expect(await page.$$eval('#rows button[data-id]', (bs) => bs.map((x) => x.getAttribute('data-id')))).toEqual([newer, older]);
    expect(await page.$(`button[data-id="${started}"]`)).toBeNull();
    // Times carry their zone (Paris in winter: CET, written GMT+1 in en-GB).
    expect(await text(page, '#rows tr td')).toMatch(/CET|GMT\+1/);
    // Search: by reference prefix, through the API.
    await page.fill('#search', 'crm-old');
    await page.press('#search', 'Enter');
    await page.waitForFunction(() => (globalThis as unknown as { document: Doc }).document.querySelectorAll('#rows button[data-id]').length === 1);
    expect(await page.getAttribute('#rows button[data-id]', 'data-id')).toBe(older);
    await page.fill('#search', '');
    await page.press('#search', 'Enter');
    await page.waitForSelector(`button[data-id="${newer}"]`);
    // No sideways scrolling at 1440 px.
    expect(await page.evaluate(() => (globalThis as unknown as { document: Doc }).document.documentElement.scrollWidth)).toBeLessThanOrEqual(1440);
    await expectAxeClean(page);
    await page.screenshot({ path: join(ARTIFACTS, 'console-1-queue.png'), fullPage: true });

    // J opens the first case (the shortcuts are listed on the page).
    expect(await text(page, '.shortcuts')).toMatch(/J\s*Next case[\s\S]*K\s*Previous case[\s\S]*A\s*Approve[\s\S]*R\s*Reject/);
    await page.click('body');
    await page.keyboard.press('j');
    await page.waitForSelector('#detail-status');
    expect(await text(page, '#detail-status')).toBe('Ada Lovelace — Double Check');
    expect(await text(page, '.meta')).toContain('crm-newer');
    // Expected vs extracted, field by field: the surname's difference is marked, with the rule's reason.
    const surname = page.locator('table.rules tr', { hasText: 'Lovelase' }).first();
    expect(await surname.getAttribute('class')).toMatch(/review|failed/);
    expect(await surname.locator('mark').allTextContents()).toEqual(['c', 's']);
    expect((await surname.locator('td').last().textContent())?.length).toBeGreaterThan(3);
    // The viewer: the photo as an image, the utility bill (a PDF) drawn by pdf.js, zoom and rotate.
    await page.waitForSelector('.viewer img');
    await page.waitForSelector('.viewer canvas.pdf-page');
    expect(await page.getAttribute('.viewer .stage[data-pdf-pages]', 'data-pdf-pages')).toBe('2');
    // pdf.js drew the bill: the canvas is not blank.
    const inked = await page.locator('.viewer canvas.pdf-page').evaluate((c) => {
      const canvas = c as unknown as { width: number; height: number; getContext(k: '2d'): { getImageData(x: number, y: number, w: number, h: number): { data: Uint8ClampedArray } } };
      const { data } = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height);
      let dark = 0;
      for (let i = 0; i < data.length; i += 4) if (data[i]! < 128 && data[i + 3]! > 0) dark++;
      return dark;
    });
    expect(inked).toBeGreaterThan(100);
    await page.locator('.viewer').nth(1).screenshot({ path: join(ARTIFACTS, 'console-2b-pdf-viewer.png') });
    // PDF pages: the second one.
    const billViewer = page.locator('.viewer').nth(1);
    await billViewer.getByRole('button', { name: /^Next page/ }).click();
    await billViewer.locator('.page-text', { hasText: 'Page 2 of 2' }).waitFor();
    const photoViewer = page.locator('.viewer').first();
    await photoViewer.getByRole('button', { name: /^Rotate/ }).click();
    await photoViewer.getByRole('button', { name: /^Zoom in/ }).click();
    expect(await photoViewer.locator('img').evaluate((img) => (img as unknown as { style: { transform: string; width: string } }).style.transform)).toBe('rotate(90deg)');
    expect(await photoViewer.locator('.stage').getAttribute('aria-label')).toContain('zoom 125%, rotated 90°');
    expect(await page.evaluate(() => (globalThis as unknown as { document: Doc }).document.documentElement.scrollWidth)).toBeLessThanOrEqual(1440);
    await expectAxeClean(page);
    await page.screenshot({ path: join(ARTIFACTS, 'console-2-case.png'), fullPage: true });

    // J / K move between cases.
    await page.keyboard.press('j');
    await page.waitForFunction(() => ((globalThis as unknown as { document: Doc }).document.querySelector('.meta')?.textContent ?? '').includes('crm-older'));
    await page.keyboard.press('k');
    await page.waitForFunction(() => ((globalThis as unknown as { document: Doc }).document.querySelector('.meta')?.textContent ?? '').includes('crm-newer'));

    // A asks to confirm; a comment is required; the name of the token is who acts.
    await page.keyboard.press('a');
    await page.waitForSelector('#confirm[open]');
    expect(await text(page, '#confirm-title')).toBe('Approve this verification?');
    expect(await text(page, '#confirm-text')).toContain(`Recorded as ${REVIEWER}`);
    await expectAxeClean(page);
    await page.screenshot({ path: join(ARTIFACTS, 'console-3-confirm.png') });
    await page.click('#confirm-ok');
    expect(await text(page, '#confirm-error')).toContain('A comment is required');
    await page.fill('#confirm-comment', 'Surname typo on the passport scan; identity confirmed.');
    await page.click('#confirm-ok');
    await page.waitForFunction(() => ((globalThis as unknown as { document: Doc }).document.getElementById('detail-status')?.textContent ?? '').endsWith('Approved'));
    expect(await text(page, '#status')).toContain('Approved');
    const history = (await t.api('GET', `/api/v1/default/verifications/${newer}`)).body.data.history;
    expect(history[0]).toMatchObject({ to_status: 'Approved', user: REVIEWER, comment: 'Surname typo on the passport scan; identity confirmed.' });
    // The list was read again: one case left to review.
    expect(await text(page, '#count')).toBe('1 verification waiting for review');

    // R on the other case, but cancelled in the dialog: nothing changes.
    await page.keyboard.press('Escape');
    await page.keyboard.press('j');
    await page.waitForFunction(() => ((globalThis as unknown as { document: Doc }).document.querySelector('.meta')?.textContent ?? '').includes('crm-older'));
    await page.keyboard.press('r');
    await page.waitForSelector('#confirm[open]');
    await page.click('#confirm-cancel');
    expect(await page.$('#confirm[open]')).toBeNull();
    expect((await t.api('GET', `/api/v1/default/verifications/${older}`)).body.data.status_label).toBe('Double Check');
    // A status change asks to confirm too, saying what it reopens.
    await page.selectOption('#set-status', '1');
    await page.click('#action-status');
    expect(await text(page, '#confirm-text')).toContain('From Double Check to Started');
    await page.click('#confirm-cancel');

    // The report of the approved case still downloads (any status: it is in the list again).
    await page.keyboard.press('Escape');
    await page.selectOption('#status-filter', '');
    await page.waitForSelector(`button[data-id="${newer}"]`);
    await page.click(`button[data-id="${newer}"]`);
    await page.waitForFunction(() => ((globalThis as unknown as { document: Doc }).document.getElementById('detail-status')?.textContent ?? '').endsWith('Approved'));
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download PDF report' }).first().click()]);
    expect(readFileSync((await download.path())!).subarray(0, 5).toString()).toBe('%PDF-');

    // Sign out: the token is gone from the tab.
    await page.click('#signout');
    await page.waitForSelector('#signin:not([hidden])');
    expect(await page.evaluate(() => (globalThis as unknown as { sessionStorage: { getItem(key: string): string | null } }).sessionStorage.getItem('idvToken'))).toBeNull();
    // Another token reads cases but cannot act (no e-mail to type: actions need a reviewer token).
    await page.fill('#token', t.h.runtime.token);
    await page.click('#signin button');
    await page.waitForSelector('#notice:not([hidden])');
    expect(await text(page, '#who-name')).toContain('(read only)');
    await page.waitForSelector(`button[data-id="${older}"]`);
    await page.click('body');
    await page.keyboard.press('j');
    await page.waitForSelector('#detail-status');
    expect(await page.isDisabled('#action-approve')).toBe(true);
    await page.keyboard.press('a');
    expect(await page.$('#confirm[open]')).toBeNull();
    await expectAxeClean(page);
    await page.screenshot({ path: join(ARTIFACTS, 'console-4-read-only.png'), fullPage: true });
    // No script, CSP or network error on the way.
    expect(errors).toEqual([]);
    await context.close();
  }, 120_000);

  it('signs in on a page of its own: the product, what the page is for, the form centred, a refused token said in the form', async () => {
    const context = await b.browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-GB' });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${t.h.runtime.url}/console`);
    await page.waitForSelector('#signin');
    expect(await page.$$eval('h1', (hs) => hs.filter((h) => (h as unknown as { offsetParent: unknown }).offsetParent !== null).map((h) => h.textContent))).toEqual(['Sign in to the review console']);
    expect(await page.isVisible('text=Identity verification')).toBe(true);
    expect(await page.isVisible('#queue')).toBe(false);
    const panel = await boxOf(page, '.signin-panel');
    expect(Math.abs(panel.left - (panel.vw - panel.right))).toBeLessThanOrEqual(2);
    expect(Math.abs(panel.top - (panel.vh - panel.bottom))).toBeLessThanOrEqual(40);
    expect(panel.right - panel.left).toBeGreaterThanOrEqual(360);
    await expectAxeClean(page);
    await page.screenshot({ path: join(ARTIFACTS, 'console-0-signin.png'), fullPage: true });
    await page.fill('#token', 'idv_wrong');
    await page.click('#signin button');
    await page.waitForSelector('#signin-error:not([hidden])');
    expect(await text(page, '#signin-error')).toContain('not accepted');
    expect(await page.getAttribute('#token', 'aria-invalid')).toBe('true');
    await expectAxeClean(page);
    await page.screenshot({ path: join(ARTIFACTS, 'console-0b-signin-refused.png'), fullPage: true });
    expect(errors).toEqual([]);
    await context.close();
  }, 60_000);

  it('shows a case in words: labelled fields, whole words, differences marked only between values, the report offered only once approved', async () => {
    const name = 'ada.reviewer@example.com';
    const token = 'idv_console-labels-token';
    await new DynamoTokenRepository(t.h.runtime.doc, 'idv-local').put({ name, hash: hashToken(token), createdAt: 'now', reviewer: true });
    const id = await doubleCheckCase('crm-labels');
    await t.h.runtime.idle();
    const { context, page, errors } = await signedIn(token);
    await page.waitForSelector(`button[data-id="${id}"]`);
    await page.click(`button[data-id="${id}"]`);
    await page.waitForSelector('table.rules');

    // Labels, not dotted keys, in the comparison and in the data tables.
    const heads = await page.$$eval('table.rules tbody th, table.kv th', (ths) => ths.map((x) => x.textContent ?? ''));
    expect(heads).toContain('Last name');
    expect(heads).toContain('Date of birth');
    expect(heads.filter((h) => /^[a-z_]+(\.[a-z_*]+)+$/.test(h))).toEqual([]);
    // No word broken across lines ("Need|s revie|w", "Extracte|d").
    expect(await brokenWords(page, 'table.rules th, table.rules td, table.kv th, table.kv td')).toEqual([]);
    // The difference is marked between two values (the surname), not on the sources row (a condition, not a value).
    const surname = page.locator('table.rules tr', { hasText: 'Lovelase' }).first();
    expect(await surname.locator('mark').allTextContents()).toEqual(['c', 's']);
    const sources = page.locator('table.rules tr', { hasText: 'Sources compared' });
    expect(await sources.count()).toBeGreaterThan(0);
    expect(await sources.locator('mark').count()).toBe(0);
    // Double Check: the API gives no report before approval, so none is offered; the page says when it is.
    expect(await page.getByRole('button', { name: 'Download PDF report' }).count()).toBe(0);
    expect(await text(page, '#case')).toContain('The PDF report is available once the verification is approved.');
    await expectAxeClean(page);
    await page.screenshot({ path: join(ARTIFACTS, 'console-2c-case-labels.png'), fullPage: true });
    expect(errors).toEqual([]);
    await context.close();
  }, 120_000);
  it('shows a sanctions-screening hit beside the person\'s data, and clears it with a comment recorded in history', async () => {
    const name = 'screening.reviewer@example.com';
    const token = 'idv_console-screening-token';
    await new DynamoTokenRepository(t.h.runtime.doc, 'idv-local').put({ name, hash: hashToken(token), createdAt: 'now', reviewer: true });
    // A person of the repository's fictional UN test list (config/screening), read on a passport.
    const person = { first_name: 'Zakhar Mironovich', last_name: 'Pustovalov', date_of_birth: '1966-07-30' };
    const v = (await t.api('POST', '/api/v1/kyc-screened/verifications', { person, vendor_reference: 'crm-screened', documents: { photo_id: { type: 'Passport', number: 'R5550001', country: 'RUS' } } })).body.data.id as string;
    const photo = { person: { given_names: person.first_name, surname: person.last_name, date_of_birth: person.date_of_birth }, document: { number: 'R5550001', country_code: 'RUS', expiration_date: '2031-01-01' } };
    await t.api('POST', '/api/v1/kyc-screened/documents', { verification: v, document: { context_type: 'PHOTO_ID', type: 1, country: 'RUS', front_side_data: b64(png(64, 40, 1, photo)) } });
    await t.api('PUT', `/api/v1/kyc-screened/verifications/${v}/submit`);
    await t.h.runtime.idle();
    expect((await t.api('GET', `/api/v1/kyc-screened/verifications/${v}`)).body.data.status_label).toBe('Double Check');

    const { context, page, errors } = await signedIn(token);
    await page.waitForSelector(`button[data-id="${v}"]`);
    await page.click(`button[data-id="${v}"]`);
    // The hit, beside the comparison of the person's data: the listed name, list, reference, programme, score and reasons.
    const panel = page.locator('section.screening');
    await panel.waitFor();
    expect(await panel.locator('h4').textContent()).toBe('Sanctions screening: possible match');
    expect(await panel.locator('.hit-name').textContent()).toMatch(/PUSTOVALOV.*un-sc TSi\.001 \(Test\): score [01]\.\d\d/i);
    expect(await panel.locator('.reasons li').count()).toBeGreaterThan(0);
    expect(await page.locator('.doc-grid > div').nth(1).locator('section.screening + h4').textContent()).toBe('Expected and extracted');
    await expectAxeClean(page);
    await page.screenshot({ path: join(ARTIFACTS, 'console-4-screening-hit.png'), fullPage: true });

    // Clear: a comment is required, then the hit shows who cleared it, when and why; history records it.
    await panel.getByRole('button', { name: 'Clear hit un-sc TSi.001' }).click();
    await page.waitForSelector('#confirm[open]');
    expect(await text(page, '#confirm-title')).toBe('Clear this screening hit?');
    expect(await text(page, '#confirm-text')).toContain(`Recorded as ${name}`);
    await page.click('#confirm-ok');
    expect(await text(page, '#confirm-error')).toContain('A comment is required');
    await page.fill('#confirm-comment', 'Another person: different passport number and place of birth.');
    await page.click('#confirm-ok');
    await page.locator('section.screening .cleared').waitFor();
    expect(await text(page, 'section.screening .cleared')).toContain(`Cleared by ${name}`);
    expect(await page.locator('section.screening button').count()).toBe(0);
    expect(await text(page, '#status')).toContain('Hit un-sc TSi.001 cleared');
    const history = (await t.api('GET', `/api/v1/kyc-screened/verifications/${v}`)).body.data.history;
    expect(history[0]).toMatchObject({ user: name, from_status: 'Double Check', to_status: 'Double Check' });
    expect(history[0].comment).toContain('Another person: different passport number and place of birth.');
    await expectAxeClean(page);
    await page.screenshot({ path: join(ARTIFACTS, 'console-4b-screening-cleared.png'), fullPage: true });
    expect(errors).toEqual([]);
    await context.close();
  }, 120_000);

  it("shows a selfie's liveness check: Rekognition's reference and audit images with their alt texts, and the service's own challenge in words", async () => {
    const name = 'liveness.reviewer@example.com';
    const token = 'idv_console-liveness-token';
    await new DynamoTokenRepository(t.h.runtime.doc, 'idv-local').put({ name, hash: hashToken(token), createdAt: 'now', reviewer: true });
    const challenges = new DynamoLivenessChallenges(t.h.runtime.doc, 'idv-local');
    const sessions = new DynamoFaceLivenessSessions(t.h.runtime.doc, 'idv-local');
    const s3 = new S3Client({ region: 'us-east-1', endpoint: t.h.runtime.endpoints.s3, forcePathStyle: true, credentials: t.h.runtime.credentials, requestChecksumCalculation: 'WHEN_REQUIRED', responseChecksumValidation: 'WHEN_REQUIRED' });
    const FLOW = 'id-and-live-selfie';
    const withSelfie = async (reference: string) => {
      const { proof_of_address: _, ...documents } = defaultBody().documents;
      const v = (await t.api('POST', `/api/v1/${FLOW}/verifications`, { ...defaultBody(), documents, vendor_reference: reference })).body.data.id as string;
      const selfie = await t.api('POST', `/api/v1/${FLOW}/documents`, { verification: v, document: { context_type: 'SELFIE', type: 6, country: 'GBR', front_side_data: b64(png(48, 64, 3)) } });
      expect(selfie.status).toBe(201);
      return { v, doc: selfie.body.data.id as string };
    };
    const now = Date.now();

    // A completed Rekognition session bound to the SELFIE (as its completion leaves it), its images in the bucket.
    const rekognition = await withSelfie('crm-liveness-rekognition');
    const session = { ...newChallenge(rekognition.v, 'h', now - 60_000), steps: [], expiresAt: new Date(now + 120_000).toISOString() };
    expect(await challenges.issue(session, 0)).toBe(true);
    const sessionId = '0f8fad5b-d9cb-469f-a165-70867728950e';
    await sessions.attach(rekognition.v, session.nonce, { sessionHash: 'h', sessionId, region: 'eu-west-1' });
    const prefix = providerImagePrefix(rekognition.v, session.nonce);
    const result = { status: 'SUCCEEDED' as const, confidence: 72.5, referenceImageKey: `${prefix}/reference`, auditImageKeys: [1, 2, 3].map((i) => `${prefix}/audit-${i}`) };
    for (const [i, key] of [result.referenceImageKey, ...result.auditImageKeys].entries()) {
      await s3.send(new PutObjectCommand({ Bucket: LOCAL_BUCKET, Key: key, Body: png(48, 64, 10 + i), ContentType: 'image/png' }));
    }
    const completedAt = new Date(now - 30_000).toISOString().replace('Z', '000Z');
    expect(await sessions.complete(rekognition.v, session.nonce, { sessionHash: 'h', sessionId, completedAt, result, passed: false, reason: 'provider_low_confidence' })).toEqual({ completed: true });
    await challenges.bindDocument(rekognition.v, session.nonce, rekognition.doc);
    // The service's own challenge, refused by the check, the browser having named a virtual camera.
    const own = await withSelfie('crm-liveness-challenge');
    const c = newChallenge(own.v, 'h', now - 60_000);
    expect(await challenges.issue(c, 0)).toBe(true);
    const signals = { deviceLabel: 'OBS Virtual Camera', reportedFps: 30, virtualCameraLabel: true };
    await challenges.accept(own.v, c.nonce, { sessionHash: 'h', usedAt: new Date(now - 50_000).toISOString().replace('Z', '000Z'), frames: { keyPrefix: `${providerImagePrefix(own.v, c.nonce)}/frame-`, times: [0, 100, 200] }, signals });
    await challenges.bindDocument(own.v, c.nonce, own.doc);
    await challenges.recordVerdict(own.v, c.nonce, { passed: false, reasons: ['flat_motion'], measures: { frames: 3, homography_residual: 0.04 } });
    s3.destroy();
    // Through the API (every answer checked against the contract): signed links that open; a still selfie has none (404).
    const answered = await t.api('GET', `/api/v1/${FLOW}/documents/${rekognition.doc}/liveness`);
    expect(answered.status).toBe(200);
    expect(answered.body.data).toMatchObject({ provider: 'rekognition', status: 'SUCCEEDED', confidence: 72.5, verdict: { passed: false, reasons: ['provider_low_confidence'] } });
    for (const url of [answered.body.data.reference_image_url, ...answered.body.data.audit_image_urls]) expect((await fetch(url)).status).toBe(200);
    expect((await t.api('GET', `/api/v1/${FLOW}/documents/${own.doc}/liveness`)).body.data).toMatchObject({ provider: 'challenge', frames: 3, verdict: { reasons: ['flat_motion'] } });
    const still = await withSelfie('crm-liveness-still');
    expect(await t.api('GET', `/api/v1/${FLOW}/documents/${still.doc}/liveness`)).toMatchObject({ status: 404, body: { message: 'No liveness check made this document' } });

    const { context, page, errors } = await signedIn(token, { width: 1280, height: 900 });
    await page.waitForSelector('#status-filter');
    await page.selectOption('#status-filter', '');
    const open = async (reference: string, id: string) => {
      await page.fill('#search', reference);
      await page.press('#search', 'Enter');
      await page.waitForFunction((v) => {
        const doc = (globalThis as unknown as { document: Doc }).document;
        return doc.querySelectorAll('#rows button[data-id]').length === 1 && doc.querySelector(`#rows button[data-id="${v}"]`) !== null;
      }, id);
      await page.click(`button[data-id="${id}"]`);
      await page.waitForFunction(() => ((globalThis as unknown as { document: Doc }).document.getElementById('title')?.textContent ?? '').startsWith('Case '));
      expect(await text(page, '#title')).toBe('Case 1 of 1 on this page');
    };

    await open('crm-liveness-rekognition', rekognition.v);
    const panel = page.locator('section.liveness');
    await panel.locator('table.kv').waitFor();
    expect(await panel.locator('h4').textContent()).toBe('Liveness check');
    expect(await panel.locator('table.kv').textContent()).toContain('Refused: confidence under the threshold');
    // The reference image and the audit images, each shown from its signed link with an alt text that says what it is.
    const alts = ['Liveness reference image: the frame Amazon Rekognition compared with the ID', ...[1, 2, 3].map((n) => `Liveness audit image ${n} of 3, kept by Amazon Rekognition`)];
    await page.waitForFunction((n) => (globalThis as unknown as { document: Doc }).document.querySelectorAll('section.liveness .liveness-images img').length === n, alts.length);
    expect(await panel.locator('.liveness-images img').evaluateAll((imgs) => imgs.map((i) => i.getAttribute('alt')))).toEqual(alts);
    expect(await panel.locator('.liveness-images img').evaluateAll((imgs) => imgs.every((i) => (i.getAttribute('src') ?? '').startsWith('blob:')))).toBe(true);
    await expectAxeClean(page);
    await page.screenshot({ path: join(ARTIFACTS, 'console-5-liveness-rekognition.png'), fullPage: true });

    await page.click('#back');
    await open('crm-liveness-challenge', own.v);
    await panel.locator('table.kv').waitFor();
    const rows = await panel.locator('table.kv').textContent();
    expect(rows).toContain("The service's own challenge");
    expect(rows).toContain('Refused: flat motion (a picture moved as a plane)');
    expect(rows).toContain('OBS Virtual Camera, 30 fps — a known virtual camera: a signal, never decisive');
    expect(await panel.locator('img').count()).toBe(0);
    await expectAxeClean(page);
    expect(errors).toEqual([]);
    await context.close();
  }, 120_000);
});
