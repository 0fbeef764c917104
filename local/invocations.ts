import { AsyncLocalStorage } from 'node:async_hooks';
import { InvokeStoreBase } from '@aws/lambda-invoke-store';

type InvocationContext = Record<string | symbol, unknown>;

/**
 * The InvokeStore of a Lambda Managed Instance (one context per concurrent invocation), built on a
 * static AsyncLocalStorage: the package's own multi-context store imports `node:async_hooks`
 * dynamically, which jest's CommonJS sandbox cannot do.
 */
class ConcurrentInvokeStore extends InvokeStoreBase {
  private readonly als = new AsyncLocalStorage<InvocationContext>();
  getContext() {
    return this.als.getStore();
  }
  hasContext() {
    return this.als.getStore() !== undefined;
  }
  get<T = unknown>(key: string | symbol): T | undefined {
    return this.als.getStore()?.[key] as T | undefined;
  }
  set<T = unknown>(key: string | symbol, value: T): void {
    if (this.isProtectedKey(key)) throw new Error(`Cannot modify protected Lambda context field: ${String(key)}`);
    const context = this.als.getStore();
    if (!context) throw new Error('No invocation context');
    context[key] = value;
  }
  run<T>(context: InvocationContext, fn: () => T): T {
    return this.als.run(context, fn);
  }
}

const store = new ConcurrentInvokeStore();

/**
 * Runs one Lambda invocation the way Lambda Managed Instances run concurrent invocations in one
 * execution environment: inside its own InvokeStore context, with `AWS_LAMBDA_MAX_CONCURRENCY` set.
 * The local front serves overlapping requests in one process, and this is what keeps Powertools
 * Logger's per-invocation state (Lambda context, appended keys) apart: without it, a log line of
 * one request can carry the request id of another.
 */
export function invokeConcurrently<T>(requestId: string, run: () => Promise<T>): Promise<T> {
  // Both are read by Powertools on every log call; the Lambda runtime sets them on a managed instance.
  process.env.AWS_LAMBDA_MAX_CONCURRENCY ??= '64';
  if (globalThis.awslambda?.InvokeStore !== store) globalThis.awslambda = { ...globalThis.awslambda, InvokeStore: store };
  return store.run({ [InvokeStoreBase.PROTECTED_KEYS.REQUEST_ID]: requestId }, run);
}
