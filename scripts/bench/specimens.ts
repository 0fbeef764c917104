/**
 * The specimen part of the extraction bench: third-party documents nobody here made, listed in
 * bench/specimens.json (files stay in ../shared/specimens, never in the repository). Each document
 * is extracted as the service does it (OfflineExtractor, the declared country, the flow's document
 * type), once without expected data and once with expected data built from the truth (not for bare
 * barcodes), then scored field by field against the truth.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { readPdf417 } from '../../src/adapters/offline/barcode';
import * as engines from '../../src/adapters/offline/engines';
import type { OfflineExtractor } from '../../src/adapters/offline/extractor';
import { mrzCountry } from '../../src/domain/countries';
import type { ExpectedData } from '../../src/domain/entities';
import type { Extraction, ExtractionInput } from '../../src/ports/extractor';
import type { Observation } from './reliability';

export const REPO = resolve(__dirname, '..', '..');
export const SPECIMEN_MANIFEST = join(REPO, 'bench', 'specimens.json');

export type SpecimenKind = 'passport' | 'id_card' | 'driver_license' | 'proof_of_address' | 'barcode';

export interface Specimen {
  /** Relative to the repository root: `../shared/specimens/images/...`. */
  file: string;
  kind: SpecimenKind;
  /** Condition class used for reporting: flat, photo, rotated, perspective, low-resolution, defaced, pdf. */
  condition: string;
  declared_country: string;
  truth: Record<string, string>;
  notes?: string;
  sha256: string;
}

export type Mode = 'no-expected' | 'expected';

/** One document extracted in one mode, scored. */
export interface SpecimenResult {
  file: string;
  kind: SpecimenKind;
  condition: string;
  mode: Mode;
  ms: number;
  /** CPU time of this process during the extraction (user + system, all its threads): less sensitive to the machine's load than `ms`. */
  cpuMs: number;
  fields: Record<string, { truth: string; got: string; confidence: number; correct: boolean }>;
  allCorrect: boolean;
  confidentlyWrong: string[];
}

/**
 * Fields scored per kind: those the service reports for that context. Not scored: `address.country`
 * and a licence's `document.country_code` (the extractor echoes the declared country: measuring them
 * would measure the bench's input), and `person.surname`/`given_names` on a proof of address (only
 * `person.full_name` is reported there).
 */
const SCORED: Record<SpecimenKind, string[]> = {
  passport: ['person.surname', 'person.given_names', 'person.date_of_birth', 'document.number', 'document.expiration_date', 'document.country_code'],
  id_card: ['person.surname', 'person.given_names', 'person.date_of_birth', 'document.number', 'document.expiration_date', 'document.country_code'],
  driver_license: ['person.surname', 'person.given_names', 'person.date_of_birth', 'document.number', 'document.expiration_date', 'address.street', 'address.city', 'address.state', 'address.zip'],
  proof_of_address: ['person.full_name', 'address.street', 'address.city', 'address.state', 'address.zip'],
  barcode: ['barcode.text'],
};

const DOCUMENT_TYPES: Record<Exclude<SpecimenKind, 'barcode'>, { context: 'PHOTO_ID' | 'PROOF_OF_ADDRESS'; id: number; name: string }> = {
  passport: { context: 'PHOTO_ID', id: 1, name: 'Passport' },
  driver_license: { context: 'PHOTO_ID', id: 2, name: 'Driver License' },
  id_card: { context: 'PHOTO_ID', id: 3, name: 'ID Card' },
  proof_of_address: { context: 'PROOF_OF_ADDRESS', id: 4, name: 'Utility Bill' },
};

/** Case-, accent-, space- and punctuation-insensitive, as the generated set's scoring (`MARÍA` = `MARIA`). */
const fold = (s: string): string => s.normalize('NFD').replace(/\p{M}/gu, '').toUpperCase().replace(/[^A-Z0-9]/g, '');

/** Dates compare as ISO strings, barcode text exactly, the issuing state as printed or as the API's alpha-3 it stands for (`D` = `DEU`). */
export function fieldCorrect(path: string, got: string, truth: string): boolean {
  if (path === 'barcode.text') return got === truth;
  if (path.endsWith('date_of_birth') || path.endsWith('expiration_date')) return got.trim() === truth.trim();
  if (path === 'document.country_code') {
    const iso = mrzCountry(truth).iso3;
    return fold(got) === fold(truth) || (iso !== undefined && got.toUpperCase() === iso);
  }
  return fold(got) !== '' && fold(got) === fold(truth);
}

export function loadSpecimens(): Specimen[] {
  const { documents } = JSON.parse(readFileSync(SPECIMEN_MANIFEST, 'utf8')) as { documents: Specimen[] };
  return documents;
}

/** Reads a specimen's bytes from ../shared/specimens and checks them against the manifest's sha256. */
export function bytesOf(s: Specimen): Buffer {
  const path = resolve(REPO, s.file);
  if (!existsSync(path)) throw new Error(`${s.file} not found: the specimen set is expected at ../shared/specimens beside the repository`);
  const bytes = readFileSync(path);
  const sha = createHash('sha256').update(bytes).digest('hex');
  if (sha !== s.sha256) throw new Error(`${s.file}: sha256 ${sha} differs from the manifest's`);
  return bytes;
}

const cpuSince = (start: NodeJS.CpuUsage): number => {
  const d = process.cpuUsage(start);
  return Math.round((d.user + d.system) / 1000);
};

const contentType = (file: string): string => (file.endsWith('.pdf') ? 'application/pdf' : file.endsWith('.png') ? 'image/png' : 'image/jpeg');

/** Expected data as a client who knows the truth would send it (first name = all given names). */
function expectedOf(s: Specimen): ExpectedData {
  const t = s.truth;
  let first = t['person.given_names'] ?? '';
  let last = t['person.surname'] ?? '';
  if (!last && t['person.full_name']) {
    const words = (t['person.full_name'] as string).split(' ');
    last = words.pop() ?? '';
    first = words.join(' ');
  }
  return {
    person: { first_name: first, last_name: last, date_of_birth: t['person.date_of_birth'] ?? '' },
    address: { street: t['address.street'] ?? '', city: t['address.city'] ?? '', state: t['address.state'] ?? '', postal_code: t['address.zip'] ?? '', country: t['address.country'] ?? '' },
    documents: {
      photo_id: { type: '', number: t['document.number'] ?? '', country: s.declared_country },
      proof_of_address: { type: '', number: '', country: s.declared_country },
    },
  };
}

/**
 * A bare PDF417 symbol: the extractor reports AAMVA fields only, so the decoded text is measured with
 * the extractor's own decoding steps (barcode.ts: the upright grayscale page, contrast stretched, read
 * as the licence back is), any text accepted.
 */
export async function decodeBarcode(bytes: Buffer): Promise<string> {
  const sharp = await engines.sharpModule();
  const width = (await sharp(bytes).rotate().metadata()).autoOrient.width;
  const image = { width, png: (w: number) => sharp(bytes).rotate().grayscale().resize({ width: w }).normalize().png().toBuffer() };
  return (await readPdf417(sharp, await engines.zxing(), image, (text) => text)) ?? '';
}

function scoreFields(s: Specimen, values: (path: string) => { got: string; confidence: number }, minConfidence: number): Pick<SpecimenResult, 'fields' | 'allCorrect' | 'confidentlyWrong'> {
  const fields: SpecimenResult['fields'] = {};
  const confidentlyWrong: string[] = [];
  for (const path of SCORED[s.kind]) {
    const truth = s.truth[path];
    if (truth === undefined) continue;
    const { got, confidence } = values(path);
    const correct = fieldCorrect(path, got, truth);
    fields[path] = { truth, got, confidence, correct };
    if (!correct && got !== '' && confidence >= minConfidence) confidentlyWrong.push(path);
  }
  return { fields, allCorrect: Object.values(fields).every((f) => f.correct), confidentlyWrong };
}

const valuesOf = (extraction: Extraction) => (path: string) => {
  const [group, key] = path.split('.') as [keyof Extraction['data'], string];
  return { got: ((extraction.data[group] as Record<string, string> | undefined)?.[key] ?? '').trim(), confidence: extraction.confidence[path] ?? 0 };
};

/**
 * Runs every specimen (filtered by kind when `kinds` is given) in both modes. A bare barcode is also
 * given to the extractor as a licence back, without expected data: it is not an AAMVA payload, so
 * every field it reports counts against confidently_wrong (it must report nothing trusted).
 */
export async function runSpecimens(extractor: OfflineExtractor, objects: Map<string, Uint8Array>, minConfidence: number, kinds?: string[]): Promise<{ results: SpecimenResult[]; loadavg: { start: number[]; end: number[] } }> {
  const start = loadavg().map((l) => Math.round(l * 100) / 100);
  const results: SpecimenResult[] = [];
  for (const s of loadSpecimens().filter((d) => !kinds || kinds.includes(d.kind))) {
    const bytes = bytesOf(s);
    const key = `specimen/${s.file.split('/').pop()}`;
    objects.set(key, bytes);
    if (s.kind === 'barcode') {
      const text = await decodeBarcode(bytes);
      // As a licence back (the time reported is this extraction's): nothing is an AAMVA field here, so
      // any trusted value is confidently wrong.
      const t = performance.now();
      const cpu = process.cpuUsage();
      const extraction = await extractor.extract({ contextType: 'PHOTO_ID', documentType: { id: 2, name: 'Driver License' }, country: 'USA', front: { key, contentType: contentType(s.file) }, back: { key, contentType: contentType(s.file) }, compareWith: null, expected: null });
      const ms = performance.now() - t;
      const cpuMs = cpuSince(cpu);
      const trusted = Object.entries(extraction.confidence).filter(([, c]) => c >= minConfidence).map(([p]) => `licence-back ${p}`);
      const scored = scoreFields(s, () => ({ got: text, confidence: text ? 0.99 : 0 }), minConfidence);
      results.push({ file: s.file, kind: s.kind, condition: s.condition, mode: 'no-expected', ms, cpuMs, ...scored, confidentlyWrong: [...scored.confidentlyWrong, ...trusted] });
      continue;
    }
    const type = DOCUMENT_TYPES[s.kind];
    for (const mode of ['no-expected', 'expected'] as const) {
      const input: ExtractionInput = {
        contextType: type.context,
        documentType: { id: type.id, name: type.name },
        country: s.declared_country,
        front: { key, contentType: contentType(s.file) },
        back: null,
        compareWith: null,
        expected: mode === 'expected' ? expectedOf(s) : null,
      };
      const t = performance.now();
      const cpu = process.cpuUsage();
      const extraction = await extractor.extract(input);
      const ms = performance.now() - t;
      const cpuMs = cpuSince(cpu);
      results.push({ file: s.file, kind: s.kind, condition: s.condition, mode, ms, cpuMs, ...scoreFields(s, valuesOf(extraction), minConfidence) });
      process.stderr.write(`  ${s.file.split('/').pop()} ${mode} ${Math.round(ms)} ms\n`);
    }
  }
  return { results, loadavg: { start, end: loadavg().map((l) => Math.round(l * 100) / 100) } };
}

/** Reliability observations: every scored field with a reported value (bare barcodes' decoded text has no extractor confidence: left out). */
export const observationsOf = (results: SpecimenResult[]): Observation[] =>
  results.filter((r) => r.kind !== 'barcode').flatMap((r) => Object.values(r.fields).filter((f) => f.got !== '').map((f) => ({ confidence: f.confidence, correct: f.correct })));
