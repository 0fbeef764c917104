import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';

const ROOT = resolve(__dirname, '..', '..');
const SHARED = join(ROOT, '..', 'shared', 'sanctions');
const run = promisify(execFile);

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'idv-screen-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function screen(csv: string, ...args: string[]): Promise<{ lines: any[]; stderr: string }> {
  const input = join(dir, `people-${Math.random().toString(36).slice(2)}.csv`);
  writeFileSync(input, csv);
  const { stdout, stderr } = await run('npm', ['run', '-s', 'screen', '--', '--input', input, ...args], { cwd: ROOT, maxBuffer: 10_000_000 });
  return { lines: stdout.trim().split('\n').map((l) => JSON.parse(l)), stderr };
}

const HEADER = 'full_name,first_name,middle_name,last_name,gender,date_of_birth,place_of_birth,nationality';

describe('npm run screen (batch screening command)', () => {
  it('screens each row against the shared OFAC and UN snapshots, in order, bad rows included', async () => {
    const csv = [
      HEADER,
      // A UN-listed person (TAi.007) written in Arabic script, as the UN prints the name.
      'عبد اللطيف منصور,,,,,,,',
      // An OFAC-listed person in separate fields, name reordered and misspelt, with the listed date of birth.
      ',Anton,,Cherepenikov,male,1983-05-07,,RU',
      // A bad row: not a date.
      'Maria Example,,,,,1983-13-40,,',
      // Quoted fields with a comma and a quote; an ordinary person.
      '"Sorensen, Ingrid ""Inga"" Marie",,,,female,1990-06-01,"Aarhus, Denmark",DK',
      // Another bad row: no name at all.
      ',,,,,1970,,',
    ].join('\n');
    const { lines, stderr } = await screen(csv, '--lists', SHARED);
    expect(stderr).toMatch(/un-sc as of 2024-09-26/);
    expect(lines.map((l) => l.row)).toEqual([1, 2, 3, 4, 5]);

    expect(lines[0]).toMatchObject({ row: 1, match: true, score: 1 });
    expect(lines[0].hits[0]).toMatchObject({ list: 'un-sc', entry: '110554', name: 'عبد اللطيف منصور' });
    expect(lines[0].hits[0].reasons[0]).toMatch(/original script/);

    expect(lines[1]).toMatchObject({ row: 2, match: true });
    expect(lines[1].score).toBeGreaterThanOrEqual(0.85);
    expect(lines[1].hits[0]).toMatchObject({ list: 'ofac-sdn', entry: '41112', name: 'CHEREPENNIKOV, Anton Andreyevich' });
    expect(lines[1].hits[0].reasons.join(' ')).toMatch(/date of birth 1983-05-07 matches listed 1983-05-07/);

    expect(lines[2]).toEqual({ row: 3, error: 'date_of_birth must be YYYY, YYYY-MM or YYYY-MM-DD (a real date)' });
    expect(lines[3]).toMatchObject({ row: 4, match: false });
    expect(lines[3].score).toBeLessThan(0.85);
    expect(lines[4]).toMatchObject({ row: 5, error: expect.stringMatching(/no name/) });
  });

  it("uses the repository's own test lists by default, and --threshold decides match", async () => {
    const csv = `${HEADER}\nЗахар Пустовалов,,,,,,,\nOstrava Quillfether,,,,,,,\n`;
    const { lines } = await screen(csv);
    expect(lines[0]).toMatchObject({ row: 1, match: true, score: 1, hits: [{ list: 'un-sc', entry: '9100001' }] });
    expect(lines[1]).toMatchObject({ row: 2, match: true, hits: [{ list: 'ofac-sdn', entry: '9000001' }] });
    const strict = await screen(csv, '--threshold', '0.99');
    expect(strict.lines[1]).toMatchObject({ row: 2, match: false });
  });

  it('refuses an input without a usable header, and stale lists when --max-age-days is given', async () => {
    await expect(screen('name,age\nX,1\n')).rejects.toMatchObject({ code: 2, stderr: expect.stringMatching(/header row names none/) });
    await expect(screen(`${HEADER}\nOstrava Quillfeather,,,,,,,\n`, '--lists', SHARED, '--max-age-days', '7')).rejects.toMatchObject({ code: 3, stderr: expect.stringMatching(/older than 7 days/) });
  });
});
