import { GlobalFonts } from '@napi-rs/canvas';
import { createCanvas } from '@napi-rs/canvas';
import { KINDS, LAYOUT_FRONT_KINDS, LETTER_KINDS, generateDocument } from '../../../scripts/documents/generate';

/**
 * Every generated document (the bench's and the tests' fronts, letters, passports, cards and licences)
 * prints in type faces that come from npm packages, registered under names no system font answers to.
 * Before, licence fronts and letters asked for the system's "Liberation Sans", "Liberation Sans Narrow"
 * and "Liberation Serif", and the open booklet's facing page for `sans-serif`: present in CI only because
 * Chromium's packages bring fonts-liberation; a machine without them printed whatever font it had.
 */
const fontsSet: string[] = [];
let restore: () => void = () => undefined;
beforeAll(() => {
  let proto = Object.getPrototypeOf(createCanvas(1, 1).getContext('2d')) as object | null;
  while (proto && !Object.getOwnPropertyDescriptor(proto, 'font')) proto = Object.getPrototypeOf(proto) as object | null;
  const owner = proto as object;
  const descriptor = Object.getOwnPropertyDescriptor(owner, 'font') as PropertyDescriptor;
  Object.defineProperty(owner, 'font', {
    ...descriptor,
    set(this: unknown, value: string) {
      fontsSet.push(value);
      descriptor.set?.call(this, value);
    },
  });
  restore = () => Object.defineProperty(owner, 'font', descriptor);
});
afterAll(() => restore());

/** The family of a CSS font shorthand ("bold 24px \"Sample Arimo\"" → Sample Arimo). */
const familyOf = (font: string): string => (/\d+(?:\.\d+)?px\s+(.+)$/.exec(font)?.[1] ?? font).replace(/^"|"$/g, '');

describe('generated documents print in packaged fonts only', () => {
  it('draws every kind, every face the rng picks and the open booklet in families registered from npm packages', async () => {
    // Eight seeds of each front and letter: every face of their lists is picked at least once (checked below).
    for (const kind of [...LAYOUT_FRONT_KINDS, ...LETTER_KINDS.filter((k) => k !== 'letter-pdf')]) for (let seed = 1; seed <= 8; seed++) await generateDocument(kind, 'clean', seed);
    for (const kind of KINDS.filter((k) => !LAYOUT_FRONT_KINDS.includes(k) && !LETTER_KINDS.includes(k))) await generateDocument(kind, 'clean', 1);
    await generateDocument('passport', 'open-booklet', 1);
    const families = new Set(fontsSet.map(familyOf));
    const registered = new Set(GlobalFonts.families.map((f) => f.family));
    expect([...families].filter((f) => !registered.has(f) || !/^(Sample |MRZ |OCR-B$)/.test(f))).toEqual([]);
    expect([...families].sort()).toEqual(expect.arrayContaining(['Sample Arimo', 'Sample DejaVu Sans', 'Sample DejaVu Sans Condensed', 'Sample DejaVu Serif', 'Sample Tinos', 'OCR-B']));
    for (const family of ['Sample Arimo', 'Sample Tinos', 'Sample DejaVu Sans Condensed', 'Sample DejaVu Serif']) {
      expect(GlobalFonts.families.find((f) => f.family === family)?.styles.map((s) => s.weight).sort()).toEqual([400, 700]);
    }
  }, 120_000);
});
