import { buildOpenApi } from '../../../scripts/openapi';
import { WIDGET_JS, widgetPageFor } from '../../../src/web/widget';

describe('the widget link page', () => {
  it('serves the widget, with its script, while the verification takes documents', () => {
    const page = widgetPageFor('Started');
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
    expect(() => new Function(WIDGET_JS)).not.toThrow();
    expect(WIDGET_JS).not.toMatch(/[\x00-\x08\x0b-\x1f]/);
  });

  it('is in the contract: the 404 of the link page may be that HTML page', () => {
    const doc = buildOpenApi() as { paths: Record<string, { get: { responses: Record<string, { content: Record<string, unknown> }> } }> };
    expect(Object.keys(doc.paths['/v/{token}']!.get.responses['404']!.content)).toEqual(['application/json', 'text/html']);
  });

  it.each([
    ['Expired', 'This link has expired. Ask the company that sent you this link for a new one.'],
    ['Canceled', 'This verification was canceled, so this link no longer works. Ask the company that sent you this link for a new one.'],
    ['Submitted', 'Thank you: we received your documents and are checking them.'],
    ['Approved', 'Thank you: your identity is verified.'],
    ['Double Check', 'Thank you: your documents are being reviewed.'],
    ['Hold', 'Thank you: your documents are being reviewed.'],
    ['Rejected', 'We could not verify your identity with these documents.'],
  ])('answers a %s verification 200 with what happened, and no form', (label, text) => {
    const page = widgetPageFor(label, true);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain(text);
    expect(page.body).toContain('href="../../widget/widget.css"');
    expect(page.body).not.toMatch(/<script|<button|<input|<select/);
  });
});
