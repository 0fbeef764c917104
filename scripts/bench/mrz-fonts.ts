/**
 * The MRZ-font dimension of the extraction bench (`--mrz-fonts`, issue 31): passports and ID cards
 * whose MRZ is printed in OCR-B and in the monospace fonts documents show without it (render.ts
 * MRZ_FONTS), clean and at low resolution, read WITHOUT expected data (the MRZ is read for what it
 * prints, never searched for what is expected). Per font, kind and condition: fields correct,
 * documents all correct, names trusted, and fields confidently wrong (confidence at or above the trust
 * threshold and wrong): the issue's target for the last is 0 in every font.
 *
 * The documents are the generated set's (scripts/documents/generate.ts, same seeds, same identities
 * and degradations), with only the MRZ's font changed.
 */
import type { OfflineExtractor } from '../../src/adapters/offline/extractor';
import { type Condition, type GeneratedDocument, KINDS } from '../documents/generate';
import { ID_CARD_COUNTRIES, identity, PASSPORT_COUNTRIES, random } from '../documents/identity';
import { ALL_CONDITIONS, degrade, MRZ_FONTS, type MrzFont, renderIdCardBack, renderIdCardFront, renderPassport } from '../documents/render';
import { inputFor, score, truthOf } from '../documents/score';

export type FontKind = 'passport' | 'id-card';
/** Conditions of the font rows by default: as printed, and the same page 300–420 px wide. */
export const FONT_CONDITIONS: readonly Condition[] = ['clean', 'low-resolution'];

/** A passport or ID card of the generated set (same seed → same identity and degradation as generateDocument) with its MRZ printed in `font`. */
export async function fontDocument(kind: FontKind, condition: Condition, seed: number, font: MrzFont): Promise<GeneratedDocument> {
  const rng = random(seed * 7919 + KINDS.indexOf(kind) * 104729);
  const noise = random(seed * 31 + 17 + ALL_CONDITIONS.indexOf(condition));
  if (kind === 'passport') {
    const nationality = PASSPORT_COUNTRIES[seed % PASSPORT_COUNTRIES.length] as string;
    const p = identity(rng, { nationality });
    return { kind, condition, seed, country: nationality, front: await degrade(await renderPassport(p, rng, undefined, {}, { mrzFont: font }), condition, noise), back: null, identity: p };
  }
  const nationality = ID_CARD_COUNTRIES[seed % ID_CARD_COUNTRIES.length] as string;
  const p = identity(rng, { nationality });
  const front = await degrade(await renderIdCardFront(p, rng), condition, noise);
  return { kind, condition, seed, country: nationality, front, back: await degrade(await renderIdCardBack(p, rng, { mrzFont: font }), condition, noise), identity: p };
}

export interface FontRow {
  font: MrzFont;
  kind: FontKind;
  condition: Condition;
  documents: number;
  fields_correct: number;
  all_fields_correct: number;
  /** Name fields (surname, given names) reported at or above the threshold, and of those how many right. */
  names_trusted: number;
  confidently_wrong: number;
  p50_ms: number;
  p95_ms: number;
  failures: string[];
}

const pct = (a: number, b: number) => (b ? Math.round((1000 * a) / b) / 10 : 0);
const percentile = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? (s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)] as number) : 0;
};

/** Parses `--mrz-fonts`: `all` or a comma-separated list of MRZ_FONTS. */
export function fontsOf(arg: string): MrzFont[] {
  const fonts = arg === 'all' ? [...MRZ_FONTS] : arg.split(',');
  for (const f of fonts) if (!(MRZ_FONTS as readonly string[]).includes(f)) throw new Error(`--mrz-fonts: unknown ${f} (${MRZ_FONTS.join(', ')} or all)`);
  return fonts as MrzFont[];
}

/** Runs every font × kind × condition, N documents each, without expected data; prints a row per combination and a line per font. */
export async function runMrzFonts(extractor: OfflineExtractor, objects: Map<string, Uint8Array>, minConfidence: number, fonts: MrzFont[], kinds: FontKind[], conditions: readonly Condition[], n: number, seed: number): Promise<{ rows: FontRow[]; per_font: Record<string, { fields: number; fields_correct: number; confidently_wrong: number; names_trusted: number }> }> {
  const rows: FontRow[] = [];
  for (const font of fonts) {
    for (const kind of kinds) {
      for (const condition of conditions) {
        const times: number[] = [];
        let fields = 0;
        let correct = 0;
        let allCorrect = 0;
        let namesTrusted = 0;
        let wrong = 0;
        const failures: string[] = [];
        for (let i = 0; i < n; i++) {
          const s = seed * 1000 + i;
          const doc = await fontDocument(kind, condition, s, font);
          const id = `font-${font}-${kind}-${condition}-${s}`;
          objects.set(`${id}/front`, doc.front);
          if (doc.back) objects.set(`${id}/back`, doc.back);
          const t = performance.now();
          const extraction = await extractor.extract(inputFor(doc, id, null));
          times.push(performance.now() - t);
          objects.delete(`${id}/front`);
          objects.delete(`${id}/back`);
          const scored = score(doc, extraction, minConfidence);
          const truth = truthOf(doc);
          fields += Object.keys(truth).length;
          correct += Object.values(scored.fields).filter((f) => f.correct).length;
          namesTrusted += ['person.surname', 'person.given_names'].filter((p) => scored.fields[p]?.confident).length;
          wrong += scored.confidentlyWrong.length;
          if (scored.allCorrect) allCorrect++;
          else {
            const got = (path: string) => {
              const [group, key] = path.split('.') as [keyof typeof extraction.data, string];
              return `${(extraction.data[group] as Record<string, string>)[key] ?? ''}@${extraction.confidence[path] ?? 0}`;
            };
            failures.push(`seed ${s}: ${Object.entries(scored.fields).filter(([, f]) => !f.correct).map(([k]) => `${k}=${got(k)} (${truth[k]})`).join(', ')}`);
          }
        }
        const row: FontRow = {
          font, kind, condition, documents: n, fields_correct: pct(correct, fields), all_fields_correct: pct(allCorrect, n), names_trusted: namesTrusted, confidently_wrong: wrong,
          p50_ms: Math.round(percentile(times, 50)), p95_ms: Math.round(percentile(times, 95)), failures,
        };
        rows.push(row);
        console.log(`mrz font ${font.padEnd(17)} ${kind.padEnd(9)} ${condition.padEnd(15)} fields correct ${String(row.fields_correct).padStart(5)}%  all correct ${String(row.all_fields_correct).padStart(5)}%  names trusted ${namesTrusted}/${2 * n}  confidently wrong ${wrong}  p50 ${row.p50_ms} ms  p95 ${row.p95_ms} ms`);
        for (const f of failures.slice(0, 3)) console.log(`    ${f}`);
      }
    }
  }
  const perFont: Record<string, { fields: number; fields_correct: number; confidently_wrong: number; names_trusted: number }> = {};
  for (const font of fonts) {
    const mine = rows.filter((r) => r.font === font);
    const docs = mine.reduce((a, r) => a + r.documents, 0);
    perFont[font] = {
      fields: docs * 6,
      fields_correct: Math.round(10 * (mine.reduce((a, r) => a + r.fields_correct * r.documents, 0) / Math.max(1, docs))) / 10,
      confidently_wrong: mine.reduce((a, r) => a + r.confidently_wrong, 0),
      names_trusted: mine.reduce((a, r) => a + r.names_trusted, 0),
    };
    console.log(`mrz font ${font.padEnd(17)} all kinds and conditions: fields correct ${perFont[font].fields_correct}%  confidently wrong ${perFont[font].confidently_wrong}  names trusted ${perFont[font].names_trusted}/${2 * docs}`);
  }
  return { rows, per_font: perFont };
}
