import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { Meshed, ObserveStages, RunPlace, ToDescribe } from './face-observer';

/**
 * The liveness observer's second thread: a worker with its own face models (Human's and face-api's,
 * on its own tfjs backend) that meshes the later part of a capture and describes half of the chosen
 * frames while the calling thread does the rest (observeFrames). One per process, started on the
 * first capture and kept, so its models load once; it holds the process open only while it works.
 */
export interface ObserverThread {
  /** Requests it has been sent (runs meshed and batches described). */
  readonly requests: number;
  mesh(bytes: Uint8Array[], times: number[], place: RunPlace): Promise<{ meshed: Meshed[]; stages: ObserveStages }>;
  describe(items: ToDescribe[]): Promise<{ descriptors: (number[] | undefined)[]; stages: ObserveStages }>;
}

/** What the worker answers: the request's id and its result, or the name of the error that stopped it. */
export interface ThreadReply {
  id: number;
  result?: unknown;
  error?: string;
}
/** What the worker is asked. */
type Ask = { op: 'mesh'; bytes: Uint8Array[]; times: number[]; place: RunPlace } | { op: 'describe'; items: ToDescribe[] };
export type ThreadRequest = Ask & { id: number };

/**
 * Deployed, the function's bundle carries the worker's own bundle beside it (lib/service-function.ts);
 * under tsx or jest the sources are TypeScript and the worker registers tsx before loading its entry.
 */
function startWorker(): Worker {
  const typescript = __filename.endsWith('.ts');
  const entry = join(__dirname, `face-observer-worker${typescript ? '.ts' : '.js'}`);
  if (!typescript) return new Worker(entry, { workerData: { entry } });
  const boot = "require('tsx/cjs/api').register(); require(require('node:worker_threads').workerData.entry);";
  return new Worker(boot, { eval: true, workerData: { entry } });
}

class WorkerThread implements ObserverThread {
  requests = 0;
  private next = 1;
  /** Why the worker is gone (failed or exited), once it is: later requests fail at once. */
  private goneWhy: string | undefined;
  private readonly pending = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();

  constructor(
    private readonly worker: Worker,
    private readonly onGone: () => void,
  ) {
    worker.unref();
    worker.on('message', (reply: ThreadReply) => {
      const waiting = this.pending.get(reply.id);
      if (!waiting) return;
      this.pending.delete(reply.id);
      this.idleCheck();
      if (reply.error !== undefined) waiting.reject(new Error(`the observer thread failed (${reply.error})`));
      else waiting.resolve(reply.result);
    });
    const gone = (why: string) => {
      this.goneWhy ??= why;
      this.onGone();
      for (const waiting of this.pending.values()) waiting.reject(new Error(`the observer thread ${why}`));
      this.pending.clear();
    };
    worker.on('error', (error) => gone(`failed (${error.name})`));
    worker.on('exit', (code) => gone(`exited (${code})`));
  }

  /** Held open while a request is pending, so that a script awaiting it does not exit under it; let go when idle. */
  private idleCheck(): void {
    if (this.pending.size === 0) this.worker.unref();
  }

  private ask<T>(request: Ask): Promise<T> {
    if (this.goneWhy !== undefined) return Promise.reject(new Error(`the observer thread ${this.goneWhy}`));
    const id = this.next++;
    this.requests++;
    return new Promise<T>((resolve, reject) => {
      // A worker that does not answer in time is stopped (its pending requests fail, and the caller
      // observes their frames itself); the next capture starts another.
      const timer = setTimeout(() => void this.worker.terminate(), THREAD_DEADLINE_MS);
      timer.unref();
      const settle = <A>(fn: (a: A) => void) => (a: A) => {
        clearTimeout(timer);
        fn(a);
      };
      this.pending.set(id, { resolve: settle(resolve as (value: unknown) => void), reject: settle(reject) });
      this.worker.ref();
      this.worker.postMessage({ ...request, id });
    });
  }

  mesh(bytes: Uint8Array[], times: number[], place: RunPlace) {
    return this.ask<{ meshed: Meshed[]; stages: ObserveStages }>({ op: 'mesh', bytes, times, place });
  }

  describe(items: ToDescribe[]) {
    return this.ask<{ descriptors: (number[] | undefined)[]; stages: ObserveStages }>({ op: 'describe', items });
  }
}

/**
 * Longest a request may take: a run of 60 frames is meshed in about 2 s (15 s on the first, models
 * loading, on a busy machine); past this the worker is taken as wedged.
 */
export const THREAD_DEADLINE_MS = 60_000;

let thread: Promise<ObserverThread> | undefined;

/**
 * The process's observer thread, started on first use. A thread that failed or exited is dropped,
 * and the next capture starts another; a thread that cannot start rejects, and the caller observes
 * alone.
 */
export function observerThread(): Promise<ObserverThread> {
  thread ??= new Promise<ObserverThread>((resolve, reject) => {
    let worker: Worker;
    try {
      worker = startWorker();
    } catch (error) {
      reject(error as Error);
      return;
    }
    resolve(
      new WorkerThread(worker, () => {
        thread = undefined;
      }),
    );
  }).catch((error: unknown) => {
    thread = undefined;
    throw error;
  });
  return thread;
}
