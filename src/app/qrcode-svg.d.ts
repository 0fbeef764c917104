// Types for the two modules of `qrcode` that src/app/widget-qr.ts imports directly.
declare module 'qrcode/lib/core/qrcode' {
  import type { QRCode, QRCodeOptions } from 'qrcode';
  export function create(text: string, options?: QRCodeOptions): QRCode;
}
declare module 'qrcode/lib/renderer/svg-tag' {
  import type { QRCode, QRCodeRenderersOptions } from 'qrcode';
  export function render(qr: QRCode, options?: QRCodeRenderersOptions): string;
}
