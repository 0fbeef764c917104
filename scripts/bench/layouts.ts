/**
 * npx tsx scripts/bench/layouts.ts [--n 4 --conditions clean,scanned,photographed --kinds licence-front-uk,letter-fr --set generated|specimens|both --group licence|proof --cache /tmp/ocr-cache]
 *
 * Documents read by their layout without expected data (issue 31): licence and ID-card fronts without
 * MRZ or barcode, and proof of address read whole (recipient, street, postal code, city, issue date,
 * issuer). Generated documents (scripts/documents: fronts.ts, letters.ts) and the third-party
 * specimens (../shared/specimens: the licence fronts and proofs of address) are reported apart, each
 * in three modes: without expected data, with the document's own expected data, and with another
 * person's (decoy: nothing of theirs may come back trusted). Per set: fields correct, documents read
 * whole, confidently wrong (a trusted field that is wrong: must be 0).
 *
 * `--cache DIR` keeps the OCR engine's answers by the image bytes it was given, so that a second run
 * over the same documents measures the reading logic without the OCR's cost (never for timing).
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import ruleThresholds from '../../config/rules.json';
import * as engines from '../../src/adapters/offline/engines';
import type { PaddleOcr } from '../../src/adapters/offline/engines';
import type { ExpectedData } from '../../src/domain/entities';
import type { Extraction, ExtractionInput } from '../../src/ports/extractor';
import { type Condition, generateDocument, KIND_TYPES, type Kind, LAYOUT_FRONT_KINDS, LETTER_KINDS } from '../documents/generate';
import { memoryExtractor } from '../documents/harness';
import { bytesOf, fieldCorrect, loadSpecimens } from './specimens';

const { values: args } = parseArgs({ options: { n: { type: 'string', default: '4' }, seed: { type: 'string', default: '1' }, conditions: { type: 'string', default: 'clean,scanned,photographed' }, kinds: { type: 'string' }, set: { type: 'string', default: 'both' }, cache: { type: 'string' }, group: { type: 'string' }, verbose: { type: 'boolean', default: false } } });
const N = Number(args.n);
const SEED = Number(args.seed);
const CONDITIONS = (args.conditions as string).split(',') as Condition[];
const KINDS = (args.kinds ? args.kinds.split(',') : [...(args.group === 'proof' ? [] : LAYOUT_FRONT_KINDS), ...(args.group === 'licence' ? [] : LETTER_KINDS)]) as Kind[];
const MIN = ruleThresholds.min_confidence;

/** The OCR engine with its answers kept on disk by the bytes of the image it was given. */
function cached(dir: string | undefined): () => Promise<PaddleOcr> {
  if (!dir) return engines.paddle;
  mkdirSync(dir, { recursive: true });
  const key = (what: string, png: Buffer) => join(dir, `${what}-${createHash('sha1').update(png).digest('hex')}.json`);
  const keep = async <T>(file: string, run: () => Promise<T>): Promise<T> => {
    if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8')) as T;
    const value = await run();
    writeFileSync(file, JSON.stringify(value));
    return value;
  };
  return async () => {
    const ocr = await engines.paddle();
    const scored = async (crops: Buffer[]) => Promise.all(crops.map((c) => keep(key('read', c), async () => ((await ocr.readScored?.([c])) ?? [{ text: '', mean: 0 }])[0] as { text: string; mean: number })));
    return {
      detect: (png) => keep(key('detect', png), () => ocr.detect(png)),
      lines: (png) => keep(key('lines', png), () => ocr.lines(png)),
      readScored: scored,
      readCrops: async (crops) => (await scored(crops)).map((r) => r.text),
    };
  };
}

const { extractor, objects } = memoryExtractor(undefined, cached(args.cache));

type Mode = 'none' | 'own' | 'decoy';
interface Doc {
  id: string;
  group: 'licence fronts' | 'proof of address';
  context: 'PHOTO_ID' | 'PROOF_OF_ADDRESS';
  typeName: string;
  country: string;
  contentType: string;
  truth: Record<string, string>;
}
interface Outcome {
  fields: number;
  correct: number;
  whole: boolean;
  wrong: string[];
  misses: string[];
  ms: number;
}

/** Expected data built from a truth (first name = all given names). */
function expectedOf(truth: Record<string, string>, country: string): ExpectedData {
  let first = truth['person.given_names'] ?? '';
  let last = truth['person.surname'] ?? '';
  if (!last && truth['person.full_name']) {
    const words = (truth['person.full_name'] as string).split(' ');
    last = words.pop() ?? '';
    first = words.join(' ');
  }
  return {
    person: { first_name: first, last_name: last, date_of_birth: truth['person.date_of_birth'] ?? '' },
    address: { street: truth['address.street'] ?? '', city: truth['address.city'] ?? '', state: truth['address.state'] ?? '', postal_code: truth['address.zip'] ?? '', country },
    documents: { photo_id: { type: '', number: truth['document.number'] ?? '', country }, proof_of_address: { type: '', number: '', country } },
  };
}

const fold = (s: string) => s.normalize('NFD').replace(/\p{M}/gu, '').toUpperCase().replace(/ß/g, 'SS').replace(/[^A-Z0-9]/g, '');

function valueOf(x: Extraction, path: string): { got: string; confidence: number } {
  if (path === 'document.issue_date') {
    const r = x.readings?.find((r) => r.field === path);
    return { got: r?.value ?? '', confidence: x.confidence[path] ?? r?.confidence ?? 0 };
  }
  const [group, key] = path.split('.') as [keyof Extraction['data'], string];
  return { got: ((x.data[group] as Record<string, string>)[key] ?? '').trim(), confidence: x.confidence[path] ?? 0 };
}

/** Fields scored: everything the truth holds but the declared country echoed back. */
const scored = (doc: Doc) => Object.keys(doc.truth).filter((p) => p !== 'address.country' && p !== 'document.country_code');

async function run(doc: Doc, mode: Mode, decoy: Record<string, string>): Promise<Outcome> {
  const input: ExtractionInput = {
    contextType: doc.context,
    documentType: { id: doc.context === 'PHOTO_ID' ? 2 : 4, name: doc.typeName },
    country: doc.country,
    front: { key: doc.id, contentType: doc.contentType },
    back: null,
    compareWith: null,
    expected: mode === 'none' ? null : expectedOf(mode === 'own' ? doc.truth : decoy, doc.country),
  };
  const t = performance.now();
  const x = await extractor.extract(input);
  const ms = performance.now() - t;
  const out: Outcome = { fields: 0, correct: 0, whole: true, wrong: [], misses: [], ms };
  for (const path of scored(doc)) {
    const truth = doc.truth[path] as string;
    const { got, confidence } = valueOf(x, path);
    const ok = path === 'document.issuing_entity' ? fold(got).includes(fold(truth)) || (fold(got) !== '' && fold(truth).includes(fold(got)) && fold(got).length >= 6) : path === 'document.issue_date' ? got === truth : fieldCorrect(path, got, truth) || (fold(got) !== '' && fold(got) === fold(truth));
    out.fields++;
    if (ok) out.correct++;
    else {
      out.whole = false;
      out.misses.push(`${path}=${got || '∅'}(${confidence})`);
    }
    if (!ok && got !== '' && confidence >= MIN) out.wrong.push(`${path}=${got}@${confidence} (truth ${truth})`);
  }
  if (mode === 'decoy') {
    // Nothing of the decoy's may come back trusted unless the document prints it too.
    for (const [path, value] of Object.entries(decoy)) {
      if (path === 'address.country' || path.startsWith('document.issu')) continue;
      const { got, confidence } = valueOf(x, path);
      if (confidence >= MIN && got !== '' && fold(got) === fold(value) && fold(value) !== fold(doc.truth[path] ?? '')) out.wrong.push(`decoy ${path}=${got}@${confidence}`);
    }
  }
  return out;
}

interface Tally {
  docs: number;
  whole: number;
  fields: number;
  correct: number;
  wrong: number;
  ms: number[];
}
const tally = (): Tally => ({ docs: 0, whole: 0, fields: 0, correct: 0, wrong: 0, ms: [] });
const pct = (a: number, b: number) => (b ? Math.round((1000 * a) / b) / 10 : 0);
const p95 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.max(0, Math.ceil(xs.length * 0.95) - 1)] ?? 0;

async function measure(label: string, docs: Doc[]): Promise<Record<string, unknown>> {
  const rows: Record<string, Record<Mode, Tally>> = {};
  for (const [i, doc] of docs.entries()) {
    const decoy = (docs.filter((d) => d.group === doc.group && d !== doc)[i % Math.max(1, docs.length - 1)] ?? doc).truth;
    for (const mode of ['none', 'own', 'decoy'] as const) {
      const o = await run(doc, mode, decoy);
      for (const key of [doc.group, `${doc.group}: ${doc.id.split('/')[0]}`]) {
        const t = ((rows[key] ??= { none: tally(), own: tally(), decoy: tally() })[mode]);
        t.docs++;
        t.fields += o.fields;
        t.correct += o.correct;
        t.whole += o.whole ? 1 : 0;
        t.wrong += o.wrong.length;
        t.ms.push(o.ms);
      }
      if (o.wrong.length > 0 || (args.verbose && !o.whole)) console.log(`  ${doc.id} [${mode}] ${o.wrong.length ? `CONFIDENTLY WRONG ${o.wrong.join('; ')}` : ''} misses: ${o.misses.join(' ')}`);
    }
  }
  console.log(`\n${label}`);
  const json: Record<string, unknown> = {};
  for (const [key, modes] of Object.entries(rows).sort(([a], [b]) => a.localeCompare(b))) {
    const line = (['none', 'own', 'decoy'] as const).map((m) => `${m}: fields ${pct(modes[m].correct, modes[m].fields)}% whole ${pct(modes[m].whole, modes[m].docs)}% wrong ${modes[m].wrong}`).join(' | ');
    console.log(`${key.padEnd(44)} n=${modes.none.docs} ${line} p95 ${Math.round(p95(modes.none.ms))} ms`);
    json[key] = Object.fromEntries((['none', 'own', 'decoy'] as const).map((m) => [m, { documents: modes[m].docs, fields_correct: pct(modes[m].correct, modes[m].fields), whole: pct(modes[m].whole, modes[m].docs), confidently_wrong: modes[m].wrong, p95_ms: Math.round(p95(modes[m].ms)) }]));
  }
  return json;
}

async function generatedDocs(): Promise<Doc[]> {
  const docs: Doc[] = [];
  for (const kind of KINDS) {
    for (const condition of kind.endsWith('pdf') ? (['clean'] as Condition[]) : CONDITIONS) {
      for (let i = 0; i < N; i++) {
        const seed = SEED * 1000 + i;
        const d = await generateDocument(kind, condition, seed);
        if (!d.truth) continue;
        const id = `${kind}-${condition}/${seed}`;
        objects.set(id, d.front);
        const context = KIND_TYPES[kind].context;
        docs.push({ id, group: context === 'PHOTO_ID' ? 'licence fronts' : 'proof of address', context, typeName: kind === 'id-front-fr' ? 'ID Card' : context === 'PHOTO_ID' ? 'Driver License' : 'Utility Bill', country: d.country, contentType: kind.endsWith('pdf') ? 'application/pdf' : condition === 'clean' ? 'image/png' : 'image/jpeg', truth: d.truth });
      }
    }
  }
  return docs;
}

function specimenDocs(): Doc[] {
  return loadSpecimens()
    .filter((s) => s.kind === 'driver_license' || s.kind === 'proof_of_address')
    .map((s) => {
      const id = `specimen/${s.file.split('/').pop()}`;
      objects.set(id, bytesOf(s));
      const context = s.kind === 'driver_license' ? ('PHOTO_ID' as const) : ('PROOF_OF_ADDRESS' as const);
      const truth = Object.fromEntries(Object.entries(s.truth).filter(([k]) => k !== 'person.surname' || context === 'PHOTO_ID').filter(([k]) => k !== 'person.given_names' || context === 'PHOTO_ID'));
      return { id, group: context === 'PHOTO_ID' ? 'licence fronts' : 'proof of address', context, typeName: context === 'PHOTO_ID' ? 'Driver License' : 'Utility Bill', country: s.declared_country, contentType: s.file.endsWith('.pdf') ? 'application/pdf' : s.file.endsWith('.png') ? 'image/png' : 'image/jpeg', truth } satisfies Doc;
    });
}

async function main(): Promise<void> {
  const out: Record<string, unknown> = {};
  const wanted = (d: Doc) => !args.group || d.group.startsWith(args.group);
  if (args.set !== 'specimens') out.generated = await measure('generated (scripts/documents)', (await generatedDocs()).filter(wanted));
  if (args.set !== 'generated') out.specimens = await measure('third-party specimens (../shared/specimens)', specimenDocs().filter(wanted));
  if (args.verbose) console.log(JSON.stringify(out));
  process.exit(0);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
