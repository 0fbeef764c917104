import { generatedTexts } from '../../../lib/served-files';
import { route } from '../../../src/http/routes';
import { FILES, type NamedRoot, nameControls, swaggerOptions } from '../../../src/web/docs-script';
import { docsPage } from '../../../src/web/docs-page';
import { servedName } from '../../../src/web/served-files';

/** A root holding elements by selector, each a bag of attributes. */
function fakeRoot(selectors: string[]): { root: NamedRoot; attrs: Map<string, Record<string, string>> } {
  const attrs = new Map(selectors.map((s) => [s, {} as Record<string, string>]));
  const root: NamedRoot = {
    querySelectorAll: (selector) => {
      const bag = attrs.get(selector);
      return bag ? [{ getAttribute: (n: string) => bag[n] ?? null, setAttribute: (n: string, v: string) => (bag[n] = v) }] : [];
    },
  };
  return { root, attrs };
}

/** The script as served (generated at bundling time), cut around the two functions it embeds with `String(fn)`. */
function served(): { nameControls: typeof nameControls; swaggerOptions: typeof swaggerOptions } {
  const text = generatedTexts('src/web/docs-script.ts')['docs.js'] ?? '';
  const m = /var nameControls = \(([\s\S]*)\);\n  var swaggerOptions = \(([\s\S]*)\);\n  var root/.exec(text);
  if (!m) throw new Error('the docs script no longer embeds its functions where expected');
  return { nameControls: new Function(`return (${m[1]})`)(), swaggerOptions: new Function(`return (${m[2]})`)() };
}

describe('the API reference script (/docs/docs.js)', () => {
  it('names the controls Swagger UI leaves unnamed, and makes its code blocks reachable by keyboard, as served', () => {
    for (const name of [nameControls, served().nameControls]) {
      const { root, attrs } = fakeRoot(['select#servers', 'select.examples-select-element', 'textarea.body-param__text', 'button.close-modal', 'button.modal-btn.auth.authorize', 'pre.microlight']);
      attrs.get('button.modal-btn.auth.authorize')!['aria-label'] = 'Apply credentials';
      name(root);
      expect(Object.fromEntries(attrs)).toEqual({
        'select#servers': { 'aria-label': 'Server' },
        'select.examples-select-element': { 'aria-label': 'Example' },
        'textarea.body-param__text': { 'aria-label': 'Request body' },
        'button.close-modal': { 'aria-label': 'Close' },
        // Its name is what it reads (it said "Apply credentials").
        'button.modal-btn.auth.authorize': { 'aria-label': 'Authorize' },
        'pre.microlight': { tabindex: '0' },
      });
    }
  });

  it('sets nothing that is already set, so that the observer it runs under settles', () => {
    const { root, attrs } = fakeRoot(['select#servers', 'pre.microlight']);
    nameControls(root);
    const writes: string[] = [];
    const watching: NamedRoot = { querySelectorAll: (s) => [...root.querySelectorAll(s)].map((e) => ({ ...e, setAttribute: (n: string, v: string) => writes.push(`${s} ${n}=${v}`) })) };
    nameControls(watching);
    expect(writes).toEqual([]);
    expect(attrs.get('pre.microlight')).toEqual({ tabindex: '0' });
  });

  it('asks no other origin: no validator badge, the document the page names', () => {
    const root = {};
    expect(served().swaggerOptions('api/v1/openapi.json', root)).toEqual({ ...swaggerOptions('api/v1/openapi.json', root), url: 'api/v1/openapi.json', domNode: root, validatorUrl: null });
    expect(Object.keys(FILES)).toEqual(['docs.js']);
  });

  it('is served beside the page\'s files, which the page names relative to itself', () => {
    const files = route.getDocsAsset.needs.files.map(servedName);
    expect(files).toEqual(['swagger-ui-bundle.js', 'swagger-ui.css', 'docs.css', 'docs.js']);
    const page = docsPage();
    for (const f of files) expect(page).toContain(`"docs/${f}"`);
    expect(page).not.toMatch(/https?:\/\//);
    expect(docsPage(true)).toContain('data-openapi="../api/v1/openapi.json"');
  });
});
