/** Text made safe to put in HTML (element content and quoted attribute values). */
export const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * The HTML shell of the service's pages: one stylesheet and one deferred script, nothing inline. A
 * page that only tells something (`script` false) loads no script. `title` is HTML (escaped by the caller).
 */
export function pageShell(title: string, assetPrefix: string, asset: string, body: string, script = true, lang = 'en'): string {
  return `<!doctype html>
<html lang="${lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<link rel="icon" href="data:,">
<title>${title}</title>
<link rel="stylesheet" href="${assetPrefix}widget/${asset}.css">
${script ? `<script src="${assetPrefix}widget/${asset}.js" defer></script>\n` : ''}</head>
<body>
${body}
</body>
</html>
`;
}

/**
 * No inline script or style, nothing from another origin but `images` (signed image links) and, when
 * given, `connect` (the console fetches signed links to show PDFs with pdf.js).
 */
export function contentSecurityPolicy(images: string, connect = "'self'"): string {
  return `default-src 'none'; script-src 'self'; style-src 'self'; img-src ${images}; connect-src ${connect}; form-action 'none'; frame-ancestors 'none'; base-uri 'none'`;
}
