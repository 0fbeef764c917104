import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');

describe('the typed client', () => {
  it('has its types generated from the checked-in contract (run npm run client after npm run openapi)', () => {
    const run = spawnSync(join(ROOT, 'node_modules', '.bin', 'tsx'), [join(ROOT, 'scripts', 'client.ts'), '--stdout'], { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(readFileSync(join(ROOT, 'client', 'schema.ts'), 'utf8')).toBe(run.stdout);
  }, 60_000);
});
