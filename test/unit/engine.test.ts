import { spawnSync } from 'node:child_process';
import { delimiter, join } from 'node:path';
import { checkEngine, requiredNodeMajor } from '../../local/engine';

const ROOT = join(__dirname, '../..');
const major = (version: string) => Number(version.split('.')[0]);

describe('engine parity with the Lambdas', () => {
  it('runs the tests on the Node.js major the Lambdas run', () => {
    expect(requiredNodeMajor()).toBe(22);
    expect(major(process.versions.node)).toBe(requiredNodeMajor());
  });

  it('runs tsx (npm start, the scripts) on the same Node.js, with the PATH npm gives scripts', () => {
    const out = spawnSync('tsx', ['-e', 'process.stdout.write(process.versions.node)'], {
      cwd: ROOT,
      env: { ...process.env, PATH: `${join(ROOT, 'node_modules', '.bin')}${delimiter}${process.env.PATH ?? ''}` },
      encoding: 'utf8',
    });
    expect(out.error).toBeUndefined();
    expect(major(out.stdout)).toBe(requiredNodeMajor());
  });

  it('loads the native modules (N-API, built for any Node.js) on this Node.js', () => {
    for (const name of ['sharp', 'onnxruntime-node', '@napi-rs/canvas']) expect(() => require(name)).not.toThrow();
  });

  it('refuses an older Node.js with a message that says how to get the right one', () => {
    expect(() => checkEngine('20.20.2')).toThrow(/older than the Lambdas' Node.js 22: run through npm/);
    expect(() => checkEngine('22.0.0')).not.toThrow();
    expect(() => checkEngine('24.1.0')).not.toThrow();
  });
});
