import { contentSecurityPolicy } from './page';

/**
 * The API reference's page (GET /docs): the OpenAPI document the service serves
 * (GET /api/v1/openapi.json, this deployment's own base address in `servers`) rendered in the
 * browser by Swagger UI, whose script and stylesheet the service serves itself under /docs/ (the
 * swagger-ui-dist package's files, src/http/routes.ts `getDocsAsset`): no CDN, nothing from another
 * origin. The strict policy of the other pages holds: no inline script or style (Swagger UI renders
 * without either), images from the page's origin and `data:` (the stylesheet's icons); "Try it out"
 * calls this origin only.
 */
export const DOCS_CSP = contentSecurityPolicy("'self' data:");

/** The page, its assets and the document addressed relative to it (`/docs/` finds them one level up), so that a stage prefix is kept. */
export function docsPage(trailingSlash = false): string {
  const up = trailingSlash ? '../' : '';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<link rel="icon" href="data:,">
<title>API reference · Identity verification service</title>
<link rel="stylesheet" href="${up}docs/swagger-ui.css">
<link rel="stylesheet" href="${up}docs/docs.css">
<script src="${up}docs/swagger-ui-bundle.js" defer></script>
<script src="${up}docs/docs.js" defer></script>
</head>
<body>
<main id="api-reference" data-openapi="${up}api/v1/openapi.json">
<p class="docs-note">Loading the API reference… It is rendered from <a href="${up}api/v1/openapi.json">the OpenAPI document</a>, which any OpenAPI tool can read.</p>
</main>
<footer class="docs-foot"><p>Rendered in your browser by Swagger UI (Apache License 2.0), served by this service.</p></footer>
</body>
</html>
`;
}
