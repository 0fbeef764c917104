import sharp from 'sharp';
import { type Line, clampRegion, levelWindow, levelledSize, lineSquare } from '../../../src/adapters/offline/level';

/**
 * A line's band levelled from a part of its square is byte for byte the band levelled with the whole
 * square (sharp's rotate), for long and short lines, small and large angles, bands that run over the
 * square's edges and squares cut by the page's edge.
 */
const W = 900;
const H = 700;
// A page with texture everywhere (bilinear mixes neighbours, so equal bytes mean equal geometry).
const page = Buffer.alloc(W * H);
for (let i = 0; i < page.length; i++) page[i] = ((i * 7919) % 251) ^ ((i % W) * 3) % 256;

type Region = { left: number; top: number; width: number; height: number };
const geometry = (l: Line) => lineSquare(l, W, H);

const raw = { raw: { width: W, height: H, channels: 1 as const } };

async function wholeSquare(square: Region, band: Region, angle: number) {
  const levelled = await sharp(page, raw).extract(square).rotate(-angle, { background: '#ffffff' }).raw().toBuffer({ resolveWithObject: true });
  const cut = clampRegion(band, levelled.info.width, levelled.info.height);
  const { width, height, channels } = levelled.info;
  return { size: { width, height }, bytes: await sharp(levelled.data, { raw: { width, height, channels } }).extract(cut).raw().toBuffer() };
}

const LINES = [
  { centerX: 450, centerY: 350, length: 620, height: 40, angle: 3 },
  { centerX: 450, centerY: 350, length: 620, height: 40, angle: -2.7 },
  { centerX: 300, centerY: 200, length: 180, height: 22, angle: 0.4 },
  { centerX: 300, centerY: 420, length: 90, height: 30, angle: -11.3 },
  { centerX: 500, centerY: 300, length: 400, height: 48, angle: 0.05 },
  { centerX: 450, centerY: 350, length: 300, height: 30, angle: 44 },
  { centerX: 450, centerY: 350, length: 300, height: 30, angle: 178.2 },
  { centerX: 450, centerY: 350, length: 300, height: 30, angle: -93 },
  // Squares cut by the page's edges.
  { centerX: 60, centerY: 40, length: 300, height: 26, angle: 2.2 },
  // Its band runs over the square's transformed edge (the square is cut by the page's corner): levelled whole.
  { centerX: 880, centerY: 690, length: 500, height: 34, angle: -4.5, whole: true },
  { centerX: 450, centerY: 20, length: 860, height: 30, angle: 1.1 },
];

describe('levelling a line from a part of its square', () => {
  it.each(LINES)('gives the bytes of the whole square levelled (%o)', async (line) => {
    const { square, band } = geometry(line);
    const whole = await wholeSquare(square, band, line.angle);
    expect(levelledSize(square, -line.angle)).toEqual(whole.size);
    const cut = clampRegion(band, whole.size.width, whole.size.height);
    const window = levelWindow(square, -line.angle, cut);
    expect(window === undefined).toBe('whole' in line);
    if (!window) return;
    const part = await sharp(page, raw)
      .extract({ left: square.left + window.part.left, top: square.top + window.part.top, width: window.part.width, height: window.part.height })
      .affine(window.matrix, { background: '#ffffff', odx: window.odx, ody: window.ody })
      .raw()
      .toBuffer({ resolveWithObject: true });
    const { width, height, channels } = part.info;
    const bytes = await sharp(part.data, { raw: { width, height, channels } }).extract(window.cut).raw().toBuffer();
    expect(bytes.equals(whole.bytes)).toBe(true);
  });

  it('levels about a tenth of a long line’s square, not all of it', () => {
    const { square, band } = geometry(LINES[0] as Line);
    const size = levelledSize(square, -3);
    const window = levelWindow(square, -3, clampRegion(band, size.width, size.height));
    expect(window).toBeDefined();
    expect((window?.part.width ?? 0) * (window?.part.height ?? 0)).toBeLessThan(0.2 * square.width * square.height);
  });

  it('levels the whole square for a multiple of 90 degrees (sharp turns those without resampling)', () => {
    expect(levelWindow({ width: 100, height: 100 }, 180, { left: 0, top: 40, width: 100, height: 20 })).toBeUndefined();
  });
});
