/**
 * Where an extraction's time goes: PaddleOCR's calls and onnxruntime's inference wrapped with timers,
 * and the extractor's stages (its private methods, timed inclusively: a stage's time holds the engine
 * calls it makes). Bench-only instrumentation: the service's extractor carries none of it.
 */
import { createRequire } from 'node:module';
import * as engines from '../../../src/adapters/offline/engines';
import type { OfflineExtractor } from '../../../src/adapters/offline/extractor';
import { memoryExtractor } from '../../documents/harness';

/** Milliseconds and calls per stage since the last reset. */
export class StageClock {
  readonly ms = new Map<string, number>();
  readonly calls = new Map<string, number>();
  private depth = new Map<string, number>();

  /** What the MRZ tries gave (`stage → valid/invalid n/none`), per document: which tries yield. */
  readonly outcomes: string[] = [];

  async time<T>(stage: string, run: () => Promise<T>): Promise<T> {
    // A stage that calls itself (mrzAt within mrz's tries) is counted once, at its outermost call.
    const depth = this.depth.get(stage) ?? 0;
    this.depth.set(stage, depth + 1);
    const t = performance.now();
    try {
      return await run();
    } finally {
      this.depth.set(stage, depth);
      if (depth === 0) this.ms.set(stage, (this.ms.get(stage) ?? 0) + performance.now() - t);
      this.calls.set(stage, (this.calls.get(stage) ?? 0) + 1);
    }
  }

  /** The stages' times (rounded ms) and calls, then cleared. */
  take(): Record<string, { ms: number; calls: number }> {
    const out = Object.fromEntries([...this.ms].sort((a, b) => b[1] - a[1]).map(([k, v]) => [k, { ms: Math.round(v), calls: this.calls.get(k) ?? 0 }]));
    this.ms.clear();
    this.calls.clear();
    return out;
  }
}

/** The extractor's stages timed: its private methods (by name), inclusive of what they call. */
const STAGES = ['image', 'barcode', 'mrz', 'mrzAt', 'mrzRun', 'regionRead', 'tesseractMrz', 'mrzViz', 'frontZone', 'printedZone', 'confirmed', 'supportedNames', 'printedFront', 'proofOfAddress', 'lineCrops', 'ocr'];

/** The MRZ tries whose outcome is recorded. */
const TRIES = new Set(['mrzAt', 'tesseractMrz', 'regionRead', 'mrz']);

/** A try's result as valid, invalid (failing check digits) or none. */
function outcome(result: unknown): string {
  const r = result as { read?: { read?: { valid: boolean; invalid: string[] }; valid?: boolean; invalid?: string[] }; lines?: string[] } | undefined;
  const read = r?.read?.read ?? r?.read;
  if (read && typeof read.valid === 'boolean') return read.valid ? 'valid' : `invalid${read.invalid?.length ?? ''}`;
  if (Array.isArray(r?.lines)) return `lines${r.lines.length}`;
  return 'none';
}

/** PaddleOCR with each call timed on `clock` (`paddle.detect`, `paddle.recognise`, `paddle.detect+recognise`). */
function timedPaddle(clock: StageClock): typeof engines.paddle {
  return async () => {
    const ocr = await clock.time('load.paddle', () => engines.paddle());
    return {
      detect: (png: Buffer) => clock.time('paddle.detect+recognise', () => ocr.detect(png)),
      lines: (png: Buffer) => clock.time('paddle.detect', () => ocr.lines(png)),
      readCrops: (crops: Buffer[]) => clock.time('paddle.recognise', () => ocr.readCrops(crops)),
      ...(ocr.readScored && { readScored: (crops: Buffer[]) => clock.time('paddle.recognise', () => (ocr.readScored as NonNullable<typeof ocr.readScored>)(crops)) }),
    };
  };
}

/**
 * onnxruntime's own inference time, apart from the OCR package's pre- and post-processing around it:
 * `ort.recognise` (inputs 48 pixels high) and `ort.detect`.
 */
function timeInference(clock: StageClock): void {
  const ort = createRequire(engines.packageDir('@gutenye/ocr-node'))('onnxruntime-node') as { InferenceSession: { prototype: { run: (...args: unknown[]) => Promise<unknown> } } };
  const proto = ort.InferenceSession.prototype;
  const run = proto.run;
  proto.run = function (this: unknown, ...args: unknown[]) {
    const feeds = args[0] as Record<string, { dims: readonly number[] }>;
    const dims = Object.values(feeds)[0]?.dims ?? [];
    return clock.time(dims[2] === 48 ? 'ort.recognise' : 'ort.detect', () => run.apply(this, args));
  };
}

/**
 * The harness's extractor over an in-memory store (scripts/documents/harness.ts) with its stages, its
 * PaddleOCR calls and onnxruntime's inference timed on the clock returned (tesseract.js, zxing and pdf.js
 * are timed within the stages that call them: supportedNames, tesseractMrz, barcode, proofOfAddress).
 */
export function timedExtractor(today?: () => Date): { extractor: OfflineExtractor; objects: Map<string, Uint8Array>; clock: StageClock } {
  const clock = new StageClock();
  timeInference(clock);
  const { extractor, objects } = memoryExtractor(today, timedPaddle(clock));
  const methods = extractor as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;
  for (const name of STAGES) {
    const method = methods[name];
    if (typeof method !== 'function') continue;
    methods[name] = async (...args: unknown[]) => {
      const result = await clock.time(name, () => method.apply(extractor, args));
      if (TRIES.has(name)) clock.outcomes.push(`${name}:${outcome(result)}`);
      return result;
    };
  }
  return { extractor, objects, clock };
}
