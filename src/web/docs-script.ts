/**
 * The API reference's script (/docs/docs.js): starts Swagger UI on the page's `main` with the
 * document it names, and gives Swagger UI's unnamed controls a name. Plain functions with no outside
 * reference, embedded as they are (`String(fn)`), so that the unit tests run the very same code.
 */

/** The few DOM members the script uses (this project compiles without the DOM library). */
export interface NamedRoot {
  querySelectorAll(selector: string): Iterable<{ getAttribute(name: string): string | null; setAttribute(name: string, value: string): void }>;
}

/**
 * Names Swagger UI's controls that it leaves without one (axe-core: select-name, label, button-name,
 * label-content-name-mismatch, scrollable-region-focusable): the server and example pickers, the
 * request body's text area, the dialog's close button, the dialog's Authorize button (named "Apply
 * credentials" though it reads "Authorize"), and the code blocks that scroll, made reachable by
 * keyboard. Run again whenever Swagger UI renders (an operation opened, a dialog shown): it only
 * sets what is missing, so its own changes do not make it run on and on.
 */
export function nameControls(root: NamedRoot): void {
  const names: [string, string][] = [
    ['select#servers', 'Server'],
    ['select.examples-select-element', 'Example'],
    ['textarea.body-param__text', 'Request body'],
    ['button.close-modal', 'Close'],
    ['button.modal-btn.auth.authorize', 'Authorize'],
  ];
  for (const [selector, name] of names) {
    for (const e of root.querySelectorAll(selector)) if (e.getAttribute('aria-label') !== name) e.setAttribute('aria-label', name);
  }
  for (const e of root.querySelectorAll('pre.microlight')) if (e.getAttribute('tabindex') === null) e.setAttribute('tabindex', '0');
}

/**
 * Swagger UI's settings: the document named by the page (relative, so a stage prefix is kept); no
 * validator badge (by default Swagger UI asks validator.swagger.io, another origin), no deep links
 * (they put a link inside each operation's button: nested-interactive), a light highlighting theme
 * whose colours reach 4.5:1.
 */
export function swaggerOptions(url: string, root: unknown): Record<string, unknown> {
  return { url, domNode: root, validatorUrl: null, deepLinking: false, syntaxHighlight: { activated: true, theme: 'idea' }, defaultModelsExpandDepth: 0 };
}

/** What /docs/docs.js runs in the page. */
const BOOT = `'use strict';
(function () {
  var nameControls = (${String(nameControls)});
  var swaggerOptions = (${String(swaggerOptions)});
  var root = document.getElementById('api-reference');
  new MutationObserver(function () { nameControls(root); }).observe(root, { childList: true, subtree: true });
  window.SwaggerUIBundle(swaggerOptions(root.getAttribute('data-openapi'), root));
})();
`;

/** Generated at bundling time (lib/served-files.ts) and served by the docs asset function. */
export const FILES: Record<string, string> = { 'docs.js': BOOT };
