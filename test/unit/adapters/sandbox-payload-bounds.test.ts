import { readSandboxPayload } from '../../../src/adapters/sandbox/payload';
import { pngWithZtxt, pngZtxtBomb } from '../../fixtures/hostile-files';

describe('sandbox payload inflate is bounded', () => {
  it('still reads a compressed (zTXt) payload', () => {
    expect(readSandboxPayload(pngWithZtxt({ person: { first_name: 'ADA' } }))).toEqual({ person: { first_name: 'ADA' } });
  });

  it('ignores a zTXt payload that inflates to 256 MB without inflating it (memory grows by less than 64 MB)', async () => {
    const bomb = await pngZtxtBomb(256 * 1024 * 1024);
    global.gc?.();
    const before = process.memoryUsage().rss;
    let peak = before;
    const payload = readSandboxPayload(bomb);
    peak = Math.max(peak, process.memoryUsage().rss);
    expect(payload).toBeUndefined();
    expect((peak - before) / 1024 / 1024).toBeLessThan(64);
  });
});
