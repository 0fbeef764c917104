/**
 * The AAMVA part of the extraction bench (`--set aamva`, issue 12): licence and ID-card backs whose
 * PDF417 barcodes carry AAMVA texts of every version, for US states and Canadian provinces, rendered
 * with bwip-js and degraded, then read by the offline extractor as a licence back. The truth is the
 * generator's own values; the text is written as the standard describes it, not as the parser reads it.
 *
 * What each version writes (sources: AAMVA DL/ID-2000 (version 01); AAMVA Card Design Specification
 * 2003 and 2005 (02, 03); AAMVA DL/ID Card Design Standard 2009–2020, Annex D "Mandatory PDF417 bar
 * code" (04–10), as quoted by the scanner SDKs' AAMVA documentation (Scandit DL/ID parser, Microblink
 * USDL keys, Scanbot AAMVA config) and the 2016 standard's own sample text):
 * - header: `@` LF RS CR, the file type `ANSI ` (bar codes printed before DL/ID-2000 wrote `AAMVA`),
 *   the issuer's IIN (6 digits), the AAMVA version (2), from version 02 the jurisdiction version (2),
 *   the number of subfiles (2); then one designator per subfile: its type (DL, ID, or Z + the
 *   jurisdiction's letter), its offset from the start of the file (4 digits) and its length (4
 *   digits, the type and the closing CR included). Each subfile starts with its type, its elements
 *   are separated by LF and it ends with CR.
 * - names: version 01 writes the full name in DAA, `LAST,FIRST,MIDDLE` (the bar code uses `,` where
 *   the D20 dictionary writes `@`); 02–03 the family name in DCS and the given names in DCT (first and
 *   middle separated by a comma); 04 on DCS, DAC (first) and DAD (middle names, separated by commas;
 *   `NONE` when there is none), with the truncation indicators DDE, DDF, DDG (T truncated, N not,
 *   U unknown) and names of at most 40 characters.
 * - dates: version 01 CCYYMMDD; from 02 MMDDCCYY for US issuers, CCYYMMDD for Canadian ones.
 * - postal code (DAK, 11 characters): US ZIP+4, the unknown trailing part filled with zeros up to 9
 *   digits; Canadian postal codes as written.
 * - DCG (country) is written from version 04, where it is mandatory; older texts are known by the IIN.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import sharp from 'sharp';
import type { OfflineExtractor } from '../../src/adapters/offline/extractor';
import type { Extraction } from '../../src/ports/extractor';
import { parseAamva } from '../../src/adapters/offline/aamva';
import { fillLicence } from '../../src/adapters/offline/barcode';
import { emptyExtractedData } from '../../src/domain/rules';
import { type Identity, identity, int, pick, random, type Rng } from '../documents/identity';
import { type Condition, degrade, renderLicenceBack, renderLicenceFront } from '../documents/render';
import { bytesOf, decodeBarcode, fieldCorrect, loadSpecimens, REPO } from './specimens';

/** The versions written: 01 also with the pre-standard `AAMVA` file type. */
export const AAMVA_VARIANTS = ['01', '01-AAMVA', '02', '03', '04', '05', '06', '07', '08', '09', '10'] as const;
type Variant = (typeof AAMVA_VARIANTS)[number];

interface Jurisdiction {
  code: string;
  /** Issuer identification number (AAMVA IIN list). */
  iin: string;
  country: 'USA' | 'CAN';
  city: string;
  zip: string;
  number: (rng: Rng, p: Identity) => string;
}
const digits = (rng: Rng, n: number): string => Array.from({ length: n }, () => String(int(rng, 0, 9))).join('');
const letter = (rng: Rng): string => pick(rng, [...'ABCDEFGHJKLMNPRSTVWXYZ']);
const usNumber = (rng: Rng): string => `${letter(rng)}${digits(rng, 7)}`;
const yymmdd = (iso: string): string => iso.slice(2, 4) + iso.slice(5, 7) + iso.slice(8, 10);
const JURISDICTIONS: Jurisdiction[] = [
  { code: 'VA', iin: '636000', country: 'USA', city: 'RICHMOND', zip: '23219', number: usNumber },
  { code: 'NY', iin: '636001', country: 'USA', city: 'ALBANY', zip: '12207', number: (rng) => digits(rng, 9) },
  { code: 'FL', iin: '636010', country: 'USA', city: 'TALLAHASSEE', zip: '32301', number: (rng) => `${letter(rng)}${digits(rng, 12)}` },
  { code: 'CA', iin: '636014', country: 'USA', city: 'SACRAMENTO', zip: '95814', number: usNumber },
  { code: 'TX', iin: '636015', country: 'USA', city: 'AUSTIN', zip: '78701', number: (rng) => digits(rng, 8) },
  { code: 'IL', iin: '636035', country: 'USA', city: 'SPRINGFIELD', zip: '62704', number: (rng) => `${letter(rng)}${digits(rng, 11)}` },
  { code: 'ON', iin: '636012', country: 'CAN', city: 'TORONTO', zip: 'M5V 2T6', number: (rng, p) => `${p.surname[0]}${digits(rng, 4)}-${digits(rng, 5)}-${digits(rng, 5)}` },
  { code: 'QC', iin: '604428', country: 'CAN', city: 'MONTREAL', zip: 'H2X 1Y4', number: (rng, p) => `${p.surname[0]}${digits(rng, 4)}-${yymmdd(p.dateOfBirth)}-${digits(rng, 2)}` },
  { code: 'BC', iin: '636028', country: 'CAN', city: 'VANCOUVER', zip: 'V6B 1A1', number: (rng) => digits(rng, 7) },
  { code: 'AB', iin: '604432', country: 'CAN', city: 'CALGARY', zip: 'T2P 1J9', number: (rng) => `${digits(rng, 6)}-${digits(rng, 3)}` },
  { code: 'MB', iin: '636048', country: 'CAN', city: 'WINNIPEG', zip: 'R3C 0V8', number: (rng, p) => `${p.surname.replace(/\W/g, '').slice(0, 5)}${digits(rng, 6)}` },
  { code: 'NS', iin: '636013', country: 'CAN', city: 'HALIFAX', zip: 'B3J 1A1', number: (rng, p) => `${p.surname.replace(/\W/g, '').slice(0, 5)}${digits(rng, 9)}` },
];

/** Family names longer than the 40 characters version 04 on allows: written truncated, flagged by DDE. */
const LONG_SURNAMES = ['FERNANDEZ DE CORDOBA Y FIGUEROA DE LA VEGA', 'MONTGOMERY-WESTBROOK HOLLOWAY ST JOHN SMYTHE', 'VAN DER BERG-LINDQVIST NAKAMURA QUINTERO SILVA'];

export interface AamvaDocument {
  variant: Variant;
  jurisdiction: Jurisdiction;
  subfile: 'DL' | 'ID';
  person: Identity;
  /** The family name was longer than the version allows and is written truncated (DDE T). */
  truncated: boolean;
  text: string;
}

const mdy = (iso: string): string => iso.slice(5, 7) + iso.slice(8, 10) + iso.slice(0, 4);
const ymd = (iso: string): string => iso.replace(/-/g, '');
const pad = (n: number, width: number): string => String(n).padStart(width, '0');

/** The AAMVA text of a licence or ID card of the given version and jurisdiction. */
export function aamvaText(d: Omit<AamvaDocument, 'text'>, rng: Rng): string {
  const { person: p, jurisdiction: j } = d;
  const version = Number(d.variant.slice(0, 2));
  const date = version === 1 || j.country === 'CAN' ? ymd : mdy;
  const [first = '', ...middle] = p.givenNames.split(' ');
  const postal = j.country === 'USA' ? `${j.zip}${rng() < 0.5 ? '0000' : digits(rng, 4)}`.padEnd(11, ' ') : j.zip.padEnd(11, ' ');
  const sex = p.sex === 'M' ? '1' : '2';
  const licence = d.subfile === 'DL';
  let names: string[];
  let rest: string[];
  if (version === 1) {
    names = [`DAA${[p.surname, first, ...middle].join(',')}`];
    rest = [...(licence ? ['DARD', 'DASNONE', 'DATNONE'] : []), `DBC${p.sex}`, 'DAU5-09', 'DAYBRO'];
  } else if (version <= 3) {
    names = [`DCS${p.surname}`, `DCT${[first, ...middle].join(',')}`];
    rest = [...(licence ? ['DCAD', 'DCBNONE', 'DCDNONE'] : []), `DBC${sex}`, 'DAU069 IN', 'DAYBRO', `DCF${digits(rng, 12)}`];
  } else {
    const surname = d.truncated ? p.surname.slice(0, 40) : p.surname;
    names = [`DCS${surname}`, `DDE${d.truncated ? 'T' : 'N'}`, `DAC${first}`, 'DDFN', `DAD${middle.join(',') || 'NONE'}`, 'DDGN'];
    rest = [...(licence ? ['DCAD', 'DCBNONE', 'DCDNONE'] : []), `DBC${sex}`, 'DAU069 IN', 'DAYBRO', `DCF${digits(rng, 12)}`, `DCG${j.country}`];
    if (version >= 5) rest.push('DDAF', `DDB${date('2016-09-01')}`);
  }
  const elements = [
    `DAQ${p.documentNumber}`, ...names, `DBD${date(p.issueDate)}`, `DBB${date(p.dateOfBirth)}`, `DBA${date(p.expirationDate)}`,
    `DAG${p.street}`, `DAI${p.place.city}`, `DAJ${p.place.state}`, `DAK${postal}`, ...rest,
  ];
  const zType = `Z${j.code[0]}`;
  const subfiles = [`${d.subfile}${elements.join('\n')}\r`, `${zType}${zType}A${digits(rng, 2)}\r`];
  const fileType = d.variant === '01-AAMVA' ? 'AAMVA' : 'ANSI ';
  const header = `@\n\x1e\r${fileType}${j.iin}${pad(version, 2)}${version >= 2 ? pad(int(rng, 0, 3), 2) : ''}${pad(subfiles.length, 2)}`;
  let offset = header.length + 10 * subfiles.length;
  const designators = subfiles.map((s, i) => {
    const designator = `${i === 0 ? d.subfile : zType}${pad(offset, 4)}${pad(s.length, 4)}`;
    offset += s.length;
    return designator;
  });
  return `${header}${designators.join('')}${subfiles.join('')}`;
}

/** Document `i` of a run: versions in turn, both countries in turn, one ID card in five, names truncated only when asked. */
export function aamvaDocument(seed: number, i: number, truncated = false): AamvaDocument {
  const rng = random(seed * 7907 + 3);
  const variant = truncated ? (pick(rng, AAMVA_VARIANTS.slice(4)) as Variant) : (AAMVA_VARIANTS[i % AAMVA_VARIANTS.length] as Variant);
  const country = Math.floor(i / AAMVA_VARIANTS.length) % 2 === 0 ? 'USA' : 'CAN';
  const jurisdiction = pick(rng, JURISDICTIONS.filter((j) => j.country === country));
  const base = identity(rng, { place: 'US', nationality: country });
  const surname = truncated ? pick(rng, LONG_SURNAMES) : base.surname;
  const person: Identity = { ...base, surname, place: { country, city: jurisdiction.city, state: jurisdiction.code, zip: jurisdiction.zip } };
  person.documentNumber = jurisdiction.number(rng, person);
  const doc = { variant, jurisdiction, subfile: rng() < 0.2 ? ('ID' as const) : ('DL' as const), person, truncated };
  return { ...doc, text: aamvaText(doc, rng) };
}

/** The fields scored: those of the specimen set's licences. */
export function aamvaTruth(d: AamvaDocument): Record<string, string> {
  const p = d.person;
  return {
    'person.surname': p.surname, 'person.given_names': p.givenNames, 'person.date_of_birth': p.dateOfBirth,
    'document.number': p.documentNumber, 'document.expiration_date': p.expirationDate,
    'address.street': p.street, 'address.city': p.place.city, 'address.state': p.place.state, 'address.zip': p.place.zip,
  };
}

/**
 * The conditions of the set: the generated set's (render.ts) plus a tilt of up to 10° either way,
 * quarter turns (90/180/270° within 2°), defocus blur, and a hand-held phone capture that has
 * several at once (perspective, tilt, defocus, 500–700 px, JPEG 40–60).
 */
export const AAMVA_CONDITIONS = ['clean', 'scanned', 'photographed', 'tilted', 'turned', 'perspective', 'low-resolution', 'blur', 'jpeg', 'glare', 'handheld'] as const;
export type AamvaCondition = (typeof AAMVA_CONDITIONS)[number];

/**
 * PDF417 data columns of the symbols, drawn 940 px wide on a 1011-px back: the set's 10 (239 modules
 * across, 1.2–1.6 px each on the 300–420-px backs of low-resolution), and 17 for the dense symbols of
 * rows of their own (358 modules, 0.8–1.1 px each there: below what any decoder can separate).
 */
const COLUMNS = 10;
const DENSE_COLUMNS = 17;

/** The back's image in a condition, and the angle it was turned by (tilted, turned). */
export async function aamvaImage(d: AamvaDocument, condition: AamvaCondition, seed: number, columns = COLUMNS): Promise<{ image: Buffer; angle: number }> {
  const rng = random(seed * 131 + AAMVA_CONDITIONS.indexOf(condition));
  const back = await renderLicenceBack(d.person, rng, d.text, columns);
  if (condition === 'tilted' || condition === 'turned') {
    const jitter = condition === 'tilted' ? (rng() - 0.5) * 20 : (rng() - 0.5) * 4;
    const angle = condition === 'turned' ? pick(rng, [90, 180, 270]) + jitter : jitter;
    const image = await sharp(back.toBuffer('image/png')).rotate(angle, { background: pick(rng, ['#5b4a3c', '#3d4b5a', '#d9d4c7']) }).jpeg({ quality: 85 }).toBuffer();
    return { image, angle };
  }
  if (condition === 'handheld') {
    const angle = (rng() - 0.5) * 20;
    const skewed = await degrade(back, 'perspective', rng);
    const turned = await sharp(skewed).rotate(angle, { background: '#3d4b5a' }).blur(0.8 + rng() * 0.7).png().toBuffer();
    return { image: await sharp(turned).resize({ width: int(rng, 500, 700) }).jpeg({ quality: int(rng, 40, 60) }).toBuffer(), angle };
  }
  if (condition === 'blur') return { image: await sharp(back.toBuffer('image/png')).blur(1.2 + rng()).jpeg({ quality: 85 }).toBuffer(), angle: 0 };
  return { image: await degrade(back, condition as Condition, rng), angle: 0 };
}

/** A reported date that is no date, outside 1900–2100, or a birth not before the expiry. */
export function implausibleDates(extraction: Extraction): boolean {
  const birth = extraction.data.person.date_of_birth;
  const expiry = extraction.data.document.expiration_date;
  const bad = (iso: string) => {
    if (iso === '') return false;
    const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso);
    if (!m) return true;
    const [y, mo, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
    return y < 1900 || y > 2100 || mo < 1 || mo > 12 || day < 1 || day > new Date(Date.UTC(y, mo, 0)).getUTCDate();
  };
  return bad(birth) || bad(expiry) || (birth !== '' && expiry !== '' && birth >= expiry);
}

interface Outcome {
  variant: Variant;
  country: string;
  condition: string;
  angle: number;
  read: boolean;
  allCorrect: boolean;
  fields: Record<string, boolean>;
  datesPlausible: boolean;
  confidentlyWrong: string[];
  ms: number;
}

function scoreAamva(d: AamvaDocument, extraction: Extraction, minConfidence: number): Pick<Outcome, 'read' | 'allCorrect' | 'fields' | 'datesPlausible' | 'confidentlyWrong'> {
  const fields: Record<string, boolean> = {};
  const confidentlyWrong: string[] = [];
  for (const [path, truth] of Object.entries(aamvaTruth(d))) {
    const [group, key] = path.split('.') as [keyof Extraction['data'], string];
    const got = ((extraction.data[group] as Record<string, string>)[key] ?? '').trim();
    fields[path] = fieldCorrect(path, got, truth);
    if (!fields[path] && got !== '' && (extraction.confidence[path] ?? 0) >= minConfidence) confidentlyWrong.push(path);
  }
  return { read: extraction.data.document.identified === 'true', allCorrect: Object.values(fields).every(Boolean), fields, datesPlausible: !implausibleDates(extraction), confidentlyWrong };
}

const pct = (a: number, b: number) => (b ? Math.round((1000 * a) / b) / 10 : 0);
const percentile = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? (s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)] as number) : 0;
};

function summary(label: Record<string, string>, outcomes: Outcome[]): Record<string, unknown> {
  const n = outcomes.length;
  const fields: Record<string, number> = {};
  for (const o of outcomes) for (const [f, ok] of Object.entries(o.fields)) fields[f] = (fields[f] ?? 0) + (ok ? 1 : 0);
  const ms = outcomes.map((o) => o.ms);
  return {
    ...label,
    documents: n,
    read: pct(outcomes.filter((o) => o.read).length, n),
    all_fields_correct: pct(outcomes.filter((o) => o.allCorrect).length, n),
    dates_plausible: pct(outcomes.filter((o) => o.datesPlausible).length, n),
    confidently_wrong: outcomes.reduce((s, o) => s + o.confidentlyWrong.length, 0),
    p50_ms: Math.round(percentile(ms, 50)),
    p95_ms: Math.round(percentile(ms, 95)),
    fields: Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, pct(v, n)])),
  };
}

const print = (r: Record<string, unknown>, key: string) =>
  console.log(`aamva ${String(r[key]).padEnd(16)} n ${String(r.documents).padStart(3)}  read ${String(r.read).padStart(5)}%  all correct ${String(r.all_fields_correct).padStart(5)}%  dates plausible ${String(r.dates_plausible).padStart(5)}%  confidently wrong ${r.confidently_wrong}  p50 ${r.p50_ms} ms  p95 ${r.p95_ms} ms`);

/** Turns given to the third-party symbols: issue 12 found photographs tilted by 4° or more unreadable. */
const TURNS = [0, 2, 4, 6, 8, 10, -5, -9, 93, 184, 272];

/**
 * The specimen set's bare PDF417 photographs (third-party, not AAMVA payloads), each turned by sharp
 * by every angle of TURNS on white and decoded as the extractor decodes (specimens.ts decodeBarcode):
 * per angle, how many give their true text, and the decoding time. Empty when ../shared/specimens is absent.
 */
async function thirdPartyTurned(): Promise<Record<string, unknown>[]> {
  const symbols = loadSpecimens().filter((s) => s.kind === 'barcode' && existsSync(resolve(REPO, s.file)));
  const rows: Record<string, unknown>[] = [];
  for (const angle of symbols.length ? TURNS : []) {
    let correct = 0;
    const ms: number[] = [];
    for (const s of symbols) {
      const turned = await sharp(bytesOf(s)).rotate(angle, { background: '#ffffff' }).png().toBuffer();
      const t = performance.now();
      if ((await decodeBarcode(turned)) === s.truth['barcode.text']) correct++;
      ms.push(performance.now() - t);
    }
    const row = { angle, symbols: symbols.length, read: pct(correct, symbols.length), p50_ms: Math.round(percentile(ms, 50)), p95_ms: Math.round(percentile(ms, 95)) };
    console.log(`aamva third-party symbol turned ${String(angle).padStart(4)}°  read ${String(row.read).padStart(5)}% of ${row.symbols}  p50 ${row.p50_ms} ms  p95 ${row.p95_ms} ms`);
    rows.push(row);
  }
  return rows;
}

/** Conditions the dense symbols are shown in: as sent, photographed, and at the resolution where their modules fall under a pixel. */
const DENSE_CONDITIONS: readonly AamvaCondition[] = ['clean', 'photographed', 'low-resolution'];

const ANGLE_BUCKETS: [string, number, number][] = [['0-2°', 0, 2], ['2-4°', 2, 4], ['4-7°', 4, 7], ['7-10°', 7, 10.01]];

/**
 * Runs the set: first the parser alone on every text (no image), then `n` documents per condition
 * through the extractor as a licence back (the front a clean rendering, no expected data), and `n`
 * version-04-on documents whose family name is truncated (clean), and `n` documents with dense
 * symbols per DENSE_CONDITIONS (rows of their own, outside "all images"). Reported per condition, per
 * version, per country and, for tilted backs, per angle; then, apart from the generated set, the
 * specimen set's third-party symbols turned (thirdPartyTurned).
 */
export async function runAamva(extractor: OfflineExtractor, objects: Map<string, Uint8Array>, minConfidence: number, n: number, seed: number, conditions: readonly AamvaCondition[] = AAMVA_CONDITIONS): Promise<Record<string, unknown>> {
  const textOutcomes: Outcome[] = [];
  const outcomes: Outcome[] = [];
  const truncated: Outcome[] = [];
  for (let i = 0; i < n * conditions.length; i++) {
    const d = aamvaDocument(seed * 100_000 + i, i);
    // The parser alone, its fields put as the extractor puts them.
    const text: Extraction = { data: emptyExtractedData(), confidence: {} };
    const fields = parseAamva(d.text);
    if (fields) fillLicence(text.data, text.confidence, fields);
    textOutcomes.push({ variant: d.variant, country: d.jurisdiction.country, condition: 'text', angle: 0, ms: 0, ...scoreAamva(d, text, minConfidence) });
  }
  const run = async (d: AamvaDocument, condition: AamvaCondition, docSeed: number, into: Outcome[], label = condition as string, columns = COLUMNS) => {
    const { image, angle } = await aamvaImage(d, condition, docSeed, columns);
    const id = `aamva-${label}-${docSeed}`;
    objects.set(`${id}/back`, image);
    objects.set(`${id}/front`, (await renderLicenceFront(d.person, random(docSeed))).toBuffer('image/png'));
    const type = d.subfile === 'DL' ? { id: 2, name: 'Driver License' } : { id: 3, name: 'ID Card' };
    const t = performance.now();
    const extraction = await extractor.extract({ contextType: 'PHOTO_ID', documentType: type, country: d.jurisdiction.country, front: { key: `${id}/front`, contentType: 'image/png' }, back: { key: `${id}/back`, contentType: condition === 'clean' ? 'image/png' : 'image/jpeg' }, compareWith: null, expected: null });
    const ms = performance.now() - t;
    objects.delete(`${id}/back`);
    objects.delete(`${id}/front`);
    into.push({ variant: d.variant, country: d.jurisdiction.country, condition: label, angle, ms, ...scoreAamva(d, extraction, minConfidence) });
  };
  for (const [c, condition] of conditions.entries()) {
    for (let i = 0; i < n; i++) await run(aamvaDocument(seed * 100_000 + c * n + i, i), condition, seed * 100_000 + c * n + i, outcomes);
    process.stderr.write(`  aamva ${condition}: ${outcomes.filter((o) => o.condition === condition && o.allCorrect).length}/${n} all correct\n`);
  }
  for (let i = 0; i < n; i++) await run(aamvaDocument(seed * 100_000 + 90_000 + i, i, true), 'clean', seed * 100_000 + 90_000 + i, truncated, 'truncated-name');
  const dense: Outcome[] = [];
  for (const condition of DENSE_CONDITIONS) {
    for (let i = 0; i < n; i++) await run(aamvaDocument(seed * 100_000 + 80_000 + i, i), condition, seed * 100_000 + 80_000 + i, dense, `dense-${condition}`, DENSE_COLUMNS);
  }

  const text = summary({ condition: 'text (parser alone)' }, textOutcomes);
  const rows = [...conditions.map((c) => summary({ condition: c }, outcomes.filter((o) => o.condition === c))), summary({ condition: 'truncated-name' }, truncated), ...DENSE_CONDITIONS.map((c) => summary({ condition: `dense-${c}` }, dense.filter((o) => o.condition === `dense-${c}`)))];
  const byVersion = AAMVA_VARIANTS.map((v) => summary({ version: v }, outcomes.filter((o) => o.variant === v)));
  const byCountry = ['USA', 'CAN'].map((country) => summary({ country }, outcomes.filter((o) => o.country === country)));
  const tilted = outcomes.filter((o) => o.condition === 'tilted');
  const byAngle = ANGLE_BUCKETS.map(([label, lo, hi]) => summary({ angle: label }, tilted.filter((o) => Math.abs(o.angle) >= lo && Math.abs(o.angle) < hi)));
  const all = summary({ condition: 'all images' }, outcomes);
  print(text, 'condition');
  for (const r of rows) print(r, 'condition');
  print(all, 'condition');
  for (const r of byVersion) print(r, 'version');
  for (const r of byCountry) print(r, 'country');
  for (const r of byAngle) print(r, 'angle');
  const failures = outcomes.filter((o) => !o.allCorrect).map((o) => `${o.condition} ${o.variant} ${o.country}${o.angle ? ` ${o.angle.toFixed(1)}°` : ''}: ${o.read ? Object.entries(o.fields).filter(([, ok]) => !ok).map(([f]) => f).join(', ') : 'not read'}`);
  for (const f of failures.slice(0, 12)) console.log(`    ${f}`);
  const turned = await thirdPartyTurned();
  return { n, seed, text, all, rows, by_version: byVersion, by_country: byCountry, tilted_by_angle: byAngle, failures, third_party_symbols_turned: turned };
}
