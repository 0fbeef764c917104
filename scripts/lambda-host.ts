import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Readable } from 'node:stream';

/**
 * A synthesized function's bundle kept warm in its own plain Node process, as Lambda keeps it:
 * the bundle is required once, then each event written to the process is handed to its `handler`.
 * Results come back on file descriptor 3, so that the function's own logs on stdout never mix with
 * them. Used by test/cdk/synthesized-assets.test.ts.
 */
const HOST = `
const { createInterface } = require('node:readline');
const { createWriteStream } = require('node:fs');
const out = createWriteStream(null, { fd: 3 });
const { handler } = require(process.argv[2]);
createInterface({ input: process.stdin }).on('line', (line) => {
  const { id, event } = JSON.parse(line);
  const context = { awsRequestId: id, functionName: process.env.AWS_LAMBDA_FUNCTION_NAME, getRemainingTimeInMillis: () => 29000, callbackWaitsForEmptyEventLoop: true };
  Promise.resolve()
    .then(() => handler(event, context))
    .then((result) => out.write(JSON.stringify({ id, result }) + '\\n'), (error) => out.write(JSON.stringify({ id, error: String((error && error.message) || error) }) + '\\n'));
});
`;

export class LambdaHost {
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly pending = new Map<number, { ok: (v: unknown) => void; fail: (e: Error) => void }>();
  private next = 0;
  private exited: string | undefined;
  /** What the function wrote to stdout and stderr (its logs), for failure messages. */
  output = '';

  /** `node` is the Node 22 binary; `bundle` the asset's index.js; `hostDir` where the host script is written (outside the repository). */
  constructor(node: string, bundle: string, hostDir: string, env: NodeJS.ProcessEnv) {
    const host = join(hostDir, 'lambda-host.cjs');
    writeFileSync(host, HOST);
    this.child = spawn(node, [host, bundle], { cwd: hostDir, env, stdio: ['pipe', 'pipe', 'pipe', 'pipe'] }) as unknown as ChildProcessWithoutNullStreams;
    this.child.stdout.on('data', (d: Buffer) => (this.output += d.toString()));
    this.child.stderr.on('data', (d: Buffer) => (this.output += d.toString()));
    let buffered = '';
    (this.child.stdio[3] as Readable).on('data', (d: Buffer) => {
      buffered += d.toString();
      let nl = buffered.indexOf('\n');
      while (nl >= 0) {
        const { id, result, error } = JSON.parse(buffered.slice(0, nl)) as { id: number; result?: unknown; error?: string };
        buffered = buffered.slice(nl + 1);
        const waiter = this.pending.get(id);
        this.pending.delete(id);
        if (error !== undefined) waiter?.fail(new Error(error));
        else waiter?.ok(result);
        nl = buffered.indexOf('\n');
      }
    });
    this.child.stdin.on('error', () => undefined);
    this.child.on('exit', (code) => {
      this.exited = `the function's process exited (${code}): ${this.output.slice(-2000)}`;
      for (const w of this.pending.values()) w.fail(new Error(`the function's process exited (${code}): ${this.output.slice(-2000)}`));
      this.pending.clear();
    });
  }

  invoke<T>(event: unknown): Promise<T> {
    const id = this.next++;
    return new Promise<T>((ok, fail) => {
      if (this.exited) return fail(new Error(this.exited));
      this.pending.set(id, { ok: ok as (v: unknown) => void, fail });
      this.child.stdin.write(`${JSON.stringify({ id, event })}\n`);
    });
  }

  stop(): void {
    this.child.kill();
  }
}
