import { execFileSync } from 'node:child_process';
import { join, relative } from 'node:path';
import { GlobalFonts } from '@napi-rs/canvas';
import { OCRB_PATH, TEXT_FONT, mrzFontFamily } from '../../../scripts/documents/render';

/**
 * The README's sample passport (seed 7, `npm run sample-documents`) prints its MRZ in the OCR-B font
 * committed beside the generator, so a fresh machine without Debian's fonts-ocr-b reads its names as
 * CI does. Before the font was committed, such a machine printed the MRZ in DejaVu Sans Mono and read
 * seed 7's clean passport as "OLVIA AKAMURA" with full confidence (the walk-through then ended in
 * Double Check). The engines load ES modules jest cannot, so extraction runs in plain Node.
 */
const ROOT = join(__dirname, '..', '..', '..');
const CASES = ['passport:clean:7', 'passport:photographed:7'];

let results: Record<string, any>;
beforeAll(() => {
  const out = execFileSync(join(ROOT, 'node_modules', '.bin', 'tsx'), [join(ROOT, 'scripts', 'documents', 'extract-samples.ts'), ...CASES], { cwd: ROOT, encoding: 'utf8', maxBuffer: 4 * 1024 * 1024, timeout: 180_000 });
  results = Object.fromEntries(out.trim().split('\n').map((line) => { const r = JSON.parse(line); return [r.case, r]; }));
}, 240_000);

describe('sample documents on a machine without a system OCR-B font', () => {
  it('loads OCR-B from the repository, not from a system font folder', () => {
    expect(relative(ROOT, OCRB_PATH)).toBe(join('scripts', 'documents', 'fonts', 'OCRB.otf'));
  });

  it('prints its text in DejaVu Sans from the npm package, under a name no system font answers to', () => {
    // Before, the text asked for the system's "DejaVu Sans" (Debian's fonts-dejavu-core, present in CI
    // only because Chromium's packages bring it); a newcomer's machine printed a fallback instead.
    mrzFontFamily();
    expect(TEXT_FONT).not.toBe('DejaVu Sans');
    const family = GlobalFonts.families.find((f) => f.family === TEXT_FONT);
    expect(family?.styles.map((s) => s.weight).sort()).toEqual([400, 700]);
  });

  it.each(CASES)('reads the holder names of %s correctly and confidently', (c) => {
    const r = results[c];
    expect(r.data.person).toMatchObject({ surname: r.identity.surname, given_names: r.identity.givenNames });
    expect(r.score.fields['person.surname']).toEqual({ correct: true, confident: true });
    expect(r.score.fields['person.given_names']).toEqual({ correct: true, confident: true });
    expect(r.score.confidentlyWrong).toEqual([]);
  });
});
