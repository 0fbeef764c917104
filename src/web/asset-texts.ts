import { CONSOLE_CSS, CONSOLE_JS } from './console';
import { WIDGET_CSS, WIDGET_JS } from './widget-script';

/**
 * The widget's and the console's scripts and stylesheets by the name they are served under
 * (GET /widget/<name>). No function bundles this module: lib/served-files.ts bundles it on its own
 * at bundling time (as a function is bundled: minified, Node 22) and writes each text into the asset
 * function's `files/` folder, and the local runtime does the same into its data folder, so that what
 * is served anywhere is the same bytes (src/http/routes.ts `getWidgetAsset.needs.files`).
 */
export const FILES: Record<string, string> = {
  'widget.js': WIDGET_JS,
  'widget.css': WIDGET_CSS,
  'console.js': CONSOLE_JS,
  'console.css': CONSOLE_CSS,
};
