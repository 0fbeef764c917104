import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { ReportInput, ReportRenderer } from '../../ports/report-renderer';

export interface WorkerLimits {
  /** Wall-clock deadline of one rendering; the worker is terminated when it passes. */
  timeoutMs: number;
  /** V8 heap of the worker (ArrayBuffers and native memory are bounded by REPORT_LIMITS instead). */
  maxOldGenerationSizeMb: number;
  maxYoungGenerationSizeMb: number;
}

export const DEFAULT_WORKER_LIMITS: WorkerLimits = { timeoutMs: 20_000, maxOldGenerationSizeMb: 512, maxYoungGenerationSizeMb: 64 };

/** Under tsx or jest the sources are TypeScript: the worker registers tsx before loading its entry. */
function startWorker(input: ReportInput, limits: WorkerLimits): Worker {
  const options = {
    workerData: { input, entry: join(__dirname, `report-worker${__filename.endsWith('.ts') ? '.ts' : '.js'}`) },
    resourceLimits: { maxOldGenerationSizeMb: limits.maxOldGenerationSizeMb, maxYoungGenerationSizeMb: limits.maxYoungGenerationSizeMb },
  };
  if (!__filename.endsWith('.ts')) return new Worker(options.workerData.entry, options);
  const boot = "require('tsx/cjs/api').register(); require(require('node:worker_threads').workerData.entry);";
  return new Worker(boot, { ...options, eval: true });
}

/**
 * Renders each report in its own worker thread (the local runtime's isolation; deployed, the
 * download function is its own Lambda): decoding an upload can neither stall the API's event loop
 * nor grow its heap, and a worker past its deadline or heap limit is terminated. When drawing the
 * uploads fails that way, the report is still produced, with a placeholder page per upload.
 */
export class WorkerReportRenderer implements ReportRenderer {
  constructor(
    private readonly limits: WorkerLimits = DEFAULT_WORKER_LIMITS,
    private readonly log: { warn(message: string, extra: { document: string; reason: string }): void } = { warn: () => {} },
  ) {}

  async render(input: ReportInput): Promise<Uint8Array> {
    try {
      return await this.inWorker(input);
    } catch (error) {
      this.log.warn('Report images could not be drawn; rendering placeholders', { document: input.document.id, reason: (error as Error).message });
      // Loaded here only: the API thread never loads the renderer's decoders unless it must fall back.
      const { PdfLibReportRenderer } = await import('./report-renderer');
      return new PdfLibReportRenderer({ drawImages: false }).render(input);
    }
  }

  private inWorker(input: ReportInput): Promise<Uint8Array> {
    return new Promise((resolve, reject) => {
      const worker = startWorker(input, this.limits);
      let settled = false;
      const settle = (fn: () => void) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        void worker.terminate();
        fn();
      };
      const timer = setTimeout(() => settle(() => reject(new Error(`deadline of ${this.limits.timeoutMs} ms passed`))), this.limits.timeoutMs);
      worker.once('message', (message: { pdf?: Uint8Array; error?: string }) =>
        settle(() => (message.pdf ? resolve(message.pdf) : reject(new Error(`rendering failed (${message.error ?? 'unknown'})`)))),
      );
      worker.once('error', (error) => settle(() => reject(new Error(`worker failed (${error.name})`))));
      worker.once('exit', (code) => settle(() => reject(new Error(`worker exited (${code})`))));
    });
  }
}
