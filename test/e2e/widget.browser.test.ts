import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import type { Page } from 'playwright-core';
import { pdf, png } from '../fixtures/images';
import { defaultBody, useTestRuntime } from '../integration/harness';
import { ARTIFACTS, axeViolations, contrast, smallTargets, useBrowser } from './browser';

/** The page's globals, read in the page (typed loosely so this file needs no DOM types). */
type PageGlobals = {
  document: {
    activeElement: { id: string; tagName: string; textContent: string | null } | null;
    getElementById(id: string): { textContent: string | null } | null;
    documentElement: { lang: string };
  };
};

const t = useTestRuntime();
const b = useBrowser();

/** A passport the sandbox reads with its machine-readable zone (the readings name the MRZ as their source). */
const PASSPORT = {
  person: { given_names: 'Ada', surname: 'Lovelace', date_of_birth: '1990-12-10' },
  document: { number: 'P123', expiration_date: '2031-01-01' },
  readings: [{ field: 'person.surname', value: 'LOVELACE', source: 'mrz' }, { field: 'document.number', value: 'P123', source: 'mrz' }, { field: 'document.expiration_date', value: '2031-01-01', source: 'mrz' }],
};
const BILL = { person: { full_name: 'Ada Lovelace' }, address: { full: '1 Main St Austin TX 78701', country: 'USA' } };

/** A document-like picture: a grey table, a light card, a photo block and lines of text. */
function cardSvg(): Buffer {
  const lines = Array.from({ length: 12 }, (_, i) => `<rect x="520" y="${190 + i * 50}" width="${700 - (i % 3) * 120}" height="22" fill="#222"/>`).join('');
  return Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="1600" height="1000"><rect width="1600" height="1000" fill="#8a8f98"/><rect x="60" y="60" width="1480" height="880" rx="40" fill="#e9eef2"/><rect x="100" y="150" width="360" height="460" fill="#9a7a63"/>${lines}</svg>`,
  );
}

/** The files a person picks: a sharp passport, a bill (PDF), a selfie, a blank and a blurred photo. */
async function files() {
  const dir = mkdtempSync(join(tmpdir(), 'idv-e2e-'));
  const at = (name: string, data: Buffer) => {
    writeFileSync(join(dir, name), data);
    return join(dir, name);
  };
  return {
    passport: at('passport.png', png(900, 600, 1, PASSPORT)),
    bill: at('bill.pdf', pdf(BILL)),
    selfie: at('selfie.png', png(480, 480, 2)),
    tiny: at('tiny.png', png(64, 40, 1, PASSPORT)),
    blank: at('blank.png', await sharp({ create: { width: 1600, height: 1000, channels: 3, background: '#d8d4cc' } }).png().toBuffer()),
    blurred: at('blurred.jpg', await sharp(cardSvg()).blur(8).jpeg().toBuffer()),
    // Sharp and not blank, so the gate passes it, but nothing on it that the service can read.
    unreadable: at('unreadable.jpg', await sharp(cardSvg()).jpeg().toBuffer()),
    // The same card running out of the picture on the right: its corners there are not in it.
    cropped: at('cropped.jpg', await sharp(cardSvg()).extract({ left: 0, top: 0, width: 1250, height: 1000 }).jpeg().toBuffer()),
    text: at('notes.txt', Buffer.from('not an image')),
  };
}

/** Waits for the upload-time reading of a step's document to be shown, and answers it. */
async function readingOf(page: Page, ctx: string): Promise<string> {
  const id = `ctx-${ctx}-reading`;
  await page.waitForFunction((i) => {
    const text = (globalThis as unknown as PageGlobals).document.getElementById(i)?.textContent ?? '';
    return text !== '' && !text.endsWith('…');
  }, id, { timeout: 25_000 });
  return (await page.textContent(`#${id}`)) ?? '';
}

/** Upload, wait for what was read, and continue to the next step. */
async function uploadAndContinue(page: Page, ctx: string): Promise<string> {
  await page.click(`#ctx-${ctx}-upload`);
  await page.waitForSelector(`#ctx-${ctx}-next`);
  const read = await readingOf(page, ctx);
  await page.click(`#ctx-${ctx}-next`);
  return read;
}

const focused = (page: Page) => page.evaluate(() => (globalThis as unknown as PageGlobals).document.activeElement?.id ?? '');

/** axe-core clean (WCAG 2.2 AA), every control 44 px or more, a screenshot under test-artifacts/. */
async function screen(page: Page, name: string) {
  expect([name, await axeViolations(page)]).toEqual([name, []]);
  expect([name, await smallTargets(page)]).toEqual([name, []]);
  await page.screenshot({ path: join(ARTIFACTS, `widget-${name}.png`), fullPage: true });
}

/** Console errors and CSP violations of a page. */
function errorsOf(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  page.on('pageerror', (e) => errors.push(String(e)));
  return errors;
}

/**
 * How many elements show `text` to the eye: elements whose own text holds it, rendered larger than
 * 1 x 1 px (a visually hidden live region, for screen readers only, is not counted).
 */
async function shownTimes(page: Page, text: string): Promise<number> {
  return page.evaluate((wanted) => {
    const doc = (globalThis as unknown as { document: any }).document;
    let n = 0;
    for (const e of doc.body.querySelectorAll('*')) {
      const own = [...e.childNodes].filter((c: { nodeType: number }) => c.nodeType === 3).map((c: { textContent: string }) => c.textContent).join('');
      if (!own.includes(wanted)) continue;
      const r = e.getBoundingClientRect();
      if (r.width > 1 && r.height > 1 && e.checkVisibility()) n++;
    }
    return n;
  }, text);
}

/** The page's content (main and, beside it, the QR code) is centred: as much room on its left as on its right. */
async function centred(page: Page): Promise<{ left: number; right: number }> {
  return page.evaluate(() => {
    const doc = (globalThis as unknown as { document: any; innerWidth: number }).document;
    const boxes = [doc.querySelector('main'), doc.getElementById('handoff')].filter((e: any) => e && e.checkVisibility()).map((e: any) => e.getBoundingClientRect());
    const left = Math.min(...boxes.map((r: { left: number }) => r.left));
    const right = Math.max(...boxes.map((r: { right: number }) => r.right));
    return { left: Math.round(left), right: Math.round(doc.documentElement.clientWidth - right) };
  });
}

const phone = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };

describe('widget in a real browser', () => {
  it('walks a person through the steps on a phone, in English: the gate refuses a blank and a blurred photo before anything is sent', async () => {
    const v = (await t.api('POST', '/api/v1/default/verifications', defaultBody())).body.data;
    const f = await files();
    const context = await b.browser.newContext({ ...phone, locale: 'en-GB' });
    const page = await context.newPage();
    const errors = errorsOf(page);
    const uploads: string[] = [];
    page.on('request', (r) => r.method() === 'POST' && uploads.push(r.url()));
    await page.goto(v.url);
    await page.waitForSelector('#start');
    expect(await page.getAttribute('html', 'lang')).toBe('en');
    expect(await page.textContent('#progress')).toBe('Step 1 of 5');
    expect(await page.textContent('h1')).toBe('Verify your identity');
    // One live region: the status line.
    expect(await page.$$eval('[aria-live], [role=alert], [role=status]', (e) => e.map((x) => (x as unknown as { id: string }).id))).toEqual(['status']);
    await screen(page, 'phone-1-intro');

    // Consent first: without it, the message stands by the checkbox, which gets the focus.
    await page.click('#start');
    expect(await page.textContent('#consent-error')).toBe('Tick the box to agree before you continue.');
    expect(await focused(page)).toBe('consent');
    await page.check('#consent');
    await page.click('#start');
    await page.waitForSelector('#ctx-PHOTO_ID-front');
    expect(await page.textContent('#progress')).toBe('Step 2 of 5');
    // The focus is on the new step's heading, not left on the body.
    expect(await focused(page)).toBe('title');
    expect(await page.textContent('#title')).toBe('Photo ID');
    // No file input forces the camera: each lets the person take a photo or choose a file.
    expect(await page.$$('input[type=file][capture]')).toHaveLength(0);
    expect(await page.inputValue('#ctx-PHOTO_ID-country')).toBe('GBR');
    await screen(page, 'phone-2-photo-id');

    // The quality gate, in the browser: a blank photo, a blurred one and a tiny one are refused in plain words.
    await page.setInputFiles('#ctx-PHOTO_ID-front', f.blank);
    await page.waitForSelector('#ctx-PHOTO_ID-front-error');
    expect(await page.textContent('#ctx-PHOTO_ID-front-error')).toBe('This photo looks empty: make sure the document fills most of the picture, then retake it.');
    expect(await page.textContent('#status')).toBe('This photo looks empty: make sure the document fills most of the picture, then retake it.');
    expect(await page.getAttribute('#ctx-PHOTO_ID-front', 'aria-invalid')).toBe('true');
    expect(await focused(page)).toBe('ctx-PHOTO_ID-front');
    expect(await page.isVisible('#ctx-PHOTO_ID-front-again')).toBe(true);
    await screen(page, 'phone-3-gate-blank');
    await page.setInputFiles('#ctx-PHOTO_ID-front', f.blurred);
    await page.waitForFunction(() => (globalThis as unknown as PageGlobals).document.getElementById('ctx-PHOTO_ID-front-error')?.textContent?.includes('blurred') ?? false);
    expect(await page.textContent('#ctx-PHOTO_ID-front-error')).toBe('This photo is blurred: hold your phone steady, let it focus, then retake it.');
    await screen(page, 'phone-4-gate-blurred');
    // Upload with the refused photo: nothing is sent, the reason is said again.
    await page.click('#ctx-PHOTO_ID-upload');
    await page.waitForSelector('#ctx-PHOTO_ID-front-error');
    expect(await page.textContent('#ctx-PHOTO_ID-front-error')).toContain('blurred');
    await page.setInputFiles('#ctx-PHOTO_ID-front', f.tiny);
    await page.waitForFunction(() => (globalThis as unknown as PageGlobals).document.getElementById('ctx-PHOTO_ID-front-error')?.textContent?.includes('too small') ?? false);
    expect(await page.textContent('#ctx-PHOTO_ID-front-error')).toBe('This photo is too small (64 × 40 pixels): take it closer, or choose a larger one.');
    expect(uploads).toEqual([]);

    // A document running out of the picture: a warning (it may be kept), with Retake, nothing sent.
    await page.setInputFiles('#ctx-PHOTO_ID-front', f.cropped);
    await page.waitForSelector('#ctx-PHOTO_ID-front-check:not([hidden])');
    expect(await page.textContent('#ctx-PHOTO_ID-front-check')).toBe('We cannot see all four corners of the document: move back so all four corners are visible, then retake the photo. You can also keep this one.');
    expect(await page.getAttribute('#ctx-PHOTO_ID-front-check', 'class')).toBe('check-warn');
    expect(await page.isVisible('#ctx-PHOTO_ID-front-again')).toBe(true);
    expect(await page.$$('.field-error')).toHaveLength(0);
    await screen(page, 'phone-4a-gate-corners');
    expect(uploads).toEqual([]);

    // A sharp photo with no document on it passes the gate (said as checked, not as read); uploaded,
    // the service reads nothing on it, and the page says so before Submit, with the retake advice.
    await page.setInputFiles('#ctx-PHOTO_ID-front', f.unreadable);
    await page.waitForSelector('#ctx-PHOTO_ID-front-check:not([hidden])');
    expect(await page.textContent('#ctx-PHOTO_ID-front-check')).toBe('Photo checked: sharp enough and not blank. Upload it and we tell you what we could read.');
    await page.click('#ctx-PHOTO_ID-upload');
    await page.waitForSelector('#ctx-PHOTO_ID-done');
    expect(await page.textContent('#progress')).toBe('Step 2 of 5');
    expect(await page.textContent('#ctx-PHOTO_ID-done')).toBe('Uploaded: Passport, United Kingdom.');
    expect(await readingOf(page, 'PHOTO_ID')).toBe('We could not read this document: retake the photo with the whole document in the frame, flat, in good light and without glare.');
    expect(await page.getAttribute('#ctx-PHOTO_ID-reading', 'class')).toBe('check-warn');
    // Retake comes first and is the primary button; Continue stays (the run may still read it).
    expect(await page.$$eval('#ctx-PHOTO_ID button', (b) => b.map((x) => `${(x as unknown as { id: string }).id}:${(x as unknown as { className: string }).className}`))).toEqual([
      'ctx-PHOTO_ID-retake:', 'ctx-PHOTO_ID-next:secondary', 'ctx-PHOTO_ID-previous:secondary',
    ]);
    expect(await page.textContent('#status')).toBe('We could not read this document: retake the photo with the whole document in the frame, flat, in good light and without glare.');
    await screen(page, 'phone-4b-read-nothing');
    expect(uploads).toHaveLength(1);
    await page.click('#ctx-PHOTO_ID-retake');
    await page.waitForSelector('#ctx-PHOTO_ID-front');
    expect((await t.api('GET', `/api/v1/default/verifications/${v.id}`)).body.data.documents).toHaveLength(0);

    // A readable passport: the machine-readable lines are said found and valid, before Submit.
    await page.setInputFiles('#ctx-PHOTO_ID-front', f.passport);
    await page.waitForSelector('#ctx-PHOTO_ID-front-check:not([hidden])');
    expect(await page.$$('.field-error')).toHaveLength(0);
    // The input is described by the step's hint and the check's result, the error gone with its reference.
    expect(await page.getAttribute('#ctx-PHOTO_ID-front', 'aria-describedby')).toBe('ctx-PHOTO_ID-hint ctx-PHOTO_ID-front-check');
    expect(await page.getAttribute('#ctx-PHOTO_ID-front', 'aria-invalid')).toBeNull();
    await page.click('#ctx-PHOTO_ID-upload');
    await page.waitForSelector('#ctx-PHOTO_ID-done');
    expect(await focused(page)).toBe('title');
    expect(await readingOf(page, 'PHOTO_ID')).toBe('Machine-readable lines found and valid. Found: your name, date of birth, document number, expiry date.');
    expect(await page.getAttribute('#ctx-PHOTO_ID-reading', 'class')).toBe('check-ok');
    // Said, and no value of the document on the page (the phone may be shared).
    expect(await page.textContent('#status')).toBe('Machine-readable lines found and valid. Found: your name, date of birth, document number, expiry date.');
    expect(await page.textContent('body')).not.toMatch(/Lovelace|P123|1990|2031/i);
    await screen(page, 'phone-4c-read-passport');
    await page.click('#ctx-PHOTO_ID-next');
    await page.waitForSelector('#ctx-PROOF_OF_ADDRESS-front');
    expect(await page.textContent('#progress')).toBe('Step 3 of 5');
    expect(await focused(page)).toBe('title');
    expect(uploads).toHaveLength(2);

    // Proof of address: a PDF may be chosen.
    expect(await page.getAttribute('#ctx-PROOF_OF_ADDRESS-front', 'accept')).toBe('image/*,application/pdf');
    await page.setInputFiles('#ctx-PROOF_OF_ADDRESS-front', f.bill);
    await page.waitForSelector('#ctx-PROOF_OF_ADDRESS-front-check:not([hidden])');
    expect(await page.textContent('#ctx-PROOF_OF_ADDRESS-front-check')).toBe('PDF file chosen: upload it and we tell you what we could read.');
    expect(await uploadAndContinue(page, 'PROOF_OF_ADDRESS')).toBe('We found your name and address on it.');
    await page.waitForSelector('#ctx-SELFIE-front');

    // The selfie: no country, the front camera suggested; optional, so it may be skipped.
    expect(await page.textContent('#title')).toBe('Selfie (optional)');
    expect(await page.textContent('#ctx-SELFIE-hint')).toContain("your phone's front camera");
    expect(await page.$$('#ctx-SELFIE select')).toHaveLength(0);
    await screen(page, 'phone-5-selfie');
    await page.click('#ctx-SELFIE-skip');
    await page.waitForSelector('#submit');
    expect(await page.textContent('#progress')).toBe('Step 5 of 5');
    expect(await page.textContent('#review-PHOTO_ID')).toContain('Passport, United Kingdom');
    expect(await page.textContent('#review-SELFIE')).toContain('Skipped (optional)');
    await screen(page, 'phone-6-review');
    // Change a document from the review: the step says what was uploaded; Retake removes it and asks again.
    await page.click('#review-PROOF_OF_ADDRESS-change');
    await page.waitForSelector('#ctx-PROOF_OF_ADDRESS-done');
    expect(await focused(page)).toBe('title');
    expect(await page.textContent('#ctx-PROOF_OF_ADDRESS-done')).toBe('Uploaded: Utility bill, United States.');
    expect(await readingOf(page, 'PROOF_OF_ADDRESS')).toBe('We found your name and address on it.');
    await page.click('#ctx-PROOF_OF_ADDRESS-retake');
    await page.waitForSelector('#ctx-PROOF_OF_ADDRESS-front');
    expect((await t.api('GET', `/api/v1/default/verifications/${v.id}`)).body.data.documents).toHaveLength(1);
    await page.setInputFiles('#ctx-PROOF_OF_ADDRESS-front', f.bill);
    await page.waitForSelector('#ctx-PROOF_OF_ADDRESS-front-check:not([hidden])');
    await uploadAndContinue(page, 'PROOF_OF_ADDRESS');
    await page.waitForSelector('#ctx-SELFIE-skip');
    await page.click('#ctx-SELFIE-skip');
    await page.waitForSelector('#submit');
    // A reload (the language switcher's) comes back to the review: consent and skip are remembered.
    await page.reload();
    await page.waitForSelector('#submit');
    expect(await page.textContent('#progress')).toBe('Step 5 of 5');

    // Submit is held back a moment: the button shows progress, and a double tap sends one request.
    let submits = 0;
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route('**/submit', async (route) => {
      submits++;
      await held;
      await route.continue();
    });
    await page.dblclick('#submit');
    expect(await page.isDisabled('#submit')).toBe(true);
    expect(await page.textContent('#submit')).toBe('Submitting…');
    release();
    await page.waitForSelector('#submit', { state: 'detached' });
    expect(submits).toBe(1);
    await page.waitForFunction(() => (globalThis as unknown as PageGlobals).document.getElementById('title')?.textContent === 'Identity verified', undefined, { timeout: 20_000 });
    expect(await page.textContent('#step')).toContain('There is nothing more to do');
    expect(await page.isVisible('#progress')).toBe(false);
    await screen(page, 'phone-7-outcome');
    // No CSP violation or script error on the way.
    expect(await page.textContent('#status')).toBe('Thank you: your identity is verified. There is nothing more to do; you can close this page.');
    expect(await focused(page)).toBe('title');
    expect(errors).toEqual([]);
    expect((await t.api('GET', `/api/v1/default/verifications/${v.id}`)).body.data.status_label).toBe('Approved');
    // Coming back to the link: the outcome, in plain words, no form.
    await page.reload();
    expect(await page.textContent('h1')).toBe('Identity verified');
    expect(await page.$$('form, input, select')).toHaveLength(0);
    await context.close();
  }, 90_000);

  it('speaks the browser\'s language (Spanish), names countries in it, switches to German, and stays axe-clean', async () => {
    const v = (await t.api('POST', '/api/v1/default/verifications', defaultBody())).body.data;
    const f = await files();
    const context = await b.browser.newContext({ ...phone, locale: 'es-ES' });
    const page = await context.newPage();
    const errors = errorsOf(page);
    await page.goto(v.url);
    await page.waitForSelector('#start');
    expect(await page.getAttribute('html', 'lang')).toBe('es');
    expect(await page.textContent('#progress')).toBe('Paso 1 de 5');
    expect(await page.textContent('h1')).toBe('Verifique su identidad');
    await screen(page, 'es-1-intro');
    await page.check('#consent');
    await page.click('#start');
    await page.waitForSelector('#ctx-PHOTO_ID-front');
    expect(await page.textContent('#title')).toBe('Documento de identidad con foto');
    // Countries by name in the page's language, sorted in it, the expected one preselected.
    const names = await page.$$eval('#ctx-PHOTO_ID-country option', (o) => o.map((x) => (x as unknown as { textContent: string }).textContent));
    expect(names).toContain('Reino Unido');
    expect(names).toEqual([...names].sort((a, c) => a.localeCompare(c, 'es')));
    expect(await page.inputValue('#ctx-PHOTO_ID-country')).toBe('GBR');
    // The search box keeps the names that contain what is typed, accents aside, and selects the first.
    await page.fill('#ctx-PHOTO_ID-country-search', 'peru');
    expect(await page.$$eval('#ctx-PHOTO_ID-country option', (o) => o.map((x) => (x as unknown as { textContent: string }).textContent))).toEqual(['Perú']);
    expect(await page.inputValue('#ctx-PHOTO_ID-country')).toBe('PER');
    await page.fill('#ctx-PHOTO_ID-country-search', 'zzz');
    expect(await page.textContent('#ctx-PHOTO_ID-country-none')).toBe('Ningún nombre de país contiene «zzz»: se muestran todos.');
    await page.fill('#ctx-PHOTO_ID-country-search', '');
    expect(await page.inputValue('#ctx-PHOTO_ID-country')).toBe('GBR');
    await page.setInputFiles('#ctx-PHOTO_ID-front', f.blurred);
    await page.waitForSelector('#ctx-PHOTO_ID-front-error');
    expect(await page.textContent('#ctx-PHOTO_ID-front-error')).toBe('Esta foto está borrosa: sujete el teléfono firme, deje que enfoque y repítala.');
    await screen(page, 'es-2-gate-blurred');
    await page.setInputFiles('#ctx-PHOTO_ID-front', f.passport);
    await page.waitForSelector('#ctx-PHOTO_ID-front-check:not([hidden])');
    expect(await uploadAndContinue(page, 'PHOTO_ID')).toBe('Líneas de lectura mecánica encontradas y válidas. Encontrado: su nombre, fecha de nacimiento, número del documento, fecha de caducidad.');
    await page.waitForSelector('#ctx-PROOF_OF_ADDRESS-front');
    await page.setInputFiles('#ctx-PROOF_OF_ADDRESS-front', f.bill);
    await page.waitForSelector('#ctx-PROOF_OF_ADDRESS-front-check:not([hidden])');
    expect(await uploadAndContinue(page, 'PROOF_OF_ADDRESS')).toBe('Hemos encontrado su nombre y su dirección.');
    await page.waitForSelector('#ctx-SELFIE-front');
    // An empty selfie is said as one: the face, not a document, should fill the picture.
    await page.setInputFiles('#ctx-SELFIE-front', f.blank);
    await page.waitForSelector('#ctx-SELFIE-front-error');
    expect(await page.textContent('#ctx-SELFIE-front-error')).toBe('Esta foto parece vacía: asegúrese de que su cara ocupe la mayor parte de la imagen y repítala.');
    await page.setInputFiles('#ctx-SELFIE-front', f.selfie);
    await page.waitForSelector('#ctx-SELFIE-front-check:not([hidden])');
    // The selfie is compared with the photo ID by the run Submit starts: said so, not "read".
    expect(await uploadAndContinue(page, 'SELFIE')).toBe('Comparamos su cara con su documento de identidad después de que lo envíe.');
    await page.waitForSelector('#submit');
    expect(await page.textContent('#title')).toBe('Revisar y enviar');
    expect(await page.textContent('#review-PHOTO_ID')).toContain('Pasaporte, Reino Unido');
    await screen(page, 'es-3-review');

    // The switcher: a link per language, in its own language; the page comes back in German at the same step.
    await page.click('a[hreflang=de]');
    await page.waitForSelector('#submit');
    expect(await page.getAttribute('html', 'lang')).toBe('de');
    expect(await page.textContent('#submit')).toBe('Dokumente absenden');
    expect(await page.getAttribute('a[hreflang=de]', 'aria-current')).toBe('true');
    await page.click('#submit');
    // "Received", then the decision (the sandbox selfie carries no face: a person reviews it).
    await page.waitForFunction(() => ['Identität bestätigt', 'In Prüfung'].includes((globalThis as unknown as PageGlobals).document.getElementById('title')?.textContent ?? ''), undefined, { timeout: 20_000 });
    expect(await page.textContent('#step')).toMatch(/Danke: (Ihre Identität ist bestätigt|Eine Person prüft Ihre Dokumente)/);
    await screen(page, 'de-4-outcome');
    expect(errors).toEqual([]);
    await context.close();
  }, 90_000);

  it('shows the QR code above the fold on a desktop with instructions and a copy button, and follows the phone\'s progress', async () => {
    const v = (await t.api('POST', '/api/v1/default/verifications', defaultBody())).body.data;
    const context = await b.browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-US' });
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    const page = await context.newPage();
    const errors = errorsOf(page);
    await page.goto(v.url);
    await page.waitForSelector('#start');
    const qr = await page.$eval('#qr', (img) => {
      const i = img as unknown as { naturalWidth: number; getBoundingClientRect(): { bottom: number } };
      return { loaded: i.naturalWidth > 0, bottom: i.getBoundingClientRect().bottom };
    });
    expect(qr.loaded).toBe(true);
    expect(qr.bottom).toBeLessThan(800);
    expect(await page.textContent('#handoff ol')).toContain('Point it at this code');
    await page.click('#copy');
    await page.waitForFunction(() => (globalThis as unknown as PageGlobals).document.getElementById('status')?.textContent === 'Link copied.');
    expect(await page.evaluate(() => (globalThis as unknown as { navigator: { clipboard: { readText(): Promise<string> } } }).navigator.clipboard.readText())).toBe(v.url);
    await screen(page, 'desktop-1-intro');

    // The phone uploads the photo ID (the same link's API): the desktop moves on with it and says so.
    const token = new URL(v.url).pathname;
    const upload = await fetch(`${t.h.runtime.url}${token}/documents`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ document: { context_type: 'PHOTO_ID', type: 1, country: 'GBR', front_side_data: png(900, 600, 1, PASSPORT).toString('base64') } }),
    });
    expect(upload.status).toBe(201);
    await page.waitForFunction(() => (globalThis as unknown as PageGlobals).document.getElementById('status')?.textContent === 'Updated from your other device: Photo ID.', undefined, { timeout: 15_000 });
    expect(await page.textContent('#title')).toBe('Proof of address');
    expect(await page.textContent('#progress')).toBe('Step 3 of 5');
    await screen(page, 'desktop-2-followed');

    // Then it submits there too: the desktop shows the outcome.
    await fetch(`${t.h.runtime.url}${token}/documents`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ document: { context_type: 'PROOF_OF_ADDRESS', type: 4, country: 'USA', front_side_data: pdf(BILL).toString('base64') } }),
    });
    expect((await fetch(`${t.h.runtime.url}${token}/submit`, { method: 'PUT' })).status).toBe(200);
    await page.waitForFunction(() => ['Documents received', 'Identity verified'].includes((globalThis as unknown as PageGlobals).document.getElementById('title')?.textContent ?? ''), undefined, { timeout: 20_000 });
    expect(errors).toEqual([]);
    await context.close();
  }, 90_000);

  it('says a wrong file in plain words next to its control, and can be operated with the keyboard alone, with a visible focus ring', async () => {
    const v = (await t.api('POST', '/api/v1/default/verifications', defaultBody())).body.data;
    const f = await files();
    const context = await b.browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await page.goto(v.url);
    await page.waitForSelector('#start');
    // Keyboard: language links, consent, the privacy notice, Start, then the copy button beside, then the foot's link.
    await page.keyboard.press('Tab');
    const reached: string[] = [];
    for (let i = 0; i < 9; i++) {
      reached.push(await page.evaluate(() => {
        const a = (globalThis as unknown as PageGlobals).document.activeElement;
        return a ? a.id || `${a.tagName}:${a.textContent ?? ''}` : '';
      }));
      await page.keyboard.press('Tab');
    }
    expect(reached).toEqual(['A:English', 'A:Español', 'A:Français', 'A:Deutsch', 'consent', 'A:read its privacy notice', 'start', 'copy', 'privacy']);
    // The focus ring: 3:1 or more against the card it sits on.
    await page.focus('#start');
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Tab');
    const ring = await page.$eval('#start', (e) => {
      const w = globalThis as unknown as { getComputedStyle(x: unknown): { outlineColor: string; outlineStyle: string; backgroundColor: string } };
      const parent = (e as unknown as { parentElement: unknown }).parentElement;
      return { outline: w.getComputedStyle(e).outlineColor, style: w.getComputedStyle(e).outlineStyle, around: w.getComputedStyle(parent).backgroundColor };
    });
    expect(ring.style).toBe('solid');
    expect(contrast(ring.outline, ring.around)).toBeGreaterThanOrEqual(3);
    await page.keyboard.press('Space');
    expect(await page.isChecked('#consent')).toBe(false);
    await page.focus('#consent');
    await page.keyboard.press('Space');
    await page.focus('#start');
    await page.keyboard.press('Enter');
    await page.waitForSelector('#ctx-PHOTO_ID-type');
    expect(await focused(page)).toBe('title');
    await page.keyboard.press('Tab');
    expect(await focused(page)).toBe('ctx-PHOTO_ID-type');
    await page.keyboard.press('ArrowDown');
    expect(await page.inputValue('#ctx-PHOTO_ID-type')).toBe('2');
    await page.selectOption('#ctx-PHOTO_ID-country', 'USA');
    // A double-sided type asks for the back: missing, said by the back's input, which gets the focus.
    expect(await page.isVisible('#ctx-PHOTO_ID-back')).toBe(true);
    await page.setInputFiles('#ctx-PHOTO_ID-front', f.passport);
    await page.waitForSelector('#ctx-PHOTO_ID-front-check:not([hidden])');
    await page.click('#ctx-PHOTO_ID-upload');
    await page.waitForSelector('#ctx-PHOTO_ID-back-error');
    expect(await page.textContent('#ctx-PHOTO_ID-back-error')).toBe('This document needs a photo of its back too.');
    expect(await page.getAttribute('#ctx-PHOTO_ID-back', 'aria-describedby')).toBe('ctx-PHOTO_ID-back-error ctx-PHOTO_ID-hint');
    expect(await focused(page)).toBe('ctx-PHOTO_ID-back');
    // A file that is no picture at all: refused in the browser, by the file input.
    await page.selectOption('#ctx-PHOTO_ID-type', '1');
    expect(await page.isVisible('#ctx-PHOTO_ID-back')).toBe(false);
    await page.setInputFiles('#ctx-PHOTO_ID-front', f.text);
    await page.waitForSelector('#ctx-PHOTO_ID-front-error');
    expect(await page.textContent('#ctx-PHOTO_ID-front-error')).toBe('We could not open this picture: choose a photo (JPEG, PNG or WebP).');
    expect(await page.$$('.field-error')).toHaveLength(1);
    await screen(page, 'desktop-3-error');
    await context.close();
  }, 90_000);

  it('says which document a reviewer asked for again, and why', async () => {
    const v = (await t.api('POST', '/api/v1/default/verifications', defaultBody())).body.data;
    const token = new URL(v.url).pathname;
    const send = (document: unknown) =>
      fetch(`${t.h.runtime.url}${token}/documents`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ document }) });
    await send({ context_type: 'PHOTO_ID', type: 1, country: 'GBR', front_side_data: png(900, 600, 1, PASSPORT).toString('base64') });
    const bill = ((await (await send({ context_type: 'PROOF_OF_ADDRESS', type: 4, country: 'USA', front_side_data: pdf(BILL).toString('base64') })).json()) as { data: { id: string } }).data;
    await fetch(`${t.h.runtime.url}${token}/submit`, { method: 'PUT' });
    const reason = 'The bill is older than three months: send a recent one.';
    const reopened = await t.api('PATCH', `/api/v1/default/verifications/${v.id}`, { status: 1, comment: reason, email: 'reviewer@example.com' });
    expect(reopened.status).toBe(200);
    expect((await t.api('DELETE', `/api/v1/default/documents/${bill.id}`)).status).toBe(204);

    const context = await b.browser.newContext({ ...phone, locale: 'fr-FR' });
    const page = await context.newPage();
    await page.goto(v.url);
    // Documents were given before: the person lands on the one asked for again, with which and why.
    await page.waitForSelector('#ctx-PROOF_OF_ADDRESS-front');
    expect(await page.getAttribute('html', 'lang')).toBe('fr');
    expect(await page.textContent('.notice')).toContain('Nous avons de nouveau besoin de certains de vos documents : Justificatif de domicile.');
    expect(await page.textContent('.notice')).toContain(`Motif : ${reason}`);
    await screen(page, 'fr-requested-again');
    await context.close();
  }, 90_000);

  it('wears the flow\'s settings: its intro and consent texts, its colour (axe-clean), and its return link on the outcome', async () => {
    const body = defaultBody() as { documents: Record<string, unknown> };
    delete body.documents.proof_of_address;
    const created = await t.api('POST', '/api/v1/photo-id/verifications', body);
    expect(created.status).toBe(201);
    const v = created.body.data;
    const f = await files();
    const context = await b.browser.newContext({ ...phone, locale: 'de-DE' });
    const page = await context.newPage();
    await page.goto(v.url);
    await page.waitForSelector('#start');
    expect(await page.textContent('#step')).toContain('Die Example Bank muss Ihre Identität bestätigen');
    expect(await page.textContent('label[for=consent]')).toContain('fünf Jahre aufbewahrt');
    expect(await page.textContent('#progress')).toBe('Schritt 1 von 4');
    const colour = await page.$eval('#start', (e) => (globalThis as unknown as { getComputedStyle(x: unknown): { backgroundColor: string } }).getComputedStyle(e).backgroundColor);
    expect(colour).toBe('rgb(15, 110, 90)');
    await screen(page, 'theme-1-intro');
    await page.check('#consent');
    await page.click('#start');
    await page.waitForSelector('#ctx-PHOTO_ID-front');
    expect(await page.textContent('#progress')).toBe('Schritt 2 von 4');
    await page.setInputFiles('#ctx-PHOTO_ID-front', f.passport);
    await page.waitForSelector('#ctx-PHOTO_ID-front-check:not([hidden])');
    expect(await uploadAndContinue(page, 'PHOTO_ID')).toMatch(/^Maschinenlesbare Zeilen gefunden und gültig\. Gefunden: Ihr Name/);
    await page.waitForSelector('#ctx-SELFIE-skip');
    await page.click('#ctx-SELFIE-skip');
    await page.click('#submit');
    await page.waitForSelector('a.button[href="https://example.com/account"]', { timeout: 20_000 });
    expect(await page.textContent('a.button')).toBe('Zurück zur Website');
    await screen(page, 'theme-2-outcome');
    await context.close();
  }, 90_000);

  it('offers the selfie a live capture from the front camera, with the file input beside it, and says a refused camera in plain words', async () => {
    const v = (await t.api('POST', '/api/v1/default/verifications', defaultBody())).body.data;
    const token = new URL(v.url).pathname;
    const send = (document: unknown) => fetch(`${t.h.runtime.url}${token}/documents`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ document }) });
    await send({ context_type: 'PHOTO_ID', type: 1, country: 'GBR', front_side_data: png(900, 600, 1, PASSPORT).toString('base64') });
    await send({ context_type: 'PROOF_OF_ADDRESS', type: 4, country: 'USA', front_side_data: pdf(BILL).toString('base64') });
    const context = await b.browser.newContext({ ...phone, locale: 'en-GB' });
    const page = await context.newPage();
    const errors = errorsOf(page);
    await page.goto(v.url);
    // Documents were given: the page opens on the selfie.
    await page.waitForSelector('#ctx-SELFIE-front-camera');
    expect(await page.isVisible('label[for=ctx-SELFIE-front]')).toBe(true);
    expect(await page.isVisible('#ctx-SELFIE-front-video')).toBe(false);
    // The documents' steps have no camera button: the chooser offers the rear camera there.
    expect(await page.$$('#ctx-PHOTO_ID-front-camera')).toHaveLength(0);
    await page.click('#ctx-SELFIE-front-camera');
    await page.waitForSelector('#ctx-SELFIE-front-video:visible');
    await page.waitForFunction(() => ((globalThis as unknown as { document: { getElementById(i: string): { videoWidth: number } | null } }).document.getElementById('ctx-SELFIE-front-video')?.videoWidth ?? 0) > 0);
    expect(await focused(page)).toBe('ctx-SELFIE-front-shoot');
    expect(await page.textContent('#status')).toBe('The camera is on: look straight at it, in good light, then take the photo.');
    await screen(page, 'phone-8-selfie-camera');
    await page.click('#ctx-SELFIE-front-shoot');
    // The frame taken goes through the same gate as a picked file; the camera is off again.
    await page.waitForSelector('#ctx-SELFIE-front-check:not([hidden]), #ctx-SELFIE-front-error');
    expect(await page.textContent('#ctx-SELFIE-front-name')).toBe('selfie.jpg');
    expect(await page.isVisible('#ctx-SELFIE-front-video')).toBe(false);
    expect(await page.evaluate(() => ((globalThis as unknown as { document: { getElementById(i: string): { srcObject: unknown } | null } }).document.getElementById('ctx-SELFIE-front-video')?.srcObject ?? null) === null)).toBe(true);
    const check = `${await page.textContent('#ctx-SELFIE-front-check')}${(await page.$('#ctx-SELFIE-front-error')) ? await page.textContent('#ctx-SELFIE-front-error') : ''}`;
    expect(check).toBe('Photo checked: sharp enough and not blank. We compare it with your photo ID after you submit.');
    expect(await uploadAndContinue(page, 'SELFIE')).toBe('We compare your face with your photo ID after you submit.');
    await page.waitForSelector('#submit');
    expect(await page.textContent('#review-SELFIE')).toContain('Selfie');
    expect((await t.api('GET', `/api/v1/default/verifications/${v.id}`)).body.data.documents).toHaveLength(3);
    expect(errors).toEqual([]);
    await context.close();

    // A browser that refuses the camera: said by its button, which gets the focus; the file input stays.
    const refused = await b.browser.newContext({ ...phone, locale: 'de-DE' });
    const p2 = await refused.newPage();
    await p2.addInitScript(() => {
      const n = (globalThis as unknown as { navigator: { mediaDevices: { getUserMedia: () => Promise<never> } } }).navigator;
      n.mediaDevices.getUserMedia = () => Promise.reject(Object.assign(new Error('denied'), { name: 'NotAllowedError' }));
    });
    const v2 = (await t.api('POST', '/api/v1/default/verifications', defaultBody())).body.data;
    const token2 = new URL(v2.url).pathname;
    for (const document of [
      { context_type: 'PHOTO_ID', type: 1, country: 'GBR', front_side_data: png(900, 600, 1, PASSPORT).toString('base64') },
      { context_type: 'PROOF_OF_ADDRESS', type: 4, country: 'USA', front_side_data: pdf(BILL).toString('base64') },
    ]) {
      await fetch(`${t.h.runtime.url}${token2}/documents`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ document }) });
    }
    await p2.goto(v2.url);
    await p2.waitForSelector('#ctx-SELFIE-front-camera');
    await p2.click('#ctx-SELFIE-front-camera');
    await p2.waitForSelector('#ctx-SELFIE-front-camera-error');
    expect(await p2.textContent('#ctx-SELFIE-front-camera-error')).toBe('Wir dürfen die Kamera nicht verwenden: Erlauben Sie es in den Browsereinstellungen, oder nehmen oder wählen Sie ein Foto mit der Schaltfläche oben.');
    expect(await focused(p2)).toBe('ctx-SELFIE-front-camera');
    expect(await p2.isVisible('label[for=ctx-SELFIE-front]')).toBe(true);
    await screen(p2, 'de-selfie-camera-refused');
    await refused.close();
  }, 90_000);

  it('says each message once, in one place, and each step shows only its own state; the capture steps carry a frame guide', async () => {
    const v = (await t.api('POST', '/api/v1/default/verifications', defaultBody())).body.data;
    const f = await files();
    const context = await b.browser.newContext({ ...phone, locale: 'en-GB' });
    const page = await context.newPage();
    const errors = errorsOf(page);
    await page.goto(v.url);
    await page.check('#consent');
    await page.click('#start');
    await page.waitForSelector('#ctx-PHOTO_ID-front');
    // The frame guide: a document-shaped frame with what to do, where the photo will be.
    expect(await page.isVisible('#ctx-PHOTO_ID-guide')).toBe(true);
    const frame = (await page.locator('#ctx-PHOTO_ID-guide .frame').boundingBox())!;
    expect(frame.width / frame.height).toBeGreaterThan(1.35);
    expect(frame.width / frame.height).toBeLessThan(1.65);
    expect(await page.textContent('#ctx-PHOTO_ID-guide figcaption')).toBe('Place the document flat, all four corners inside the frame, in good light and without glare.');
    await screen(page, 'phone-2b-frame-guide');
    // A refused photo: said once, by the control (the status line is for screen readers only).
    await page.setInputFiles('#ctx-PHOTO_ID-front', f.blank);
    await page.waitForSelector('#ctx-PHOTO_ID-front-error');
    const blank = 'This photo looks empty: make sure the document fills most of the picture, then retake it.';
    expect(await page.textContent('#status')).toBe(blank);
    expect(await shownTimes(page, blank)).toBe(1);
    // A readable passport: shown in the frame; what was read, said once.
    await page.setInputFiles('#ctx-PHOTO_ID-front', f.passport);
    await page.waitForSelector('#ctx-PHOTO_ID-front-check:not([hidden])');
    expect(await page.isVisible('#ctx-PHOTO_ID-guide .frame img')).toBe(true);
    await page.click('#ctx-PHOTO_ID-upload');
    await page.waitForSelector('#ctx-PHOTO_ID-next');
    const passport = await readingOf(page, 'PHOTO_ID');
    expect(await shownTimes(page, passport)).toBe(1);
    await page.click('#ctx-PHOTO_ID-next');
    await page.waitForSelector('#ctx-PROOF_OF_ADDRESS-front');
    expect(await page.textContent('#status')).toBe('');
    await page.setInputFiles('#ctx-PROOF_OF_ADDRESS-front', f.bill);
    await page.waitForSelector('#ctx-PROOF_OF_ADDRESS-front-check:not([hidden])');
    const bill = await uploadAndContinue(page, 'PROOF_OF_ADDRESS');
    expect(bill).toBe('We found your name and address on it.');
    // The selfie step: nothing of the bill's reading, neither shown nor in the status line; an oval guide.
    await page.waitForSelector('#ctx-SELFIE-front');
    expect(await page.textContent('#status')).toBe('');
    expect(await shownTimes(page, 'We found your name')).toBe(0);
    expect(await page.isVisible('#ctx-SELFIE-guide .frame.face')).toBe(true);
    await screen(page, 'phone-5b-selfie-guide');
    await page.click('#ctx-SELFIE-skip');
    await page.waitForSelector('#submit');
    expect(await page.textContent('#status')).toBe('');
    expect(await shownTimes(page, 'We found your name')).toBe(0);
    await page.click('#submit');
    await page.waitForFunction(() => (globalThis as unknown as PageGlobals).document.getElementById('title')?.textContent === 'Identity verified', undefined, { timeout: 20_000 });
    const outcome = 'Thank you: your identity is verified. There is nothing more to do; you can close this page.';
    await page.waitForFunction((o) => (globalThis as unknown as PageGlobals).document.getElementById('status')?.textContent === o, outcome);
    expect(await shownTimes(page, outcome)).toBe(1);
    expect(errors).toEqual([]);
    await context.close();
  }, 90_000);

  it('names the company the person is verifying for, with its privacy notice, from the flow\'s settings', async () => {
    const v = (await t.api('POST', '/api/v1/default/verifications', defaultBody())).body.data;
    const context = await b.browser.newContext({ ...phone, locale: 'en-GB' });
    const page = await context.newPage();
    await page.goto(v.url);
    await page.waitForSelector('#start');
    // config/flows.json's default flow: a neutral name and link, for the deployer to replace.
    expect(await page.textContent('header .company')).toBe('Example Company');
    expect(await page.isVisible('header .company')).toBe(true);
    expect(await page.textContent('#step')).toContain('Example Company');
    const links = await page.$$eval('a[href="https://example.com/privacy"]', (as) => as.map((a) => ({ text: a.textContent, rel: a.getAttribute('rel'), target: a.getAttribute('target') })));
    expect(links.length).toBeGreaterThanOrEqual(1);
    for (const link of links) expect(link).toEqual({ text: expect.stringMatching(/privacy notice/i), rel: 'noopener noreferrer', target: '_blank' });
    expect(await page.isVisible('#step a[href="https://example.com/privacy"]')).toBe(true);
    await screen(page, 'phone-1b-company');
    await context.close();
    // Another flow, another company.
    const body = defaultBody() as { documents: Record<string, unknown> };
    delete body.documents.proof_of_address;
    const bank = (await t.api('POST', '/api/v1/photo-id/verifications', body)).body.data;
    const other = await b.browser.newContext({ ...phone, locale: 'en-GB' });
    const p2 = await other.newPage();
    await p2.goto(bank.url);
    await p2.waitForSelector('#start');
    expect(await p2.textContent('header .company')).toBe('Example Bank');
    await other.close();
  }, 60_000);

  it('centres the page on a desktop, and walks every step there', async () => {
    const v = (await t.api('POST', '/api/v1/default/verifications', defaultBody())).body.data;
    const f = await files();
    const context = await b.browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-GB' });
    const page = await context.newPage();
    const errors = errorsOf(page);
    await page.goto(v.url);
    await page.waitForSelector('#start');
    const balanced = async () => {
      const m = await centred(page);
      expect(Math.abs(m.left - m.right)).toBeLessThanOrEqual(8);
    };
    await balanced();
    await screen(page, 'desktop-w1-intro');
    await page.check('#consent');
    await page.click('#start');
    await page.waitForSelector('#ctx-PHOTO_ID-front');
    await balanced();
    await screen(page, 'desktop-w2-photo-id');
    await page.setInputFiles('#ctx-PHOTO_ID-front', f.passport);
    await page.waitForSelector('#ctx-PHOTO_ID-front-check:not([hidden])');
    await page.click('#ctx-PHOTO_ID-upload');
    await page.waitForSelector('#ctx-PHOTO_ID-next');
    await readingOf(page, 'PHOTO_ID');
    await screen(page, 'desktop-w3-photo-id-read');
    await page.click('#ctx-PHOTO_ID-next');
    await page.waitForSelector('#ctx-PROOF_OF_ADDRESS-front');
    await screen(page, 'desktop-w4-proof-of-address');
    await page.setInputFiles('#ctx-PROOF_OF_ADDRESS-front', f.bill);
    await page.waitForSelector('#ctx-PROOF_OF_ADDRESS-front-check:not([hidden])');
    await uploadAndContinue(page, 'PROOF_OF_ADDRESS');
    await page.waitForSelector('#ctx-SELFIE-front');
    await screen(page, 'desktop-w5-selfie');
    await page.click('#ctx-SELFIE-skip');
    await page.waitForSelector('#submit');
    await balanced();
    await screen(page, 'desktop-w6-review');
    await page.click('#submit');
    await page.waitForFunction(() => (globalThis as unknown as PageGlobals).document.getElementById('title')?.textContent === 'Identity verified', undefined, { timeout: 20_000 });
    // The outcome, without the QR code beside it: still centred.
    await balanced();
    await screen(page, 'desktop-w7-outcome');
    expect(errors).toEqual([]);
    await context.close();
  }, 90_000);

  it('the accessibility checks find what they look for (a control too small, an image without a text alternative)', async () => {
    const context = await b.browser.newContext();
    const page = await context.newPage();
    await page.setContent('<!doctype html><html lang="en"><head><title>x</title></head><body><main><img src="data:,"><button style="height:20px">Go</button></main></body></html>');
    expect((await axeViolations(page)).map((v) => v.split(':')[0])).toContain('image-alt');
    expect(await smallTargets(page)).toEqual([expect.stringMatching(/^button#Go \d+x20$/)]);
    await context.close();
  }, 30_000);

  it('preselects the country of the browser\'s locale when the verification expects none', async () => {
    const v = (await t.api('POST', '/api/v1/default/verifications', defaultBody())).body.data;
    const context = await b.browser.newContext({ ...phone, locale: 'de-AT' });
    const page = await context.newPage();
    // The session as it would be without expected countries.
    await page.route('**/session', async (route) => {
      const response = await route.fetch();
      const json = (await response.json()) as { data: { contexts: { expected_country: string | null }[] } };
      for (const c of json.data.contexts) c.expected_country = null;
      await route.fulfill({ response, json });
    });
    await page.goto(v.url);
    await page.check('#consent');
    await page.click('#start');
    await page.waitForSelector('#ctx-PHOTO_ID-country');
    expect(await page.inputValue('#ctx-PHOTO_ID-country')).toBe('AUT');
    expect(await page.textContent('#ctx-PHOTO_ID-country option:checked')).toBe('Österreich');
    await context.close();
  }, 60_000);

  it('answers an unknown link and a canceled one with a page in the browser\'s language, axe-clean, with no script', async () => {
    const v = (await t.api('POST', '/api/v1/default/verifications', defaultBody())).body.data;
    expect((await t.api('PUT', `/api/v1/default/verifications/${v.id}/cancel`, { comment: 'Asked by the customer', email: 'reviewer@example.com' })).status).toBe(200);
    const context = await b.browser.newContext({ ...phone, locale: 'fr-FR' });
    const page = await context.newPage();
    const unknown = await page.goto(`${t.h.runtime.url}/v/${'A'.repeat(43)}`);
    expect(unknown?.status()).toBe(404);
    expect(unknown?.headers()['content-language']).toBe('fr');
    expect(await page.textContent('h1')).toBe('Lien non valide');
    await screen(page, 'fr-unknown-link');
    const canceled = await page.goto(v.url);
    expect(canceled?.status()).toBe(200);
    expect(await page.textContent('h1')).toBe('Lien annulé');
    expect(await page.$$('script[src]')).toHaveLength(0);
    await screen(page, 'fr-canceled');
    await context.close();
  }, 60_000);
});
