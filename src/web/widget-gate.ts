/**
 * The widget's quality gate, run in the browser on the photo the person picked, before anything is
 * sent: plain functions with no outside reference and no syntax that needs a helper, so that the
 * page script embeds their source as it is (`String(fn)`) and the unit tests run the very same
 * code on decoded images.
 *
 * The measures are taken on the photo drawn into a canvas at most GATE_SIDE pixels on its long side
 * (a phone photo is 3000–4000): what would be a slight softness at full size is gone at that size,
 * so what is still blurred there is blurred for the reader too. Thresholds were set on rendered
 * documents blurred by a Gaussian of growing radius (test/unit/web/widget-gate.test.ts): sharp
 * text gives a Laplacian variance in the thousands, a blur of sigma 3 px at 1600 px about 165,
 * sigma 4 about 40, sigma 8 about 3.
 */
export const GATE_SIDE = 640;

export interface GateMeasures {
  /** Standard deviation of the grey levels: near 0 for a blank picture (a wall, a lens cap). */
  spread: number;
  /** Variance of the 4-neighbour Laplacian of the grey levels: low when edges are soft (blur). */
  sharpness: number;
  /** Share of the pixels at 250 or more in every channel: light reflected off the document. */
  glare: number;
}

/** The measures of an RGBA (4 bytes per pixel) or RGB (3) picture of `width` x `height` pixels. */
export function measurePixels(data: ArrayLike<number>, width: number, height: number, channels: number): GateMeasures {
  const n = width * height;
  const grey = new Float32Array(n);
  let sum = 0;
  let squares = 0;
  let bright = 0;
  for (let i = 0; i < n; i++) {
    const r = data[i * channels] as number;
    const g = data[i * channels + 1] as number;
    const b = data[i * channels + 2] as number;
    const y = 0.299 * r + 0.587 * g + 0.114 * b;
    grey[i] = y;
    sum += y;
    squares += y * y;
    if (r >= 250 && g >= 250 && b >= 250) bright++;
  }
  const mean = sum / n;
  let lSum = 0;
  let lSquares = 0;
  let m = 0;
  for (let y = 1; y < height - 1; y++) {
    for (let x = 1; x < width - 1; x++) {
      const i = y * width + x;
      const l = 4 * (grey[i] as number) - (grey[i - 1] as number) - (grey[i + 1] as number) - (grey[i - width] as number) - (grey[i + width] as number);
      lSum += l;
      lSquares += l * l;
      m++;
    }
  }
  const lMean = m > 0 ? lSum / m : 0;
  return {
    spread: Math.sqrt(Math.max(0, squares / n - mean * mean)),
    sharpness: m > 0 ? Math.max(0, lSquares / m - lMean * lMean) : 0,
    glare: n > 0 ? bright / n : 0,
  };
}

/**
 * The gate's word on a photo of `width` x `height` pixels (full size) for a context: a refusal
 * ('small', 'blank', 'blurred': the person retakes it), a warning ('glare': they may keep it), or
 * 'ok'. A selfie is allowed softer edges than a document (a face has few); a proof of address is
 * not checked for glare (a white page is bright all over).
 */
export function gateVerdict(m: GateMeasures, width: number, height: number, context: string): 'small' | 'blank' | 'blurred' | 'glare' | 'ok' {
  const selfie = context === 'SELFIE';
  if (Math.min(width, height) < (selfie ? 320 : 480)) return 'small';
  if (m.spread < 14) return 'blank';
  if (m.sharpness < (selfie ? 12 : 60)) return 'blurred';
  if (context === 'PHOTO_ID' && m.glare > 0.08) return 'glare';
  return 'ok';
}
