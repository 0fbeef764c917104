import { readFileSync } from 'node:fs';
import { GlobalFonts, createCanvas } from '@napi-rs/canvas';
import { KINDS, LAYOUT_FRONT_KINDS, LETTER_KINDS, generateDocument } from '../../../scripts/documents/generate';

/**
 * Every generated document (the bench's and the tests' fronts, letters, passports, cards and licences)
 * prints in type faces that come from npm packages, registered under names no system font answers to.
 * Before, licence fronts and letters asked for the system's "Liberation Sans", "Liberation Sans Narrow"
 * and "Liberation Serif", and the open booklet's facing page for `sans-serif`: present in CI only because
 * Chromium's packages bring fonts-liberation; a machine without them printed whatever font it had.
 * Arimo and Tinos come as @fontsource's Latin subsets: a character outside a subset would be drawn in a
 * system font, which CI (with Chromium's fonts) has and a newcomer's machine lacks, so every character
 * drawn in them must lie in the subset's range.
 */
const fontsSet: string[] = [];
/** The text drawn, with the family it was drawn in. */
const drawn: { family: string; text: string }[] = [];
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
  const fillText = (owner as { fillText: (text: string, ...rest: number[]) => void }).fillText;
  Object.defineProperty(owner, 'fillText', {
    configurable: true,
    writable: true,
    value(this: { font: string }, text: string, ...rest: number[]) {
      drawn.push({ family: familyOf(this.font), text });
      return fillText.call(this, text, ...rest);
    },
  });
  restore = () => {
    Object.defineProperty(owner, 'font', descriptor);
    Object.defineProperty(owner, 'fillText', { configurable: true, writable: true, value: fillText });
  };
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
    for (const [family, pkg] of [['Sample Arimo', 'arimo'], ['Sample Tinos', 'tinos']] as const) {
      const ranges = (JSON.parse(readFileSync(require.resolve(`@fontsource/${pkg}/unicode.json`), 'utf8')) as { latin: string }).latin
        .split(',')
        .map((r) => r.replace('U+', '').split('-').map((h) => Number.parseInt(h, 16)))
        .map(([from, to]) => [from as number, to ?? (from as number)] as const);
      const texts = drawn.filter((d) => d.family === family).map((d) => d.text);
      expect(texts.length).toBeGreaterThan(0);
      const outside = [...new Set(texts.join(''))].filter((ch) => !ranges.some(([from, to]) => (ch.codePointAt(0) as number) >= from && (ch.codePointAt(0) as number) <= to));
      expect({ family, outside }).toEqual({ family, outside: [] });
    }
  }, 120_000);
});
