import * as engines from '../../src/adapters/offline/engines';
import { OfflineExtractor } from '../../src/adapters/offline/extractor';
import type { BlobStore } from '../../src/ports/blob-store';

/** The offline extractor over an in-memory image store, for the benchmarks and the sample runs (`paddle`: another OCR source, e.g. a cache of its reads). */
export function memoryExtractor(today?: () => Date, paddle: typeof engines.paddle = engines.paddle): { extractor: OfflineExtractor; objects: Map<string, Uint8Array> } {
  const objects = new Map<string, Uint8Array>();
  const blobs: BlobStore = {
    put: async (k, b) => void objects.set(k, b),
    get: async (k) => objects.get(k) ?? Promise.reject(new Error(`no ${k}`)),
    delete: async () => undefined,
    deleteOrThrow: async () => undefined,
    signedGetUrl: async (k) => k,
  };
  const extractor = new OfflineExtractor(blobs, { sharp: engines.sharpModule, paddle, tesseract: engines.tesseract, zxing: engines.zxing, pdfText: engines.pdfText, faces: engines.faces, presentation: engines.presentation }, today);
  return { extractor, objects };
}
