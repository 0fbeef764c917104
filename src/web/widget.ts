import { WIDGET_LANGUAGES, type WidgetConfig, type WidgetLanguage } from '../domain/flow';
import { type FaceLivenessTarget, faceLivenessOrigins } from './face-liveness-aws';
import { contentSecurityPolicy, escapeHtml, pageShell } from './page';
import { readServedFile } from './served-files';
import type en from './locales/widget.en.json';

/**
 * The end-user widget's page: one HTML page per link, in the person's language, with its texts
 * inlined as a JSON data block (not a script: nothing inline runs), one script and one stylesheet
 * served by the service itself (no CDN, src/web/widget-script.ts), under a strict
 * Content-Security-Policy (no inline script or style). The flow's logo is the only image from
 * another origin the page may load.
 */
export type WidgetTexts = typeof en;

const loaded = new Map<WidgetLanguage, WidgetTexts>();
/**
 * A language's texts (src/web/locales), not bundled: the page function's files (its route's
 * `needs.files`), each read and parsed when first asked for, then kept.
 */
export function localeTexts(lang: WidgetLanguage): WidgetTexts {
  let found = loaded.get(lang);
  if (!found) {
    found = JSON.parse(readServedFile(`widget.${lang}.json`)) as WidgetTexts;
    loaded.set(lang, found);
  }
  return found;
}
/** Each language's own name, as the switcher lists it. */
const LANGUAGE_NAMES: Record<WidgetLanguage, string> = { en: 'English', es: 'Español', fr: 'Français', de: 'Deutsch' };

const isLanguage = (tag: string): tag is WidgetLanguage => (WIDGET_LANGUAGES as readonly string[]).includes(tag);

/**
 * The page's language: the switcher's choice (`?lang=`), else the first language of the browser's
 * Accept-Language (by weight) the widget speaks, else English.
 */
export function pickLanguage(query: string | undefined, acceptLanguage: string): WidgetLanguage {
  if (query && isLanguage(query)) return query;
  const ranked = acceptLanguage
    .split(',')
    .map((part, i) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find((x) => x !== undefined);
      return { lang: tag.trim().toLowerCase().split('-')[0] ?? '', q: q === undefined ? 1 : Number(q), i };
    })
    .filter((x) => x.q > 0)
    .sort((a, b) => b.q - a.q || a.i - b.i);
  return ranked.map((x) => x.lang).find(isLanguage) ?? 'en';
}

/**
 * The page's CSP: its own origin, signed blob/data previews, and the flow's logo origin if it has one.
 * A flow whose liveness is Amazon Rekognition Face Liveness (`faceLiveness`: the region its sessions
 * are created in, the identity pool the widget gets credentials from) also lets AWS's component run: WebAssembly compiled from the tfjs binaries
 * the bundle carries (`'wasm-unsafe-eval'`, fetched as `blob:` URLs) and connections to Cognito, the
 * region's Rekognition streaming endpoint and AWS's face-model CDN (src/web/face-liveness-aws.ts);
 * no other flow's page gets any of it.
 */
export function widgetCsp(widget: WidgetConfig = {}, faceLiveness?: Pick<FaceLivenessTarget, 'region' | 'identityPoolId'>): string {
  const logo = widget.logo_url ? ` ${new URL(widget.logo_url).origin}` : '';
  if (faceLiveness === undefined) return contentSecurityPolicy(`'self' blob: data:${logo}`);
  const policy = contentSecurityPolicy(`'self' blob: data:${logo}`, ["'self'", 'blob:', ...faceLivenessOrigins(faceLiveness)].join(' '));
  return policy.replace("script-src 'self'", "script-src 'self' 'wasm-unsafe-eval'");
}

/** The language links: each in its own language, the current one marked; they work without script. */
function languageNav(lang: WidgetLanguage, texts: WidgetTexts): string {
  const links = WIDGET_LANGUAGES.map(
    (l) => `<li><a href="?lang=${l}" lang="${l}" hreflang="${l}"${l === lang ? ' aria-current="true"' : ''}>${LANGUAGE_NAMES[l]}</a></li>`,
  ).join('');
  return `<nav class="langs" aria-label="${escapeHtml(texts['lang.label'])}"><ul>${links}</ul></nav>`;
}

/**
 * Whom the person gives their documents to: the flow's logo (or, without one, the initial of its
 * company's name) and the name itself; the language links beside. A logo beside the written name is
 * decorative (its alternative would say the name twice).
 */
function header(lang: WidgetLanguage, texts: WidgetTexts, widget: WidgetConfig): string {
  const name = widget.company_name;
  const logo = widget.logo_url
    ? `<img class="logo" src="${escapeHtml(widget.logo_url)}" alt="${name ? '' : escapeHtml(widget.logo_alt ?? '')}">`
    : name
      ? `<span class="monogram" aria-hidden="true">${escapeHtml(name.trim().charAt(0).toUpperCase())}</span>`
      : '';
  const brand = logo || name ? `<p class="brand">${logo}${name ? `<span class="company">${escapeHtml(name)}</span>` : ''}</p>` : '';
  return `<header class="top">${brand}${languageNav(lang, texts)}</header>`;
}

/** The foot of every page: for whom the check is made, and the company's privacy notice (a new tab: the steps stay). */
function footer(texts: WidgetTexts, widget: WidgetConfig): string {
  const name = widget.company_name ? `<span>${escapeHtml(texts['company.for'].split('{company}').join(widget.company_name))}</span>` : '';
  const privacy = widget.privacy_url ? `<a id="privacy" href="${escapeHtml(widget.privacy_url)}" target="_blank" rel="noopener noreferrer">${escapeHtml(texts['privacy.footer'])}</a>` : '';
  return name || privacy ? `\n<footer class="foot">${name}${privacy}</footer>` : '';
}

function shell(lang: WidgetLanguage, texts: WidgetTexts, assets: string, body: string, script: boolean): string {
  // The texts as data: `<` escaped so that no `</script>` inside a text can end the block.
  const data = script ? `\n<script type="application/json" id="i18n">${JSON.stringify(texts).replace(/</g, '\\u003c')}</script>` : '';
  return pageShell(escapeHtml(texts['page.title']), assets, 'widget', `${body}${data}`, script, lang);
}

export interface WidgetPageOptions {
  /** The request path ends with `/`: the assets are one directory further up. */
  trailingSlash?: boolean;
  lang?: WidgetLanguage;
}

/**
 * The page of a link, by the status label of its verification (null: the link reaches none). A
 * Started verification gets the widget, a Submitted one too (it follows the checks to their
 * decision); any other gets a page in plain words and no script: what
 * became of the verification and what happens next. An unknown link is 404; a known one is 200
 * whatever its state, since the link still works as a page that tells what became of the
 * verification (no status beyond the contract's).
 */
export function widgetPageFor(
  session: { statusLabel: string; widget: WidgetConfig } | null,
  { trailingSlash = false, lang = 'en' }: WidgetPageOptions = {},
): { statusCode: number; body: string } {
  // The page is /v/<token> (or /v/<token>/): its assets, at /widget/, are one (or two) directories up.
  const assets = trailingSlash ? '../../' : '../';
  const texts = localeTexts(lang);
  const widget = session?.widget ?? {};
  // Submitted: the script too, which shows the decision when it comes (the text says this page will).
  if (session?.statusLabel === 'Started' || session?.statusLabel === 'Submitted') {
    return { statusCode: 200, body: shell(lang, texts, assets, livePage(lang, texts, widget), true) };
  }
  const key = session === null ? 'outcome.unknown' : `outcome.${session.statusLabel}`;
  const t = texts as Record<string, string>;
  const back = widget.return_url && session !== null ? `\n  <p><a class="button" href="${escapeHtml(widget.return_url)}">${escapeHtml(texts.return)}</a></p>` : '';
  const body = `${header(lang, texts, widget)}
<main id="app">
  <h1>${escapeHtml(t[`${key}.title`] ?? texts['page.title'])}</h1>
  <p id="status">${escapeHtml(t[key] ?? session?.statusLabel ?? '')}</p>${back}
</main>${footer(texts, widget)}`;
  return { statusCode: session === null ? 404 : 200, body: shell(lang, texts, assets, body, false) };
}

/**
 * The page the script fills: the progress line, the step's heading (focused at each new step), the
 * status line (the page's only live region, for screen readers: each message is shown once, where
 * it belongs in the step) and the step; beside it on a desktop, the QR code of the link with how to
 * use it and a copy button.
 */
function livePage(lang: WidgetLanguage, texts: WidgetTexts, widget: WidgetConfig): string {
  return `${header(lang, texts, widget)}
<div class="layout">
<main id="app">
  <p id="progress" class="progress"></p>
  <div class="track" aria-hidden="true"><div id="progress-bar"></div></div>
  <h1 id="title" tabindex="-1">${escapeHtml(texts['intro.title'])}</h1>
  <p id="status" class="visually-hidden" role="status" aria-live="polite">${escapeHtml(texts.loading)}</p>
  <div id="step"></div>
</main>
<aside id="handoff" aria-labelledby="handoff-title">
  <h2 id="handoff-title" tabindex="-1">${escapeHtml(texts['handoff.title'])}</h2>
  <img id="qr" alt="${escapeHtml(texts['handoff.qr'])}" width="176" height="176">
  <ol>
    <li>${escapeHtml(texts['handoff.step1'])}</li>
    <li>${escapeHtml(texts['handoff.step2'])}</li>
    <li>${escapeHtml(texts['handoff.step3'])}</li>
  </ol>
  <button id="copy" type="button" class="secondary">${escapeHtml(texts['btn.copy'])}</button>
  <p id="copy-note" class="hint" hidden></p>
</aside>
</div>${footer(texts, widget)}`;
}
