import sharp, { type Sharp } from 'sharp';
import { generateDocument } from '../../../scripts/documents/generate';
import { png } from '../../fixtures/images';
import { GATE_SIDE, gateVerdict, measurePixels } from '../../../src/web/widget-gate';

/**
 * The gate's code as the page runs it, on pictures decoded by sharp and brought down to GATE_SIDE
 * as the page's canvas does. Documents are rendered (a card with a photo and text lines on a
 * table), then blurred, darkened, noised, compressed as a phone would.
 */
function cardSvg(width = 1600, height = 1000, extra = ''): Buffer {
  const lines = Array.from({ length: 12 }, (_, i) => `<rect x="${width * 0.33}" y="${190 + i * 50}" width="${700 - (i % 3) * 120}" height="22" fill="#222"/>`).join('');
  return Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="${width}" height="${height}" fill="#8a8f98"/><rect x="60" y="60" width="${width - 120}" height="${height - 120}" rx="40" fill="#e9eef2"/><rect x="100" y="150" width="360" height="460" fill="#9a7a63"/>${lines}${extra}</svg>`,
  );
}

/**
 * Adds sensor noise: Gaussian noise of standard deviation `sigma` around mid-grey, laid over the
 * picture (overlay: mid-grey leaves it as it is), so mid tones get about `sigma` of noise.
 */
async function noisy(image: Sharp, sigma: number): Promise<Sharp> {
  const { data, info } = await image.removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const noise = await sharp({ create: { width: info.width, height: info.height, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma } } })
    .png()
    .toBuffer();
  const out = await sharp(data, { raw: { width: info.width, height: info.height, channels: 3 } }).composite([{ input: noise, blend: 'overlay' }]).removeAlpha().raw().toBuffer();
  return sharp(out, { raw: { width: info.width, height: info.height, channels: 3 } });
}

async function verdict(image: Sharp, context = 'PHOTO_ID') {
  const full = await image.removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const { width, height } = full.info;
  const { data, info } = await sharp(full.data, { raw: { width, height, channels: 3 } })
    .resize(GATE_SIDE, GATE_SIDE, { fit: 'inside', withoutEnlargement: true })
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const m = measurePixels(data, info.width, info.height, 4);
  return { verdict: gateVerdict(m, width, height, context), m };
}

describe('the widget quality gate', () => {
  it('passes a sharp document photo, in colour and with sensor noise and JPEG compression', async () => {
    expect((await verdict(sharp(cardSvg()))).verdict).toBe('ok');
    expect((await verdict(sharp(await (await noisy(sharp(cardSvg()), 4)).jpeg({ quality: 75 }).toBuffer()))).verdict).toBe('ok');
    // A phone photo: 4000 px wide.
    expect((await verdict(sharp(cardSvg()).resize(4000))).verdict).toBe('ok');
  });

  it.each([
    [2, 'ok'],
    [3, 'ok'],
    [4, 'blurred'],
    [8, 'blurred'],
    [12, 'blurred'],
  ])('tells a document blurred by a Gaussian of sigma %i px (at 1600 px): %s', async (sigma, expected) => {
    expect((await verdict(sharp(cardSvg()).blur(sigma as number))).verdict).toBe(expected);
  });

  it('refuses a blurred document even with the sensor noise and JPEG blocks of a real photo', async () => {
    const blurred = await sharp(cardSvg()).blur(6).png().toBuffer();
    const photo = await (await noisy(sharp(blurred), 3)).jpeg({ quality: 70 }).toBuffer();
    const { verdict: v, m } = await verdict(sharp(photo));
    expect(v).toBe('blurred');
    // Not by a hair: the noise left after bringing it down to GATE_SIDE is far below the threshold.
    expect(m.sharpness).toBeLessThan(30);
  });

  it('refuses a blank picture: one colour, or a plain wall with noise and a light falloff', async () => {
    expect((await verdict(sharp({ create: { width: 1600, height: 1000, channels: 3, background: '#d8d4cc' } }))).verdict).toBe('blank');
    const wall = Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg" width="1600" height="1000"><defs><radialGradient id="g"><stop offset="0" stop-color="#e0dcd4"/><stop offset="1" stop-color="#c4c0b8"/></radialGradient></defs><rect width="1600" height="1000" fill="url(#g)"/></svg>',
    );
    expect((await verdict(await noisy(sharp(wall), 3))).verdict).toBe('blank');
  });

  it('refuses a picture too small to read, and allows a smaller selfie than a document', async () => {
    expect((await verdict(sharp(png(64, 40)))).verdict).toBe('small');
    expect((await verdict(sharp(cardSvg(600, 400)))).verdict).toBe('small');
    expect((await verdict(sharp(png(400, 400)), 'SELFIE')).verdict).toBe('ok');
    expect((await verdict(sharp(png(400, 400)), 'PHOTO_ID')).verdict).toBe('small');
  });

  it('warns of glare on a photo ID, not on a proof of address (a white page is bright all over)', async () => {
    const glare = sharp(cardSvg(1600, 1000, '<ellipse cx="900" cy="450" rx="420" ry="260" fill="#fff"/>'));
    expect((await verdict(glare.clone())).verdict).toBe('glare');
    expect((await verdict(glare.clone(), 'PROOF_OF_ADDRESS')).verdict).toBe('ok');
  });

  describe('framing: are the document\'s four edges in the picture', () => {
    /** Cuts `share` of the picture off one side (or two, for a corner). */
    async function cut(image: Buffer, share: number, sides: ('left' | 'right' | 'top' | 'bottom')[]): Promise<Sharp> {
      const { width = 0, height = 0 } = await sharp(image).metadata();
      const dx = Math.round(width * share);
      const dy = Math.round(height * share);
      return sharp(image).extract({
        left: sides.includes('left') ? dx : 0,
        top: sides.includes('top') ? dy : 0,
        width: width - (sides.includes('left') || sides.includes('right') ? dx : 0),
        height: height - (sides.includes('top') || sides.includes('bottom') ? dy : 0),
      });
    }

    it('passes a document lying whole on a plain table, and warns when it runs out of the picture on a side or at a corner', async () => {
      const card = await sharp(cardSvg()).png().toBuffer();
      const whole = await verdict(sharp(card));
      expect(whole).toMatchObject({ verdict: 'ok', m: { backdrop: 1 } });
      for (const sides of [['left'], ['right'], ['top'], ['bottom'], ['right', 'bottom']] as const) {
        const { verdict: v, m } = await verdict(await cut(card, 0.2, [...sides]));
        expect([sides.join('+'), v]).toEqual([sides.join('+'), 'edges']);
        expect(m.backdrop).toBeGreaterThanOrEqual(0.25);
        expect(m.backdrop).toBeLessThan(0.9);
      }
      // A warning, not a refusal; and a proof of address is framed the same way.
      expect((await verdict(await cut(card, 0.2, ['left']), 'PROOF_OF_ADDRESS')).verdict).toBe('edges');
    });

    it('does not ask a selfie for corners, nor a picture that is the document itself (a scan: no backdrop to tell its edges by)', async () => {
      const card = await sharp(cardSvg()).png().toBuffer();
      expect((await verdict(await cut(card, 0.2, ['left']), 'SELFIE')).verdict).toBe('ok');
      // The card alone, cropped to its own edges: its border is its own paper.
      const scan = await sharp(card).extract({ left: 80, top: 80, width: 1440, height: 840 }).png().toBuffer();
      expect(await verdict(sharp(scan))).toMatchObject({ verdict: 'ok', m: { backdrop: 0 } });
    });

    it('tells a generated passport photographed whole from the same photo cropped (scripts/documents)', async () => {
      const photo = (await generateDocument('passport', 'photographed', 3)).front;
      expect((await verdict(sharp(photo))).verdict).toBe('ok');
      expect((await verdict(await cut(photo, 0.25, ['left']))).verdict).toBe('edges');
      expect((await verdict(await cut(photo, 0.3, ['top', 'right']))).verdict).toBe('edges');
      const perspective = (await generateDocument('id-card', 'perspective', 2)).front;
      expect((await verdict(sharp(perspective))).verdict).toBe('ok');
      expect((await verdict(await cut(perspective, 0.25, ['bottom']))).verdict).toBe('edges');
      // The clean render is the page itself: no warning, whatever is cut.
      const clean = (await generateDocument('passport', 'clean', 3)).front;
      expect((await verdict(sharp(clean))).verdict).toBe('ok');
    }, 60_000);
  });

  it('runs in the page as written: its source is self-contained', () => {
    // The page embeds String(fn): it must not refer to anything outside itself.
    const m = new Function(`return (${String(measurePixels)})`)()(new Uint8Array(4 * 9).fill(255), 3, 3, 4);
    expect(m).toEqual({ spread: 0, sharpness: 0, glare: 1, backdrop: 0 });
    expect(new Function(`return (${String(gateVerdict)})`)()(m, 1000, 800, 'PHOTO_ID')).toBe('blank');
  });
});
