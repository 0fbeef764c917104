import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generatedTexts, writeServedFiles } from '../../../lib/served-files';
import { buildOpenApi } from '../../../scripts/openapi';
import { WIDGET_LANGUAGES } from '../../../src/domain/flow';
import { route } from '../../../src/http/routes';
import { serveFilesFrom, servedName } from '../../../src/web/served-files';
import { localeTexts, pickLanguage, widgetCsp, widgetPageFor } from '../../../src/web/widget';

const session = (statusLabel: string, widget = {}) => ({ statusLabel, widget });

// The page function's files (its texts), written as the stack writes them beside its bundle.
let files: string;
beforeAll(() => {
  files = mkdtempSync(join(tmpdir(), 'idv-page-files-'));
  writeServedFiles(route.getWidgetPage.needs.files, files);
  serveFilesFrom(files);
});
afterAll(() => rmSync(files, { recursive: true, force: true }));

describe('the widget link page', () => {
  it('serves the widget, with its script, while the verification takes documents', () => {
    const page = widgetPageFor(session('Started'));
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<script src="../widget/widget.js" defer></script>');
  });

  it('answers an unknown link 404 with a page in plain words that says what to do, not JSON', () => {
    const page = widgetPageFor(null);
    expect(page.statusCode).toBe(404);
    expect(page.body).toMatch(/<html lang="en">/);
    expect(page.body).toContain('This link does not work');
    expect(page.body).toContain('Ask the company that sent you this link for a new one.');
    expect(page.body).not.toContain('<script');
  });

  it('serves a script that parses, with no control character (a regex escape the template literal ate)', () => {
    const served = generatedTexts('src/web/asset-texts.ts')['widget.js'] ?? '';
    expect(() => new Function(served)).not.toThrow();
    expect(served).not.toMatch(/[\x00-\x08\x0b-\x1f]/);
  });

  it('is in the contract: the 404 of the link page may be that HTML page', () => {
    const doc = buildOpenApi() as { paths: Record<string, { get: { responses: Record<string, { content: Record<string, unknown> }> } }> };
    expect(Object.keys(doc.paths['/v/{token}']!.get.responses['404']!.content)).toEqual(['application/json', 'text/html']);
  });

  it.each([
    ['Expired', 'This link has expired. Ask the company that sent you this link for a new one.'],
    ['Canceled', 'This verification was canceled, so this link no longer works. Ask the company that sent you this link for a new one.'],
    ['Approved', 'Thank you: your identity is verified. There is nothing more to do'],
    ['Double Check', 'Thank you: a person is reviewing your documents. This can take up to two working days.'],
    ['Hold', 'Thank you: a person is reviewing your documents.'],
    ['Rejected', 'We could not verify your identity with these documents.'],
  ])('answers a %s verification 200 with what happened and what comes next, and no form', (label, text) => {
    const page = widgetPageFor(session(label), { trailingSlash: true });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain(text);
    expect(page.body).toContain('href="../../widget/widget.css"');
    expect(page.body).not.toMatch(/<script|<button|<input|<select/);
  });

  it('carries the texts of its language as data, not as a script, with nothing that could end the block', () => {
    const page = widgetPageFor(session('Started'), { lang: 'de' }).body;
    expect(page).toMatch(/<html lang="de">/);
    const data = /<script type="application\/json" id="i18n">(.*)<\/script>/.exec(page)?.[1] ?? '';
    expect(JSON.parse(data)['btn.submit']).toBe('Dokumente absenden');
    expect(data).not.toContain('<');
    // The other languages' texts are not in the page.
    expect(page).not.toContain('Submit documents');
  });

  it('speaks the language the switcher chose, else the first of Accept-Language it knows, else English', () => {
    expect(pickLanguage('fr', 'de-DE,de;q=0.9')).toBe('fr');
    expect(pickLanguage('xx', 'de-DE,de;q=0.9')).toBe('de');
    expect(pickLanguage(undefined, 'ja;q=0.9,es-MX;q=0.8,en;q=0.5')).toBe('es');
    expect(pickLanguage(undefined, 'en;q=0.2,fr;q=0.9')).toBe('fr');
    expect(pickLanguage(undefined, 'fr;q=0,it')).toBe('en');
    expect(pickLanguage(undefined, '')).toBe('en');
  });

  it('has every text in every language, with the same placeholders', () => {
    const placeholders = (s: string) => (s.match(/\{\w+\}/g) ?? []).sort();
    const en = localeTexts('en') as Record<string, string>;
    for (const lang of WIDGET_LANGUAGES) {
      const texts = localeTexts(lang) as Record<string, string>;
      expect([lang, Object.keys(texts).sort()]).toEqual([lang, Object.keys(en).sort()]);
      for (const [key, text] of Object.entries(texts)) expect([lang, key, placeholders(text)]).toEqual([lang, key, placeholders(en[key]!)]);
    }
  });

  it('packages the texts of every language the widget speaks beside the page function, and no other file', () => {
    expect(route.getWidgetPage.needs.files.map(servedName).sort()).toEqual(WIDGET_LANGUAGES.map((l) => `widget.${l}.json`).sort());
  });

  it('answers a closed link in the chosen language, with the flow\'s return link and logo (whose origin the CSP allows)', () => {
    const widget = { return_url: 'https://shop.example/done', logo_url: 'https://cdn.example/logo.svg', logo_alt: 'Shop' };
    const page = widgetPageFor(session('Expired', widget), { lang: 'es' }).body;
    expect(page).toMatch(/<html lang="es">/);
    expect(page).toContain('Este enlace ha caducado.');
    expect(page).toContain('<a class="button" href="https://shop.example/done">Volver al sitio web</a>');
    expect(page).toContain('<img class="logo" src="https://cdn.example/logo.svg" alt="Shop">');
    expect(page).toContain('<a href="?lang=fr" lang="fr" hreflang="fr">Français</a>');
    expect(widgetCsp(widget)).toContain("img-src 'self' blob: data: https://cdn.example;");
    expect(widgetCsp()).toContain("img-src 'self' blob: data:;");
  });

  it('serves a Submitted verification\'s link with the script, which shows the decision when it comes', () => {
    const page = widgetPageFor(session('Submitted'));
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<script src="../widget/widget.js" defer></script>');
  });
});
