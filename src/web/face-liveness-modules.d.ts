/**
 * The little of React the Rekognition-mode bundle (src/web/face-liveness.ts) uses: React 19 ships no
 * type declarations and the project's TypeScript has no DOM library, so the bundle declares what it
 * calls instead of pulling @types/react and the DOM types into every other file.
 */
declare module 'react' {
  export function createElement(type: unknown, props?: Record<string, unknown> | null, ...children: unknown[]): unknown;
}
declare module 'react-dom/client' {
  export function createRoot(container: unknown): { render(node: unknown): void; unmount(): void };
}
/**
 * What lib/served-files.ts puts into the bundle at build time: the component's stylesheet and the two
 * tfjs WebAssembly binaries (base64) of the tfjs version the component itself imports.
 */
declare module 'idv-face-liveness-assets' {
  export const STYLES: string;
  export const WASM_PLAIN: string;
  export const WASM_SIMD: string;
}
