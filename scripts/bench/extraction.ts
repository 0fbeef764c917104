/**
 * npm run bench:extraction [-- --set generated|specimens|aamva|both --n 20 --seed 1 --kinds passport,utility-bill --conditions all --modes none,own,decoy --mrz-fonts all]
 *
 * Generated set: documents of every kind and condition from scripts/documents, through the offline
 * extractor in each mode (`--modes`, all three by default): without expected data, with the
 * document's own, with another person's (decoy); per kind, condition and mode: documents read,
 * fields correct, all-fields-correct rate, per-field accuracy, confidently wrong fields (must be 0),
 * ms per document p50/p95; per mode the issue's summaries (all kinds, licence fronts, proof of address
 * whole); then full applications (photo ID + proof of address + selfie, extracted in parallel as the
 * Map state does). Speed of the generated set is taken without expected data when that mode runs.
 *
 * Specimen set (bench/specimens.json, files in ../shared/specimens): third-party documents, per kind,
 * condition and mode (without / with expected data), against the issue's targets.
 *
 * AAMVA set (scripts/bench/aamva.ts): licence and ID-card backs whose PDF417 barcodes carry AAMVA
 * texts of versions 01–10, US and Canadian, in the conditions of AAMVA_CONDITIONS; per condition,
 * version, country and tilt angle, against the issue's targets (all fields correct ≥ 95 %, dates
 * always plausible, nothing confidently wrong), reported apart from the specimen set.
 *
 * Both: all three sets, and a reliability table (confidence bucket → observed accuracy). Writes
 * bench/extraction.json; running one set keeps the other sets' last results in the file.
 *
 * MRZ fonts (`--mrz-fonts all` or a list of render.ts MRZ_FONTS; scripts/bench/mrz-fonts.ts): the generated
 * passports and ID cards with their MRZ printed in OCR-B and in other monospace fonts, clean and at low
 * resolution (or `--conditions`), without expected data; per font: fields correct and confidently wrong
 * (must be 0). Given alone (no `--set`), only the font rows run; kept in bench/extraction.json under
 * `generated_mrz_fonts`.
 *
 * Consistency across sources (key `consistency`, per set): every photo-ID extraction's per-source
 * readings through the cross-source rule (src/domain/consistency.ts): how often the printed zone was
 * read beside the MRZ or barcode, and how each compared field came out (on genuine documents every
 * `review` is a false disagreement). The generated set adds tampered passports (`--tampered`, default
 * on with the generated set): the printed surname or date of birth changed over a genuine MRZ, and
 * whether the rule sends them to review.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import ruleThresholds from '../../config/rules.json';
import * as engines from '../../src/adapters/offline/engines';
import { timedExtractor } from './extraction/stages';
import { coldStarts, measure, type Measured, speedSummary } from './extraction/speed';
import { facesAvailable, portraitOf, selfieOf, FACE_COUNT } from '../documents/faces';
import { ALL_CONDITIONS, CONDITIONS, type Condition, generateDocument, type GeneratedDocument, KINDS, type Kind, LAYOUT_FRONT_KINDS, LETTER_KINDS } from '../documents/generate';
import { expectedFor, inputFor, score, truthOf } from '../documents/score';
import { addBuckets, type Bucket, bucketsOf, type Observation, printBuckets, supportedThreshold } from './reliability';
import { AAMVA_CONDITIONS, type AamvaCondition, runAamva } from './aamva';
import { runSpecimens, type SpecimenResult } from './specimens';
import { FONT_CONDITIONS, type FontKind, fontsOf, runMrzFonts } from './mrz-fonts';
import { specimenReport } from './specimen-report';
import { crossSource } from '../../src/domain/consistency';
import type { RuleResult } from '../../src/domain/rules';

const { values: args } = parseArgs({ options: { set: { type: 'string' }, n: { type: 'string', default: '20' }, seed: { type: 'string', default: '1' }, kinds: { type: 'string' }, conditions: { type: 'string' }, applications: { type: 'string' }, 'mrz-fonts': { type: 'string' }, cold: { type: 'string' }, modes: { type: 'string', default: 'none,own,decoy' } } });
/**
 * The generated set's modes: without expected data (none), with the document's own (own), with
 * another person's (decoy: nothing of theirs may come back trusted). Every document is read in each.
 */
type Mode = 'none' | 'own' | 'decoy';
const MODES = (args.modes as string).split(',') as Mode[];
for (const m of MODES) if (!['none', 'own', 'decoy'].includes(m)) throw new Error(`--modes: unknown ${m} (none, own, decoy)`);
/** `--mrz-fonts` alone runs only the font rows; otherwise every set unless `--set` names one. */
const SET = (args.set ?? (args['mrz-fonts'] ? 'none' : 'both')) as 'generated' | 'specimens' | 'aamva' | 'both' | 'none';
if (!['generated', 'specimens', 'aamva', 'both', 'none'].includes(SET)) throw new Error(`--set ${SET}: generated, specimens, aamva, both or none`);
const MRZ_FONTS_ARG = args['mrz-fonts'] ? fontsOf(args['mrz-fonts']) : undefined;
const N = Number(args.n);
const SEED = Number(args.seed);
const kinds = (args.kinds ? args.kinds.split(',').filter((k) => (KINDS as readonly string[]).includes(k)) : KINDS) as Kind[];
const specimenKinds = args.kinds?.split(',');
/** The base conditions by default; `--conditions all` adds the hard ones (rotated, perspective, low-resolution, glare, jpeg). */
const conditions = (args.conditions === 'all' ? ALL_CONDITIONS : args.conditions ? args.conditions.split(',') : CONDITIONS) as Condition[];
/** The AAMVA set's conditions (its own list): all by default, or those named with `--set aamva --conditions`. */
const aamvaConditions = (SET === 'aamva' && args.conditions ? args.conditions.split(',') : AAMVA_CONDITIONS) as AamvaCondition[];
for (const c of SET === 'aamva' ? [] : conditions) if (!ALL_CONDITIONS.includes(c)) throw new Error(`--conditions: unknown ${c}`);
for (const c of aamvaConditions) if (!AAMVA_CONDITIONS.includes(c)) throw new Error(`--conditions: unknown AAMVA condition ${c}`);
const APPLICATIONS = Number(args.applications ?? Math.min(N, 10));

// The harness's extractor with its stages timed (extraction/stages.ts): every extraction's wall and CPU
// time, peak RSS and stage times feed the `speed` key.
const { extractor, objects, clock } = timedExtractor();
const measured: Measured[] = [];
measure(extractor, clock, measured);
/** Cold starts (`--cold yes|no`): by default with the specimen set. */
const COLD = args.cold ? args.cold === 'yes' : SET === 'specimens' || SET === 'both';

/** What the cross-source rule made of each photo-ID extraction of this run (the `consistency` key). */
interface ConsistencyObservation {
  document: string;
  /** Readings of the printed zone (source `printed`) beside the machine-readable source's. */
  printed: number;
  machine: number;
  results: Pick<RuleResult, 'name' | 'result' | 'expected' | 'extracted' | 'source'>[];
}
const consistency: ConsistencyObservation[] = [];
const extract = extractor.extract.bind(extractor);
extractor.extract = async (input) => {
  const x = await extract(input);
  if (input.contextType === 'PHOTO_ID') {
    const readings = x.readings ?? [];
    const results = crossSource(readings, ruleThresholds).map(({ name, result, expected, extracted, source }) => ({ name, result, expected, extracted, ...(source && { source }) }));
    consistency.push({ document: input.front.key, printed: readings.filter((r) => r.source === 'printed').length, machine: readings.filter((r) => r.source === 'mrz' || r.source === 'barcode').length, results });
  }
  return x;
};

/** The consistency observations summed: documents with a machine-readable source, with a printed zone read, and each compared field's outcomes. */
function consistencySummary(observations: ConsistencyObservation[]): Record<string, unknown> {
  const machine = observations.filter((o) => o.machine > 0);
  const withPrinted = machine.filter((o) => o.printed > 0);
  const fields: Record<string, Record<string, number>> = {};
  for (const o of machine) for (const r of o.results) if (r.name !== 'consistency.sources') (fields[r.name] ??= { passed: 0, review: 0, not_evaluated: 0 })[r.result] = (fields[r.name]?.[r.result] ?? 0) + 1;
  const compared = Object.values(fields).reduce((a, f) => a + (f.passed ?? 0) + (f.review ?? 0), 0);
  const review = Object.values(fields).reduce((a, f) => a + (f.review ?? 0), 0);
  const disagreements = machine.filter((o) => o.results.some((r) => r.result === 'review'));
  return {
    extractions: observations.length,
    with_mrz_or_barcode: machine.length,
    with_printed_zone: withPrinted.length,
    printed_zone_rate: pct(withPrinted.length, machine.length),
    fields,
    comparisons_decided: compared,
    comparisons_review: review,
    documents_review: disagreements.length,
    review_examples: disagreements.slice(0, 10).map((o) => ({ document: o.document, results: o.results.filter((r) => r.result === 'review') })),
  };
}

const percentile = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? (s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)] as number) : 0;
};
const pct = (a: number, b: number) => (b ? Math.round((1000 * a) / b) / 10 : 0);

function store(doc: GeneratedDocument, id: string): void {
  objects.set(`${id}/front`, doc.front);
  if (doc.back) objects.set(`${id}/back`, doc.back);
}

const OUT = resolve(__dirname, '..', '..', 'bench', 'extraction.json');

/** The last results, so that running one set keeps the other's (older files had the generated set at the top level). */
function previous(): Record<string, unknown> {
  if (!existsSync(OUT)) return {};
  const old = JSON.parse(readFileSync(OUT, 'utf8')) as Record<string, unknown>;
  return 'rows' in old ? { generated: old } : old;
}

async function main(): Promise<void> {
  const started = Date.now();
  // Cold starts first, while this process has loaded nothing heavy (each runs in its own process).
  const cold = COLD ? coldStarts() : undefined;
  const warm = Date.now();
  await Promise.all([engines.paddle(), engines.zxing(), engines.faces(), engines.pdfjs(), engines.sharpModule()]);
  const startupMs = Date.now() - warm;
  const old = previous();
  const result: Record<string, unknown> = { ...old };
  const reliability = (old.reliability ?? {}) as Record<string, unknown>;
  if (SET === 'generated' || SET === 'both') {
    const generated = await runGenerated(startupMs);
    // A smaller run does not silently replace a larger one's table: the larger is kept beside it.
    const before = old.generated as { n?: number } | undefined;
    if (before?.n && before.n > N) result[`generated_n${before.n}`] = before;
    result.generated = generated.report;
    reliability.generated = bucketsOf(generated.observations);
  }
  if (SET === 'specimens' || SET === 'both') {
    const run = await runSpecimens(extractor, objects, ruleThresholds.min_confidence, specimenKinds);
    const { loadavg } = run;
    // A run of some kinds (--kinds) replaces those kinds' documents and keeps the others' last results.
    const kept = specimenKinds ? (((old.specimens as { documents?: SpecimenResult[] } | undefined)?.documents ?? []).filter((d) => !specimenKinds.includes(d.kind))) : [];
    const results = [...kept, ...run.results];
    const report = specimenReport(results, ruleThresholds.min_confidence);
    result.specimens = { machine: { cpus: cpus().length, loadavg_start: loadavg.start, loadavg_end: loadavg.end, note: 'load average of the shared machine (other engineers running jobs) during the run: times are upper bounds of an idle 2-core machine' }, ...report.json };
    reliability.specimens = bucketsOf(report.observations);
  }
  if (SET === 'aamva' || SET === 'both') {
    const load = () => loadavg().map((l) => Math.round(l * 100) / 100);
    const start = load();
    const aamva = await runAamva(extractor, objects, ruleThresholds.min_confidence, N, SEED, aamvaConditions);
    result.aamva = { machine: { cpus: cpus().length, loadavg_start: start, loadavg_end: load(), note: 'load average of the shared machine during the run: times are upper bounds of an idle 2-core machine' }, ...aamva };
  }
  if (MRZ_FONTS_ARG) {
    const fontKinds = (args.kinds ? kinds.filter((k) => k === 'passport' || k === 'id-card') : ['passport', 'id-card']) as FontKind[];
    const fontConditions = args.conditions ? conditions : FONT_CONDITIONS;
    result.generated_mrz_fonts = { n: N, seed: SEED, mode: 'without expected data', ...(await runMrzFonts(extractor, objects, ruleThresholds.min_confidence, MRZ_FONTS_ARG, fontKinds, fontConditions, N, SEED)) };
  }
  const tables = ['generated', 'specimens'].filter((k) => Array.isArray(reliability[k])).map((k) => reliability[k] as Bucket[]);
  reliability.combined = addBuckets(...tables);
  for (const k of ['generated', 'specimens', 'combined']) if (Array.isArray(reliability[k])) printBuckets(`reliability, ${k} set${k === 'combined' ? 's' : ''} (every reported field scored against the truth)`, reliability[k] as Bucket[]);
  const specimenSupport = Array.isArray(reliability.specimens) ? supportedThreshold(reliability.specimens as Bucket[]) : undefined;
  const combinedSupport = supportedThreshold(reliability.combined as Bucket[]);
  reliability.rules_min_confidence = ruleThresholds.min_confidence;
  reliability.supported_threshold = {
    specimens: specimenSupport?.threshold ?? null,
    combined: combinedSupport.threshold ?? null,
    accuracy_at_or_above: combinedSupport.above,
    meaning: 'lowest bucket edge at and above which every reported field was correct; a trust threshold (rules min_confidence) below it lets measured errors through as trusted',
  };
  console.log(`trust threshold supported: specimens ≥ ${specimenSupport?.threshold ?? '—'}, both sets ≥ ${combinedSupport.threshold ?? '— (errors even in the top bucket)'}; rules' min_confidence ${ruleThresholds.min_confidence}`);
  result.reliability = reliability;
  const before = (old.consistency ?? {}) as Record<string, unknown>;
  const now: Record<string, unknown> = { ...before, rules_version_note: 'cross-source rule of src/domain/consistency.ts; on genuine documents every review is a false disagreement' };
  if (SET === 'specimens' || SET === 'both') now.specimens = consistencySummary(consistency.filter((o) => o.document.startsWith('specimen/')));
  if (SET === 'generated' || SET === 'both') {
    // One mode per document (its plain id): the readings compared do not depend on the expected data.
    now[`generated_n${N}`] = consistencySummary(consistency.filter((o) => !o.document.startsWith('specimen/') && !o.document.startsWith('tampered-') && !o.document.includes('~')));
    now[`generated_tampered_n${N}`] = tamperedSummary(consistency.filter((o) => o.document.startsWith('tampered-')));
  }
  result.consistency = now;
  const speedBefore = (old.speed ?? {}) as Record<string, unknown>;
  const speed: Record<string, unknown> = { ...speedBefore, note: 'wall ms of the shared 2-core machine (see loadavg), CPU ms of this process (all its threads) per extraction, peak RSS sampled every 20 ms during it; stage shares are inclusive (a stage holds the engine calls it makes)', loadavg_end: loadavg().map((l) => Math.round(l * 100) / 100), max_rss_mb_process: Math.round(process.resourceUsage().maxRSS / 1024) };
  const specimenKind = (key: string) => /^specimen\/(passport|idcard|dl|poa|barcode)-/.exec(key)?.[1];
  if (SET === 'specimens' || SET === 'both') speed.specimens_without_expected = speedSummary(measured, (m) => (m.key.startsWith('specimen/') && !m.expected ? specimenKind(m.key) : undefined));
  const generatedKind = (key: string) => (key.startsWith('specimen/') || key.startsWith('tampered-') || key.startsWith('app-') ? undefined : [...KINDS].sort((a, b) => b.length - a.length).find((k) => key.startsWith(`${k}-`)));
  if (SET === 'generated' || SET === 'both') speed[`generated_n${N}`] = speedSummary(measured, (m) => (MODES.includes('none') && m.expected ? undefined : generatedKind(m.key)));
  if (cold) speed.cold_start = cold;
  // A run of the font rows alone (--mrz-fonts) keeps the last sets' speed figures.
  if (SET !== 'none') {
    result.speed = speed;
    console.log(`speed: ${JSON.stringify(speed, null, 1)}`);
  }
  console.log(`consistency across sources: ${JSON.stringify(now, null, 1)}`);
  const rss = Math.round(process.memoryUsage().rss / 1024 / 1024);
  console.log(`engines start-up ${startupMs} ms, peak RSS now ${rss} MB, total ${Math.round((Date.now() - started) / 1000)} s`);
  mkdirSync(resolve(OUT, '..'), { recursive: true });
  writeFileSync(OUT, `${JSON.stringify(result, null, 2)}\n`);
  process.exit(0);
}

async function runGenerated(startupMs: number): Promise<{ report: Record<string, unknown>; observations: Observation[] }> {
  const observations: Observation[] = [];
  const rows: Record<string, unknown>[] = [];
  for (const kind of kinds) {
    for (const condition of (kind.endsWith('pdf') ? ['clean'] : conditions) as Condition[]) {
      const docs: GeneratedDocument[] = [];
      for (let i = 0; i < N; i++) docs.push(await generateDocument(kind, condition, SEED * 1000 + i));
      // Kinds read by their layout were measured without expected data only; the others with their own.
      // That mode keeps the document's plain id (the reliability and consistency tables come from it).
      const byLayout = LAYOUT_FRONT_KINDS.includes(kind) || LETTER_KINDS.includes(kind);
      const primary: Mode = byLayout ? 'none' : 'own';
      for (const mode of MODES) {
        const times: number[] = [];
        let read = 0;
        let allCorrect = 0;
        let confidentlyWrong = 0;
        const fieldCorrect: Record<string, number> = {};
        // Documents that print each field (an EU front of one country prints fields another's does not).
        const fieldScored: Record<string, number> = {};
        const failures: string[] = [];
        for (const [i, doc] of docs.entries()) {
          const seed = SEED * 1000 + i;
          const id = `${kind}-${condition}-${seed}${mode === primary ? '' : `~${mode}`}`;
          store(doc, id);
          // The decoy: the next document's person (another name, birth date, number and address).
          const decoy = docs[(i + 1) % docs.length] ?? doc;
          const expected = mode === 'none' ? null : expectedFor(mode === 'own' || decoy === doc ? doc : { ...doc, identity: decoy.identity });
          const t = performance.now();
          const extraction = await extractor.extract(inputFor(doc, id, expected));
          times.push(performance.now() - t);
          const s = score(doc, extraction, ruleThresholds.min_confidence);
          if (mode === primary) {
            for (const path of Object.keys(truthOf(doc))) {
              const [group, key] = path.split('.') as [keyof typeof extraction.data, string];
              if (((extraction.data[group] as Record<string, string>)[key] ?? '') !== '') observations.push({ confidence: extraction.confidence[path] ?? 0, correct: s.fields[path]?.correct ?? false });
            }
          }
          if (s.read) read++;
          if (s.allCorrect) allCorrect++;
          else failures.push(`seed ${seed}: ${Object.entries(s.fields).filter(([, f]) => !f.correct).map(([k]) => k).join(', ')}`);
          confidentlyWrong += s.confidentlyWrong.length;
          for (const [field, f] of Object.entries(s.fields)) {
            fieldCorrect[field] = (fieldCorrect[field] ?? 0) + (f.correct ? 1 : 0);
            fieldScored[field] = (fieldScored[field] ?? 0) + 1;
          }
        }
        const fields = Object.values(fieldCorrect);
        const scored = Object.values(fieldScored);
        const row = {
          kind, condition, mode, documents: N, read: pct(read, N), all_fields_correct: pct(allCorrect, N), confidently_wrong: confidentlyWrong,
          fields_correct: pct(fields.reduce((a, v) => a + v, 0), scored.reduce((a, v) => a + v, 0)),
          p50_ms: Math.round(percentile(times, 50)), p95_ms: Math.round(percentile(times, 95)),
          fields: Object.fromEntries(Object.entries(fieldCorrect).map(([k, v]) => [k, pct(v, fieldScored[k] ?? N)])),
          failures,
        };
        rows.push(row);
        console.log(`${kind.padEnd(17)} ${condition.padEnd(14)} ${mode.padEnd(5)} read ${String(row.read).padStart(5)}%  fields ${String(row.fields_correct).padStart(5)}%  all correct ${String(row.all_fields_correct).padStart(5)}%  confidently wrong ${confidentlyWrong}  p50 ${row.p50_ms} ms  p95 ${row.p95_ms} ms`);
        for (const f of failures.slice(0, 3)) console.log(`    ${f}`);
      }
    }
  }

  // The issue's summaries, per mode: every kind's fields, licence and ID fronts read by their layout, proofs of address read whole.
  const mean = (xs: number[]) => Math.round((10 * xs.reduce((a, x) => a + x, 0)) / Math.max(1, xs.length)) / 10;
  const summary: Record<string, unknown> = {};
  for (const mode of MODES) {
    const label = { none: 'without expected data', own: 'with its own expected data', decoy: "with another person's expected data" }[mode];
    const ofMode = rows.filter((r) => r.mode === mode) as { kind: Kind; all_fields_correct: number; fields: Record<string, number>; confidently_wrong: number }[];
    const line: Record<string, unknown> = {};
    for (const [name, group] of [['all kinds', undefined], ['licence fronts', LAYOUT_FRONT_KINDS], ['proof of address whole', LETTER_KINDS]] as const) {
      const of = group ? ofMode.filter((r) => group.includes(r.kind)) : ofMode;
      if (of.length === 0) continue;
      const figures = { fields_correct: mean(of.flatMap((r) => Object.values(r.fields))), all_fields_correct: mean(of.map((r) => r.all_fields_correct)), confidently_wrong: of.reduce((a, r) => a + r.confidently_wrong, 0) };
      line[name] = figures;
      console.log(`${name} (generated, ${label}): fields correct ${figures.fields_correct}%, all fields correct ${figures.all_fields_correct}%, confidently wrong ${figures.confidently_wrong}`);
    }
    summary[mode] = line;
  }

  // Tampered passports: the printed surname or date of birth changed over the genuine MRZ.
  if (kinds.includes('passport')) {
    for (const condition of conditions) {
      for (let i = 0; i < N; i++) {
        const seed = SEED * 1000 + 700 + i;
        const genuine = (await generateDocument('passport', condition, seed)).identity;
        for (const [what, printed] of [['surname', { surname: genuine.surname === 'HOLLAND' ? 'BRENNAN' : 'HOLLAND' }], ['date_of_birth', { dateOfBirth: `${Number(genuine.dateOfBirth.slice(0, 4)) - 3}${genuine.dateOfBirth.slice(4)}` }]] as const) {
          const doc = await generateDocument('passport', condition, seed, undefined, undefined, printed);
          const id = `tampered-${what}-${condition}-${seed}`;
          store(doc, id);
          await extractor.extract(inputFor(doc, id, expectedFor(doc)));
        }
      }
    }
  }

  // Full applications: passport with a portrait, utility bill, selfie of the same face, in parallel.
  const applications: { ms: number; selfie: string; other: string }[] = [];
  if (facesAvailable()) {
    for (let i = 0; i < APPLICATIONS; i++) {
      const seed = SEED * 1000 + 500 + i;
      const face = i % FACE_COUNT;
      const passport = await generateDocument('passport', CONDITIONS[i % 3] as Condition, seed, await portraitOf(face));
      const bill = await generateDocument('utility-bill', CONDITIONS[i % 3] as Condition, seed, undefined, passport.identity);
      const id = `app-${seed}`;
      store(passport, `${id}-p`);
      store(bill, `${id}-b`);
      objects.set(`${id}-s/front`, await selfieOf(face));
      objects.set(`${id}-x/front`, await selfieOf(face + 1));
      const selfieInput = (key: string) => ({ ...inputFor(passport, key, null), contextType: 'SELFIE' as const, documentType: { id: 6, name: 'Selfie' }, back: null, compareWith: { key: `${id}-p/front`, contentType: 'image/png' } });
      const t = performance.now();
      const [, , selfie] = await Promise.all([
        extractor.extract(inputFor(passport, `${id}-p`, expectedFor(passport))),
        extractor.extract(inputFor(bill, `${id}-b`, expectedFor(bill))),
        extractor.extract(selfieInput(`${id}-s`)),
      ]);
      const ms = performance.now() - t;
      const other = await extractor.extract(selfieInput(`${id}-x`));
      applications.push({ ms, selfie: selfie.data.document.selfie_comparison, other: other.data.document.selfie_comparison });
    }
    const ms = applications.map((a) => a.ms);
    console.log(`full application     ${applications.length} runs  p50 ${Math.round(percentile(ms, 50))} ms  p95 ${Math.round(percentile(ms, 95))} ms`);
    console.log(`selfie similarity    same face ${applications.map((a) => a.selfie).join(' ')} | other face ${applications.map((a) => a.other).join(' ')}`);
  } else {
    console.log('full application     skipped: @vladmandic/face-api (dev dependency, demo faces) is not installed');
  }
  const rss = Math.round(process.memoryUsage().rss / 1024 / 1024);
  return { report: { n: N, seed: SEED, startup_ms: startupMs, rss_mb: rss, modes: MODES, summary, rows, applications }, observations };
}

/** Tampered passports: how many the cross-source rule sends to review on the changed field, per change and condition. */
function tamperedSummary(observations: ConsistencyObservation[]): Record<string, unknown> {
  const rows: Record<string, { documents: number; flagged: number; not_evaluated: number; printed_zone_read: number }> = {};
  for (const o of observations) {
    const [, what, condition] = /^tampered-(surname|date_of_birth)-([a-z-]+)-\d+\/front$/.exec(o.document) ?? [];
    if (!what || !condition) continue;
    const row = (rows[`${what} ${condition}`] ??= { documents: 0, flagged: 0, not_evaluated: 0, printed_zone_read: 0 });
    const rule = o.results.find((r) => r.name === `consistency.person.${what}`);
    row.documents++;
    if (o.printed > 0) row.printed_zone_read++;
    if (rule?.result === 'review') row.flagged++;
    else if (!rule || rule.result === 'not_evaluated') row.not_evaluated++;
  }
  const all = Object.values(rows);
  return { documents: all.reduce((a, r) => a + r.documents, 0), flagged: all.reduce((a, r) => a + r.flagged, 0), rows };
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
