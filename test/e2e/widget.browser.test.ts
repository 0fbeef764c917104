import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pdf, png } from '../fixtures/images';
import { defaultBody, useTestRuntime } from '../integration/harness';
import { ARTIFACTS, useBrowser } from './browser';

/** The page's focused element, read in the page (typed loosely so this file needs no DOM types). */
type Focus = { document: { activeElement: { id: string; tagName: string; textContent: string | null } | null } };

const t = useTestRuntime();
const b = useBrowser();

describe('widget in a real browser', () => {
  it('lets a person upload both documents on a phone, submit, and see the outcome', async () => {
    const v = (await t.api('POST', '/api/v1/default/verifications', defaultBody())).body.data;
    const dir = mkdtempSync(join(tmpdir(), 'idv-e2e-'));
    const passport = join(dir, 'passport.png');
    const bill = join(dir, 'bill.pdf');
    writeFileSync(passport, png(64, 40, 1, { person: { given_names: 'Ada', surname: 'Lovelace', date_of_birth: '1990-12-10' }, document: { number: 'P123', expiration_date: '2031-01-01' } }));
    writeFileSync(bill, pdf({ person: { full_name: 'Ada Lovelace' }, address: { full: '1 Main St Austin TX 78701', country: 'USA' } }));

    const context = await b.browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true });
    const page = await context.newPage();
    const violations: string[] = [];
    page.on('console', (m) => m.type() === 'error' && violations.push(m.text()));
    await page.goto(v.url);
    await page.waitForSelector('#ctx-PHOTO_ID select');
    await page.screenshot({ path: join(ARTIFACTS, 'widget-1-start.png'), fullPage: true });
    expect(await page.isDisabled('#submit')).toBe(true);
    // No file input forces the camera: each lets the person take a photo or choose a file (a PDF for the address).
    expect(await page.$$('input[type=file][capture]')).toHaveLength(0);
    expect(await page.getAttribute('#ctx-PROOF_OF_ADDRESS-front', 'accept')).toBe('image/*,application/pdf');

    await page.selectOption('#ctx-PHOTO_ID-type', '1');
    await page.selectOption('#ctx-PHOTO_ID-country', 'GBR');
    await page.setInputFiles('#ctx-PHOTO_ID-front', passport);
    await page.click('#ctx-PHOTO_ID button');
    await page.waitForSelector('#ctx-PHOTO_ID .done');

    await page.selectOption('#ctx-PROOF_OF_ADDRESS-type', '4');
    await page.selectOption('#ctx-PROOF_OF_ADDRESS-country', 'USA');
    await page.setInputFiles('#ctx-PROOF_OF_ADDRESS-front', bill);
    await page.click('#ctx-PROOF_OF_ADDRESS button');
    await page.waitForSelector('#ctx-PROOF_OF_ADDRESS .done');
    await page.screenshot({ path: join(ARTIFACTS, 'widget-2-uploaded.png'), fullPage: true });

    // Submit is held back a moment: the button shows progress, and a double tap sends one request.
    let submits = 0;
    let release = () => {};
    const held = new Promise<void>((resolve) => { release = resolve; });
    await page.route('**/submit', async (route) => {
      submits++;
      await held;
      await route.continue();
    });
    await page.dblclick('#submit');
    expect(await page.isDisabled('#submit')).toBe(true);
    expect(await page.textContent('#submit')).toBe('Submitting…');
    release();
    await page.waitForSelector('#submit', { state: 'hidden' });
    expect(submits).toBe(1);
    expect(await page.$$('.field-error')).toHaveLength(0);
    // The form gives way to the outcome text.
    expect(await page.$$('#contexts section')).toHaveLength(0);
    // Runs in the page (whose CSP forbids evaluating strings); typed loosely so this file needs no DOM types.
    type PageGlobals = { document: { getElementById(id: string): { textContent: string | null } | null } };
    await page.waitForFunction(() => (globalThis as unknown as PageGlobals).document.getElementById('status')?.textContent?.includes('verified') ?? false, undefined, {
      timeout: 20_000,
    });
    await page.screenshot({ path: join(ARTIFACTS, 'widget-3-outcome.png'), fullPage: true });
    expect(await page.textContent('#status')).toBe('Thank you: your identity is verified.');
    // No CSP violation or script error on the way.
    expect(violations).toEqual([]);
    expect((await t.api('GET', `/api/v1/default/verifications/${v.id}`)).body.data.status_label).toBe('Approved');
    await context.close();
  }, 60_000);

  it('shows a clear message for a wrong file, and the QR hand-off on a desktop', async () => {
    const v = (await t.api('POST', '/api/v1/default/verifications', defaultBody())).body.data;
    const dir = mkdtempSync(join(tmpdir(), 'idv-e2e-'));
    const text = join(dir, 'notes.txt');
    writeFileSync(text, 'not an image');
    const context = await b.browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await page.goto(v.url);
    await page.waitForSelector('#ctx-PHOTO_ID select');
    await page.selectOption('#ctx-PHOTO_ID-type', '2');
    await page.selectOption('#ctx-PHOTO_ID-country', 'USA');
    expect(await page.isVisible('#ctx-PHOTO_ID-back')).toBe(true);
    // A single-sided type hides the back side, label included.
    expect(await page.isVisible('label[for="ctx-PROOF_OF_ADDRESS-back"]')).toBe(false);
    await page.setInputFiles('#ctx-PHOTO_ID-front', text);
    await page.click('#ctx-PHOTO_ID button');
    // The message stands right after the control it is about, is announced, and that control has the focus.
    await page.waitForSelector('#ctx-PHOTO_ID-back + .field-error');
    expect(await page.textContent('#ctx-PHOTO_ID-back-error')).toBe('This document needs a photo of its back too.');
    expect(await page.getAttribute('#ctx-PHOTO_ID-back-error', 'aria-live')).toBe('assertive');
    expect(await page.getAttribute('#ctx-PHOTO_ID-back', 'aria-describedby')).toBe('ctx-PHOTO_ID-back-error');
    expect(await page.evaluate(() => (globalThis as unknown as Focus).document.activeElement?.id)).toBe('ctx-PHOTO_ID-back');
    // The server refuses the file: said in plain words next to the file input, which gets the focus.
    await page.selectOption('#ctx-PHOTO_ID-type', '1');
    await page.click('#ctx-PHOTO_ID button');
    await page.waitForSelector('#ctx-PHOTO_ID-front + .field-error');
    expect(await page.textContent('#ctx-PHOTO_ID-front-error')).toBe('We could not read this file: choose a photo (JPEG, PNG or WebP).');
    expect(await page.evaluate(() => (globalThis as unknown as Focus).document.activeElement?.id)).toBe('ctx-PHOTO_ID-front');
    expect(await page.$$('.field-error')).toHaveLength(1);
    expect(await page.isVisible('#qr')).toBe(true);
    const qrLoaded = await page.$eval('#qr', (img) => (img as unknown as { naturalWidth: number }).naturalWidth > 0);
    expect(qrLoaded).toBe(true);
    await page.screenshot({ path: join(ARTIFACTS, 'widget-4-desktop-error.png'), fullPage: true });
    await context.close();
  }, 60_000);

  it('preselects the expected issuing countries, lists countries by name, and asks no country for a selfie', async () => {
    const v = (await t.api('POST', '/api/v1/default/verifications', defaultBody())).body.data;
    const selfie = join(mkdtempSync(join(tmpdir(), 'idv-e2e-')), 'selfie.png');
    writeFileSync(selfie, png(64, 64));
    const context = await b.browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true });
    const page = await context.newPage();
    await page.goto(v.url);
    await page.waitForSelector('#ctx-PHOTO_ID select');
    expect(await page.inputValue('#ctx-PHOTO_ID-country')).toBe('GBR');
    expect(await page.inputValue('#ctx-PROOF_OF_ADDRESS-country')).toBe('USA');
    const names = await page.$$eval('#ctx-PHOTO_ID-country option', (options) => options.map((o) => (o as unknown as { textContent: string }).textContent));
    expect(names).toContain('United Kingdom');
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b, 'en')));
    // The choice survives a change of document type.
    await page.selectOption('#ctx-PHOTO_ID-country', 'FRA');
    await page.selectOption('#ctx-PHOTO_ID-type', '2');
    expect(await page.inputValue('#ctx-PHOTO_ID-country')).toBe('FRA');

    expect(await page.$$('#ctx-SELFIE select[name=country]')).toHaveLength(0);
    expect(await page.isVisible('label[for="ctx-SELFIE-country"]')).toBe(false);
    await page.setInputFiles('#ctx-SELFIE-front', selfie);
    await page.click('#ctx-SELFIE button');
    await page.waitForSelector('#ctx-SELFIE .done');
    expect(await page.textContent('#ctx-SELFIE .done')).toBe('Selfie uploaded');
    await page.screenshot({ path: join(ARTIFACTS, 'widget-5-countries-selfie.png'), fullPage: true });
    await context.close();
  }, 60_000);

  it('can be operated with the keyboard alone: every control is reachable with Tab, in reading order', async () => {
    const v = (await t.api('POST', '/api/v1/default/verifications', defaultBody())).body.data;
    const context = await b.browser.newContext({ viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    await page.goto(v.url);
    await page.waitForSelector('#ctx-PHOTO_ID select');
    const reached: string[] = [];
    for (let i = 0; i < 16; i++) {
      await page.keyboard.press('Tab');
      reached.push(await page.evaluate(() => {
        const a = (globalThis as unknown as Focus).document.activeElement;
        return a ? a.id || `${a.tagName}:${a.textContent ?? ''}` : '';
      }));
    }
    expect(reached.slice(0, 4)).toEqual(['ctx-PHOTO_ID-type', 'ctx-PHOTO_ID-country', 'ctx-PHOTO_ID-front', 'BUTTON:Upload']);
    expect(reached).toEqual(expect.arrayContaining(['ctx-PROOF_OF_ADDRESS-type', 'ctx-SELFIE-front']));
    // A select changes with the arrow keys, and the back side appears for a double-sided type.
    await page.focus('#ctx-PHOTO_ID-type');
    await page.keyboard.press('ArrowDown');
    expect(await page.inputValue('#ctx-PHOTO_ID-type')).toBe('2');
    await context.close();
  }, 60_000);
});
