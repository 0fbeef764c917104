import type Sharp from 'sharp';

/**
 * sharp's `normalise()` for grey images, as a lookup table: the same bytes, about 0.5 ms instead of
 * 8.5 ms for a 48-pixel-high line crop.
 *
 * sharp stretches the image's luminance (CIE L*, through Lab) so that its 1st percentile becomes black
 * and its 99th white. libvips finds those percentiles on a histogram of L* truncated to whole numbers,
 * with as many bins as the largest value present plus one, cumulated, scaled to that bin count in
 * single precision and truncated, and takes the first bin above 1 % (or 99 %) of the bin count, or the
 * bin count when none is. A grey image's pixels are one grey value each, so the stretched value of each
 * grey level is the same wherever it appears: the table is made once per pair of bounds (about 1 ms),
 * by normalising a small image of grey levels whose own bounds are the same, and kept for the life of
 * the process. `test/unit/adapters/offline-normalise.test.ts` compares the bytes with sharp's own
 * on crops of third-party pages.
 */

/** A raw image as sharp gives it: `channels` interleaved bytes per pixel. */
export interface RawImage {
  data: Buffer;
  info: { width: number; height: number; channels: number };
}

export type Normalise = (image: RawImage) => Promise<RawImage>;

interface Bounds {
  min: number;
  max: number;
  /** The largest L* bin present. */
  top: number;
}

/** The bounds libvips' normalise finds for a histogram of grey levels, given each level's L* bin. */
export function boundsOf(histogram: ArrayLike<number>, bins: ArrayLike<number>): Bounds {
  const counts = new Float64Array(101);
  let total = 0;
  for (let v = 0; v < 256; v++) {
    const n = histogram[v] as number;
    if (n > 0) {
      const b = bins[v] as number;
      counts[b] = (counts[b] as number) + n;
      total += n;
    }
  }
  let top = 0;
  for (let b = 0; b <= 100; b++) if ((counts[b] as number) > 0) top = b;
  const size = top + 1;
  // hist_norm: the cumulated histogram times (size - 1) / its maximum, in single precision, truncated.
  const scale = Math.fround((size - 1) / total);
  const first = (percent: number): number => {
    let cum = 0;
    for (let b = 0; b < size; b++) {
      cum += counts[b] as number;
      if (Math.trunc(Math.fround(scale * Math.fround(cum))) > (percent / 100) * size) return b;
    }
    return size;
  };
  return { min: first(1), max: first(99), top };
}

/** A normaliser that gives sharp's `normalise()` bytes for grey images and calls sharp itself for any other. */
export function normaliser(sharp: typeof Sharp): Normalise {
  let levels: Promise<Uint8Array> | undefined;
  /** Each grey level's L* bin (L* truncated), as libvips computes L*. */
  const binsOf = () =>
    (levels ??= (async () => {
      const grey = Buffer.from(Array.from({ length: 256 }, (_, v) => v));
      const lab = await sharp(grey, { raw: { width: 256, height: 1, channels: 1 } }).toColourspace('lab').raw({ depth: 'float' }).toBuffer();
      const l = new Float32Array(lab.buffer, lab.byteOffset, lab.length / 4);
      return Uint8Array.from({ length: 256 }, (_, v) => Math.min(100, Math.max(0, Math.trunc(l[v * 3] as number))));
    })());
  const tables = new Map<string, Promise<{ channels: number; values: Buffer }>>();

  /** Every grey level's stretched pixel for these bounds: sharp's normalise of an image of the levels, weighted so that its bounds are these. */
  const tableFor = (bounds: Bounds, channels: number, bins: Uint8Array) => {
    const key = `${bounds.min}/${bounds.max}/${bounds.top}/${channels}`;
    let table = tables.get(key);
    if (!table) {
      table = (async () => {
        // The levels from the lower bound's bin to the top one, and the nearest level below the lower
        // bound: the levels further below stretch to less than zero and clip as it does (checked
        // against sharp on the specimen crops). Levels over the top bin are in no image with these bounds.
        const levels = Array.from({ length: 256 }, (_, v) => v);
        const kept = levels.filter((v) => (bins[v] as number) >= bounds.min && (bins[v] as number) <= bounds.top);
        const under = levels.filter((v) => (bins[v] as number) < bounds.min).at(-1);
        const present = under === undefined ? kept : [under, ...kept];
        const low = kept[0] as number;
        const high = kept.at(-1) as number;
        // The darkest and lightest kept levels weigh most of the image, so that the lower bound is the
        // lower bound's bin; the weights grow until the upper bound is this one too (it depends on
        // single-precision rounding of the total).
        const histogram = new Float64Array(256);
        let lowWeight = 0;
        let highWeight = 0;
        for (let i = 0; ; i++) {
          lowWeight = 4 * present.length + Math.floor(i / 2);
          highWeight = lowWeight + (i % 2);
          histogram.fill(0);
          for (const v of present) histogram[v] = 1;
          histogram[low] = (histogram[low] as number) + lowWeight;
          histogram[high] = (histogram[high] as number) + highWeight;
          const found = boundsOf(histogram, bins);
          if (found.min === bounds.min && found.max === bounds.max) break;
          if (i > 100_000) throw new Error(`no table image for bounds ${key}`);
        }
        // Every level once, in order (the table is read off these first pixels), then the weights.
        const order = [...present, ...new Array<number>(lowWeight).fill(low), ...new Array<number>(highWeight).fill(high)];
        const raw = Buffer.alloc(order.length * channels);
        order.forEach((v, i) => raw.fill(v, i * channels, (i + 1) * channels));
        const out = await sharp(raw, { raw: { width: order.length, height: 1, channels: channels as 1 | 3 } })
          .normalise()
          .raw()
          .toBuffer({ resolveWithObject: true });
        const c = out.info.channels;
        const values = Buffer.alloc(256 * c);
        present.forEach((v, i) => out.data.copy(values, v * c, i * c, (i + 1) * c));
        if (under !== undefined) for (let v = 0; v < under; v++) values.copy(values, v * c, under * c, (under + 1) * c);
        return { channels: out.info.channels, values };
      })();
      tables.set(key, table);
      table.catch(() => tables.delete(key));
    }
    return table;
  };

  return async (image) => {
    const { data, info } = image;
    const { channels } = info;
    const histogram = new Float64Array(256);
    let grey = channels === 1 || channels === 3;
    for (let i = 0; i < data.length; i += channels) {
      const v = data[i] as number;
      if (channels === 3 && (data[i + 1] !== v || data[i + 2] !== v)) {
        grey = false;
        break;
      }
      histogram[v] = (histogram[v] as number) + 1;
    }
    const bySharp = async (): Promise<RawImage> => {
      const out = await sharp(data, { raw: { width: info.width, height: info.height, channels: channels as 1 | 2 | 3 | 4 } }).normalise().raw().toBuffer({ resolveWithObject: true });
      return { data: out.data, info: { width: out.info.width, height: out.info.height, channels: out.info.channels } };
    };
    if (!grey) return bySharp();
    const bins = await binsOf();
    const bounds = boundsOf(histogram, bins);
    // libvips leaves the luminance of an image whose bounds are one bin apart or less as it is (rare in
    // text: a flat crop); sharp's output format for those is left to sharp.
    if (Math.abs(bounds.max - bounds.min) <= 1) return bySharp();
    const table = await tableFor(bounds, channels, bins);
    const n = info.width * info.height;
    const out = Buffer.alloc(n * table.channels);
    const values = table.values;
    if (table.channels === 3) {
      for (let i = 0, at = 0, to = 0; i < n; i++, at += channels, to += 3) {
        const from = (data[at] as number) * 3;
        out[to] = values[from] as number;
        out[to + 1] = values[from + 1] as number;
        out[to + 2] = values[from + 2] as number;
      }
    } else {
      const c = table.channels;
      for (let i = 0, at = 0; i < n; i++, at += channels) for (let k = 0; k < c; k++) out[i * c + k] = values[(data[at] as number) * c + k] as number;
    }
    return { data: out, info: { width: info.width, height: info.height, channels: table.channels } };
  };
}
