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
  /**
   * Share (0..1) of the picture's border that shows the backdrop: the border (a strip 1% of the short
   * side deep, at least 2 px) in 12 pieces per side, each a piece of backdrop when it is
   * plain (grey-level deviation under 10) and of the colour most of the plain pieces share (within
   * 40 in RGB distance). 1: the same plain surface all around, the document inside it; 0: no plain
   * surface at the border (a scan, a tight crop, a busy table); in between: the surface on part of the
   * border and something else (the document running out of the picture) on the rest.
   */
  backdrop: number;
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
  // The border, piece by piece: the mean colour and grey-level deviation of each.
  const depth = Math.max(2, Math.round(0.01 * Math.min(width, height)));
  const per = 12;
  const pieces: { r: number; g: number; b: number; plain: boolean }[] = [];
  const piece = (x0: number, y0: number, x1: number, y1: number) => {
    let count = 0;
    let rs = 0;
    let gs = 0;
    let bs = 0;
    let ys = 0;
    let yq = 0;
    for (let y = y0; y < y1; y++) {
      for (let x = x0; x < x1; x++) {
        const i = y * width + x;
        rs += data[i * channels] as number;
        gs += data[i * channels + 1] as number;
        bs += data[i * channels + 2] as number;
        const v = grey[i] as number;
        ys += v;
        yq += v * v;
        count++;
      }
    }
    if (count === 0) return;
    const deviation = Math.sqrt(Math.max(0, yq / count - (ys / count) * (ys / count)));
    pieces.push({ r: rs / count, g: gs / count, b: bs / count, plain: deviation < 10 });
  };
  if (width > 4 * depth && height > 4 * depth) {
    for (let k = 0; k < per; k++) {
      const x0 = Math.floor((k * width) / per);
      const x1 = Math.floor(((k + 1) * width) / per);
      const y0 = Math.floor((k * height) / per);
      const y1 = Math.floor(((k + 1) * height) / per);
      piece(x0, 0, x1, depth);
      piece(x0, height - depth, x1, height);
      piece(0, y0, depth, y1);
      piece(width - depth, y0, width, y1);
    }
  }
  const near = (a: { r: number; g: number; b: number }, c: { r: number; g: number; b: number }) => Math.hypot(a.r - c.r, a.g - c.g, a.b - c.b) < 40;
  /** The colour most plain pieces share (within 40), and how many share it. */
  const commonest = (list: { r: number; g: number; b: number; plain: boolean }[]) => {
    const plainOnes = list.filter((p) => p.plain);
    let best: { r: number; g: number; b: number } | null = null;
    let count = 0;
    for (const p of plainOnes) {
      const c = plainOnes.filter((q) => near(p, q)).length;
      if (c > count) {
        count = c;
        best = p;
      }
    }
    return { colour: best, count };
  };
  const border = commonest(pieces);
  // The paper: the commonest plain colour of the middle of the picture (6 x 6 pieces over its central
  // 60%). A border of the paper's own colour is the document's margin (a scan, a render that is the
  // document), not a backdrop: nothing tells there where the document ends, so it counts as none.
  const inner = pieces.length;
  const cell = Math.max(1, Math.round(Math.min(width, height) * 0.05));
  for (let a = 0; a < 6; a++) {
    for (let c = 0; c < 6; c++) {
      const cx = Math.floor(width * (0.2 + (0.6 * (a + 0.5)) / 6));
      const cy = Math.floor(height * (0.2 + (0.6 * (c + 0.5)) / 6));
      piece(Math.max(0, cx - cell), Math.max(0, cy - cell), Math.min(width, cx + cell), Math.min(height, cy + cell));
    }
  }
  const paper = commonest(pieces.slice(inner)).colour;
  const backdrop = border.colour && !(paper && near(border.colour, paper)) ? border.count / inner : 0;
  pieces.length = inner;
  return {
    spread: Math.sqrt(Math.max(0, squares / n - mean * mean)),
    sharpness: m > 0 ? Math.max(0, lSquares / m - lMean * lMean) : 0,
    glare: n > 0 ? bright / n : 0,
    backdrop: inner > 0 ? backdrop : 0,
  };
}

/**
 * The gate's word on a photo of `width` x `height` pixels (full size) for a context: a refusal
 * ('small', 'blank', 'blurred': the person retakes it), a warning ('glare': they may keep it), or
 * 'ok'. A selfie is allowed softer edges than a document (a face has few); a proof of address is
 * not checked for glare (a white page is bright all over).
 */
export function gateVerdict(m: GateMeasures, width: number, height: number, context: string): 'small' | 'blank' | 'blurred' | 'edges' | 'glare' | 'ok' {
  const selfie = context === 'SELFIE';
  if (Math.min(width, height) < (selfie ? 320 : 480)) return 'small';
  if (m.spread < 14) return 'blank';
  if (m.sharpness < (selfie ? 12 : 60)) return 'blurred';
  if (!selfie && m.backdrop >= 0.25 && m.backdrop < 0.9) return 'edges';
  if (context === 'PHOTO_ID' && m.glare > 0.08) return 'glare';
  return 'ok';
}
