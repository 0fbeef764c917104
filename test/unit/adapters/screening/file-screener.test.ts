import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SnapshotFormatError } from '../../../../src/adapters/screening/errors';
import { DEFAULT_SNAPSHOT_FOLDER, FileScreener, readSnapshotFolder } from '../../../../src/adapters/screening/file-screener';
import { knownLists } from '../../../../src/adapters/screening/loaders';
import type { ScreeningPolicy } from '../../../../src/domain/screening/types';

const policy: ScreeningPolicy = { lists: ['ofac-sdn', 'un-sc'], threshold: 0.85, maxAgeDays: 7 };
const folders: string[] = [];
function folder(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'idv-snapshots-'));
  folders.push(dir);
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}
afterAll(() => {
  for (const dir of folders) rmSync(dir, { recursive: true, force: true });
});

describe('FileScreener (snapshots from a folder)', () => {
  it('knows a loader for OFAC SDN and the UN list', () => {
    expect(knownLists()).toEqual(['ofac-sdn', 'un-sc']);
  });

  it("loads the repository's test lists once and screens against both", async () => {
    const screener = FileScreener.fromFolder(DEFAULT_SNAPSHOT_FOLDER, { asOf: { 'ofac-sdn': '2026-11-20' } });
    expect(await screener.loaded()).toEqual([
      { list: 'ofac-sdn', asOf: '2026-11-20', entries: 5 },
      { list: 'un-sc', asOf: '2026-11-20', entries: 3 },
    ]);
    const result = await screener.screen({ fullName: 'Zakhar Pustovalov', documentNumbers: ['000000042'] }, policy, new Date('2026-11-21'));
    expect(result).toMatchObject({ status: 'screened', hits: [{ list: 'un-sc', entry: '9100001', reference: 'TSi.001', programmes: ['Test'] }] });
    expect(screener.snapshot('un-sc')?.entries).toHaveLength(3);
  });

  it('dates an OFAC snapshot by its file when no date is given', () => {
    const dir = folder({});
    copyFileSync(join(DEFAULT_SNAPSHOT_FOLDER, 'ofac-sdn.csv'), join(dir, 'ofac-sdn.csv'));
    expect(readSnapshotFolder(dir)[0]?.asOf).toBe(new Date().toISOString().slice(0, 10));
  });

  it('fails closed when a list the policy names has no file in the folder', async () => {
    const dir = folder({});
    copyFileSync(join(DEFAULT_SNAPSHOT_FOLDER, 'un-consolidated.xml'), join(dir, 'un-consolidated.xml'));
    const result = await FileScreener.fromFolder(dir).screen({ fullName: 'Zakhar Pustovalov' }, policy, new Date('2026-11-21'));
    expect(result).toMatchObject({ status: 'not_evaluated', reason: 'missing_list' });
  });

  it('fails closed when a snapshot is older than the policy allows', async () => {
    const result = await FileScreener.fromFolder(DEFAULT_SNAPSHOT_FOLDER, { asOf: { 'ofac-sdn': '2026-11-20' } }).screen({ fullName: 'Zakhar Pustovalov' }, policy, new Date('2026-12-31'));
    expect(result).toMatchObject({ status: 'not_evaluated', reason: 'stale_list' });
  });

  it('refuses to start on a malformed snapshot rather than screening against part of a list', () => {
    const dir = folder({ 'ofac-sdn.csv': '1,"A, B","individual"\n' });
    expect(() => FileScreener.fromFolder(dir)).toThrow(SnapshotFormatError);
  });

  it('takes OFAC aliases from an alt.csv beside the main file', async () => {
    const dir = folder({ 'ofac-alt.csv': '9000002,201,"aka","HALVORSEN, Dorian",-0- \n' });
    copyFileSync(join(DEFAULT_SNAPSHOT_FOLDER, 'ofac-sdn.csv'), join(dir, 'ofac-sdn.csv'));
    const result = await FileScreener.fromFolder(dir).screen({ fullName: 'Dorian Halvorsen' }, { ...policy, lists: ['ofac-sdn'] }, new Date());
    expect(result).toMatchObject({ status: 'screened', hits: [{ entry: '9000002', name: 'HALVORSEN, Dorian' }] });
  });
});
