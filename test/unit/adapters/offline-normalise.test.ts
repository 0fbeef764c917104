import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { boundsOf, normaliser, type RawImage } from '../../../src/adapters/offline/normalise';

/**
 * The lookup-table normaliser gives sharp's `normalise()` bytes: on line-shaped crops of the
 * third-party specimen pages (read in place from ../shared/specimens), grey as one channel and as
 * three, and on the edge cases of libvips' percentile rule.
 */
const SPECIMENS = join(__dirname, '..', '..', '..', '..', 'shared', 'specimens', 'images');
const normalise = normaliser(sharp);

async function sharps(image: RawImage): Promise<RawImage> {
  const { width, height, channels } = image.info;
  const out = await sharp(image.data, { raw: { width, height, channels: channels as 1 | 3 } }).normalise().raw().toBuffer({ resolveWithObject: true });
  return { data: out.data, info: { width: out.info.width, height: out.info.height, channels: out.info.channels } };
}

const same = (a: RawImage, b: RawImage) => a.info.channels === b.info.channels && a.info.width === b.info.width && a.data.equals(b.data);
const asThree = (image: RawImage): RawImage => {
  const data = Buffer.alloc(image.data.length * 3);
  image.data.forEach((v, i) => data.fill(v, 3 * i, 3 * i + 3));
  return { data, info: { ...image.info, channels: 3 } };
};

describe('normalising grey images with a lookup table', () => {
  it('gives sharp’s bytes on line crops of the third-party specimen pages, one channel and three', async () => {
    let seed = 7;
    const random = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
    const files = readdirSync(SPECIMENS).filter((f) => /\.(png|jpe?g)$/i.test(f));
    expect(files.length).toBeGreaterThanOrEqual(40);
    let compared = 0;
    const differing: string[] = [];
    for (const file of files) {
      const page = await sharp(join(SPECIMENS, file)).grayscale().raw().toBuffer({ resolveWithObject: true });
      const { width, height } = page.info;
      expect(page.info.channels).toBe(1);
      for (let k = 0; k < 6; k++) {
        const h = Math.max(4, Math.min(height - 1, Math.round(8 + random() * 50)));
        const w = Math.max(8, Math.min(width - 1, Math.round(40 + random() * 600)));
        const region = { left: Math.floor(random() * (width - w)), top: Math.floor(random() * (height - h)), width: w, height: h };
        const crop = await sharp(page.data, { raw: { width, height, channels: 1 } })
          .extract(region)
          .resize({ width: Math.round((w * 48 * 1.6) / h), height: 48, fit: 'fill' })
          .raw()
          .toBuffer({ resolveWithObject: true });
        // sharp gives the resized grey crop as three equal channels; the first is the one-channel image.
        const n = crop.info.width * crop.info.height;
        const one: RawImage = { data: Buffer.from(Array.from({ length: n }, (_, i) => crop.data[i * crop.info.channels] as number)), info: { width: crop.info.width, height: crop.info.height, channels: 1 } };
        for (const image of [one, asThree(one)]) {
          compared++;
          if (!same(await normalise(image), await sharps(image))) differing.push(`${file} ${JSON.stringify(region)} ×${image.info.channels}`);
        }
      }
    }
    expect(compared).toBeGreaterThanOrEqual(480);
    expect(differing).toEqual([]);
  }, 120_000);

  it('gives sharp’s bytes on flat, two-level, black, white and tiny images', async () => {
    const cases: RawImage[] = [
      { data: Buffer.alloc(400, 128), info: { width: 20, height: 20, channels: 1 } },
      { data: Buffer.alloc(400, 0), info: { width: 20, height: 20, channels: 1 } },
      { data: Buffer.alloc(400, 255), info: { width: 20, height: 20, channels: 1 } },
      { data: Buffer.from(Array.from({ length: 400 }, (_, i) => (i % 7 === 0 ? 20 : 230))), info: { width: 20, height: 20, channels: 1 } },
      { data: Buffer.from(Array.from({ length: 400 }, (_, i) => (i % 2 === 0 ? 120 : 124))), info: { width: 20, height: 20, channels: 1 } },
      { data: Buffer.from([0, 255]), info: { width: 2, height: 1, channels: 1 } },
      { data: Buffer.from(Array.from({ length: 256 }, (_, v) => v)), info: { width: 256, height: 1, channels: 1 } },
    ];
    for (const image of [...cases, ...cases.map(asThree)]) expect(same(await normalise(image), await sharps(image))).toBe(true);
  });

  it('hands a colour image to sharp', async () => {
    const data = Buffer.from(Array.from({ length: 300 }, (_, i) => (i * 37) % 256));
    const image: RawImage = { data, info: { width: 10, height: 10, channels: 3 } };
    expect(same(await normalise(image), await sharps(image))).toBe(true);
  });

  it('finds libvips’ bounds: the first bin over 1 % and 99 % of the bin count, or the bin count when none is', () => {
    const bins = Uint8Array.from({ length: 256 }, (_, v) => Math.floor((v * 100) / 255));
    // Two levels: 10 % at bin 20, 90 % at bin 99. Bin count 100: no bin's scaled count reaches 99.
    const histogram = new Float64Array(256);
    histogram[52] = 10;
    histogram[253] = 90;
    expect(boundsOf(histogram, bins)).toEqual({ min: 20, max: 100, top: 99 });
    // With white present (bin 100, bin count 101), the upper bound is 100 when the total's scaled count
    // rounds to 100 in single precision, and 101 when it rounds below.
    const rounding = (total: number) => Math.trunc(Math.fround(Math.fround(100 / total) * Math.fround(total)));
    const below = Array.from({ length: 5000 }, (_, i) => i + 100).find((t) => rounding(t) < 100) as number;
    const at = Array.from({ length: 5000 }, (_, i) => i + 100).find((t) => rounding(t) === 100) as number;
    for (const [total, max] of [[below, 101], [at, 100]] as const) {
      histogram.fill(0);
      histogram[52] = 10;
      histogram[255] = total - 10;
      expect(boundsOf(histogram, bins).max).toBe(max);
    }
  });
});
