import { FaceLivenessDetectorCore } from '@aws-amplify/ui-react-liveness';
import { createElement } from 'react';
import { createRoot } from 'react-dom/client';
import { STYLES, WASM_PLAIN, WASM_SIMD } from 'idv-face-liveness-assets';
import { cognitoCredentials, type FaceLivenessTarget, wasmFileMap } from './face-liveness-aws';

/**
 * The widget's Rekognition-mode capture: a separate bundle (served as /widget/face-liveness.js,
 * fetched by the widget only when a challenge answers `provider: rekognition`) that mounts AWS's
 * own FaceLivenessDetectorCore from @aws-amplify/ui-react-liveness. Built for the browser by
 * lib/served-files.ts (esbuild); React, Amplify's component, its styles and the tfjs WebAssembly
 * binaries are all inside, so that nothing but AWS's own endpoints is reached from another origin.
 *
 * What it hands back is only "finished", "failed (this state)" or "canceled": whether the person
 * passed is read by the server from Rekognition (POST /v/{token}/liveness/session/{sessionId}).
 */

/** What the widget script passes to `mount`. */
export interface MountOptions extends FaceLivenessTarget {
  /** The component's texts in the page's language (its displayText keys; missing ones stay English). */
  displayText: Record<string, string>;
  /** The capture finished and Rekognition has the video: the widget asks the server for the result. */
  onComplete(): void;
  /** The component's error state (CAMERA_ACCESS_ERROR, CONNECTION_TIMEOUT, ...), for the widget to say plainly. */
  onError(state: string): void;
  onCancel(): void;
}

/** The page's globals this bundle uses (the project's TypeScript has no DOM library). */
interface BrowserGlobals {
  document: { adoptedStyleSheets: unknown[] };
  CSSStyleSheet: new () => { replaceSync(text: string): void };
  fetch: Parameters<typeof cognitoCredentials>[0];
  idvFaceLiveness?: { mount(el: unknown, options: MountOptions): { unmount(): void } };
}
const page = globalThis as unknown as BrowserGlobals;

let styled = false;
/** The component's stylesheet, adopted once (a constructed sheet: the page's CSP admits no <style>). */
function adoptStyles(): void {
  if (styled) return;
  const sheet = new page.CSSStyleSheet();
  sheet.replaceSync(STYLES);
  page.document.adoptedStyleSheets = [...page.document.adoptedStyleSheets, sheet];
  styled = true;
}

/** A WebAssembly binary the bundle carries (base64) as a URL tfjs can fetch. */
function wasmUrl(base64: string): string {
  return URL.createObjectURL(new Blob([Uint8Array.from(atob(base64), (c) => c.charCodeAt(0))], { type: 'application/wasm' }));
}
let wasm: Record<string, string> | null = null;

page.idvFaceLiveness = {
  mount(el, options) {
    adoptStyles();
    wasm ??= wasmFileMap(wasmUrl(WASM_PLAIN), wasmUrl(WASM_SIMD));
    const root = createRoot(el);
    let settled = false;
    const once = (fn: () => void) => () => {
      if (settled) return;
      settled = true;
      fn();
    };
    root.render(
      createElement(FaceLivenessDetectorCore, {
        sessionId: options.sessionId,
        region: options.region,
        displayText: options.displayText,
        onAnalysisComplete: async () => once(options.onComplete)(),
        onError: (error: { state: string }) => once(() => options.onError(error.state))(),
        onUserCancel: () => once(options.onCancel)(),
        config: {
          // tfjs takes a map of its binaries' URLs where the type says a folder (setWasmPaths accepts both).
          binaryPath: wasm as unknown as string,
          credentialProvider: () => cognitoCredentials((url, init) => page.fetch(url, init), options.identityPoolId),
        },
      }),
    );
    return { unmount: () => root.unmount() };
  },
};
