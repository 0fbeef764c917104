import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { runInNewContext } from 'node:vm';
import * as ts from 'typescript';
import { signatureHeader } from '../../src/app/webhooks';
import { docFiles, ROOT, scratchCheckout, type Snippet, snippets, where } from '../unit/docs/markdown';

/**
 * Every code snippet of README.md and docs/ is checked or run, or says why it cannot run
 * (test/unit/docs/markdown.ts lists the comments). Policy:
 * - JSON is parsed; TypeScript is type-checked with the project's settings, imports resolved from the
 *   repository's root (where the docs tell the reader to save it);
 * - bash marked `run` runs as written in a scratch checkout; bash that needs a running service runs
 *   in test/integration/walkthrough.test.ts; every bash snippet is at least parsed (`bash -n`);
 * Lives with the integration tests: it runs npm scripts and a type-check of the snippets' imports
 * (the CDK construct's among them), about a minute and a half on 2 cores.
 * - JavaScript is exercised: each `exercised: <name>` snippet has an exercise below;
 * - `text` blocks are output, diagrams and trees, not code; any other block needs a language.
 */
const all: Snippet[] = docFiles().flatMap((f) => snippets(f));
const CODE = new Set(['bash', 'ts', 'json', 'js']);

/** The exercises of the snippets marked `exercised: <name>`: each evaluates the snippet and calls it. */
const EXERCISES: Record<string, (code: string) => void> = {
  /** docs/how-to/receive-webhooks.md: the verifier accepts the service's own signature, refuses a changed body, a wrong secret and a stale time. */
  verify(code) {
    const verify = runInNewContext(`${code}\nverify`, { require, Buffer, Date }) as (secret: string, header: string, body: string, tolerance?: number) => boolean;
    const now = Math.floor(Date.now() / 1000);
    const body = JSON.stringify({ id: 'evt_1', type: 'VerificationFinished', data: { verification: { id: 'ver_1', status_label: 'Approved' } } });
    const header = signatureHeader('whsec_test', now, body);
    expect(verify('whsec_test', header, body)).toBe(true);
    expect(verify('whsec_test', header, body.replace('Approved', 'Rejected'))).toBe(false);
    expect(verify('whsec_other', header, body)).toBe(false);
    expect(verify('whsec_test', signatureHeader('whsec_test', now - 3600, body), body)).toBe(false);
  },
};

describe('snippets in README.md and docs/', () => {
  it('finds them', () => {
    expect(all.length).toBeGreaterThan(15);
  });

  it('each has a language and, unless it is checked anyway, a comment saying how it is run or why not', () => {
    const problems: string[] = [];
    for (const s of all) {
      const at = `${where(s)} (${s.lang || 'no language'})`;
      if (s.lang === 'text') continue;
      if (!CODE.has(s.lang)) problems.push(`${at}: give it a language (bash, ts, json, js, or text for output)`);
      if (s.mark.kind === 'unknown') problems.push(`${at}: unknown snippet comment "${s.mark.text}"`);
      if (s.mark.kind === 'not-run' && s.mark.reason.length < 20) problems.push(`${at}: say why it is not run`);
      if (s.mark.kind === 'exercised' && !EXERCISES[s.mark.name]) problems.push(`${at}: no exercise named ${s.mark.name}`);
      if (s.lang === 'bash' && !['walkthrough', 'run', 'run-against-service', 'not-run'].includes(s.mark.kind)) problems.push(`${at}: mark it run, run against npm start, or not run (and why)`);
      if (s.lang === 'js' && s.mark.kind !== 'exercised') problems.push(`${at}: JavaScript is exercised by this test; mark it exercised: <name>`);
      if (s.mark.kind === 'parsed' && s.lang !== 'json') problems.push(`${at}: only JSON is parsed`);
      if (s.mark.kind === 'type-checked' && s.lang !== 'ts') problems.push(`${at}: only TypeScript is type-checked`);
    }
    expect(problems).toEqual([]);
  });

  it('refuses a bash snippet that neither runs nor says why', () => {
    const [s] = snippets('x.md', 'Text\n\n```bash\nnpm start\n```\n');
    expect(s?.mark).toEqual({ kind: 'none' });
    const [n] = snippets('x.md', '<!-- snippet: not run: needs an AWS account and credentials -->\n```bash\nnpx cdk deploy\n```\n');
    expect(n?.mark).toEqual({ kind: 'not-run', reason: 'needs an AWS account and credentials' });
  });

  it('JSON snippets parse', () => {
    const json = all.filter((s) => s.lang === 'json');
    expect(json.length).toBeGreaterThan(0);
    for (const s of json) expect({ at: where(s), parsed: (() => { try { JSON.parse(s.code); return true; } catch (e) { return (e as Error).message; } })() }).toEqual({ at: where(s), parsed: true });
  });

  it('bash snippets are valid bash (placeholders such as <TableName> aside)', () => {
    for (const s of all.filter((x) => x.lang === 'bash')) {
      const check = spawnSync('bash', ['-n'], { input: s.code.replace(/<[A-Za-z][^<>\n]*(<[^<>\n]*>[^<>\n]*)?>/g, 'PLACEHOLDER'), encoding: 'utf8' });
      expect({ at: where(s), status: check.status, stderr: check.stderr }).toEqual({ at: where(s), status: 0, stderr: '' });
    }
  });

  it('TypeScript snippets type-check with the project settings, as files at the repository root', () => {
    const tsSnippets = all.filter((s) => s.lang === 'ts');
    expect(tsSnippets.length).toBeGreaterThan(0);
    const config = ts.getParsedCommandLineOfConfigFile(join(ROOT, 'tsconfig.json'), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (d) => { throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n')); } });
    if (!config) throw new Error('tsconfig.json not readable');
    const files = new Map(tsSnippets.map((s, i) => [join(ROOT, `docs-snippet-${i}.ts`), s]));
    const host = ts.createCompilerHost(config.options);
    const getSourceFile = host.getSourceFile.bind(host);
    host.fileExists = (f) => files.has(f) || ts.sys.fileExists(f);
    host.readFile = (f) => files.get(f)?.code ?? ts.sys.readFile(f);
    host.getSourceFile = (f, lang, ...rest) => {
      const s = files.get(f);
      return s ? ts.createSourceFile(f, s.code, lang) : getSourceFile(f, lang, ...rest);
    };
    const program = ts.createProgram([...files.keys()], { ...config.options, noEmit: true }, host);
    const problems = ts
      .getPreEmitDiagnostics(program)
      .filter((d) => d.file && files.has(d.file.fileName))
      .map((d) => {
        const s = files.get((d.file as ts.SourceFile).fileName) as Snippet;
        const { line } = (d.file as ts.SourceFile).getLineAndCharacterOfPosition(d.start ?? 0);
        return `${s.file}:${s.line + 1 + line}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
      });
    expect(problems).toEqual([]);
  }, 180_000);

  it.each(Object.keys(EXERCISES))('the %s snippet does what the docs say', (name) => {
    const marked = all.filter((s) => s.mark.kind === 'exercised' && s.mark.name === name);
    expect(marked).toHaveLength(1);
    (EXERCISES[name] as (code: string) => void)((marked[0] as Snippet).code);
  });

  describe('bash snippets marked run, as written in a scratch checkout', () => {
    const runnable = all.filter((s) => s.lang === 'bash' && s.mark.kind === 'run');
    let scratch: ReturnType<typeof scratchCheckout>;
    beforeAll(() => {
      scratch = scratchCheckout();
    });
    afterAll(() => scratch?.remove());

    it('there are some', () => expect(runnable.length).toBeGreaterThan(0));

    it.each(runnable.map((s) => [where(s), s] as const))('%s', (_at, s) => {
      const run = spawnSync('bash', ['-euo', 'pipefail', '-c', s.code], { cwd: scratch.dir, encoding: 'utf8', timeout: 120_000, env: { ...process.env, PATH: `${join(ROOT, 'node_modules', '.bin')}:${dirname(process.execPath)}:${process.env.PATH ?? ''}` } });
      expect({ status: run.status, output: run.status === 0 ? '' : `${run.stdout}\n${run.stderr}` }).toEqual({ status: 0, output: '' });
    }, 150_000);
  });
});
