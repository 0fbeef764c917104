/**
 * npm run bench:screening [-- --seed 1 --per-class 250 --negatives 6000 --threshold 0.83 --verbose]:
 * sanctions screening (src/domain/screening, src/adapters/screening) against the OFAC SDN and UN
 * snapshots in ../shared/sanctions (read in place; SANCTIONS_DIR overrides). Prints recall, false
 * positives per 1,000, throughput, latency, and load time and memory per list; writes
 * bench/screening.json. The threshold defaults to the flows' (DEFAULT_SCREENING_THRESHOLD); a sweep
 * prints recall and false positives around it.
 *
 * Positives (generated, seeded): for each list and each class, `--per-class` listed persons drawn at
 * random; the query is one of the entry's strong names (primary, a.k.a., f.k.a.; never a weak
 * alias) changed by the class, and it counts as found when the hits hold THAT entry at or above the
 * threshold. Half the queries carry the listed date of birth (an exact date as is, a year, a year
 * inside a listed range), some the listed nationality or gender. Classes:
 * - exact: the name as listed, given names first;
 * - reordered: the family name first, or the parts rotated when the list does not say which is the family name;
 * - typo: one edit (substitution, deletion, doubled letter or swap) in the longest part (5+ letters);
 * - typo2: one edit in each of the two longest parts (5+ letters each);
 * - missing_middle: middle names left out (names of 3+ parts);
 * - initials: middle names as initials (names of 3+ parts);
 * - fields: first, middle and last name in their own fields (lists that say which part is the family name);
 * - to_script: in the person's own script: the UN's original-script name where the UN gives one,
 *   otherwise, for nationals of countries writing in Cyrillic, the name transliterated to Cyrillic by a letter table;
 * - from_script: the UN's original-script name transliterated back to Latin (any-ascii).
 *
 * Negatives (generated, seeded): ordinary people from 30 cultures' given and family names
 * (scripts/bench/screening-names.ts, written for this bench), a middle name where the culture uses
 * one, family name first where it does, a fifth of Russians and Ukrainians in Cyrillic, 70 % with a
 * date of birth (1940-2006), half with a nationality of the culture. A generated person whose name,
 * once normalised, is exactly a listed person's name (its parts in any order), or a listed name
 * without its middle names (what a missing_middle positive is), is left out and counted: it is on
 * the list, not a false positive.
 *
 * Throughput and latency: every query screened once, one at a time, after the lists are loaded, on
 * this machine (2 shared cores). Load time and memory: each list alone and both, each in a fresh
 * process (parse + index; heap and RSS after a GC, minus the process before loading).
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import anyAscii from 'any-ascii';
import { FileScreener, readSnapshotFolder } from '../../src/adapters/screening/file-screener';
import { DEFAULT_SCREENING_THRESHOLD } from '../../src/domain/screening/defaults';
import { tokenise } from '../../src/domain/screening/normalise';
import type { ListedDate, ListEntry, ListSnapshot, ScreenedPerson, ScreeningPolicy } from '../../src/domain/screening/types';
import { CULTURES } from './screening-names';
import { random } from '../documents/identity';

const ROOT = resolve(__dirname, '..', '..');
const SANCTIONS = process.env.SANCTIONS_DIR ?? join(ROOT, '..', 'shared', 'sanctions');
/** OFAC's legacy CSV carries no date: the shared snapshot's, from its README. */
const AS_OF = { 'ofac-sdn': '2024-05-03' };
const LISTS = ['ofac-sdn', 'un-sc'];

const { values: args } = parseArgs({
  options: {
    seed: { type: 'string', default: '1' },
    'per-class': { type: 'string', default: '250' },
    negatives: { type: 'string', default: '6000' },
    threshold: { type: 'string', default: String(DEFAULT_SCREENING_THRESHOLD) },
    verbose: { type: 'boolean', default: false },
    'load-only': { type: 'string' },
    out: { type: 'string', default: join(ROOT, 'bench', 'screening.json') },
  },
});

/** Child mode: load the named lists, print load time and memory as JSON. */
function loadOnly(which: string): void {
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  const before = process.memoryUsage();
  const started = performance.now();
  const lists = which === 'both' ? LISTS : [which];
  const screener = new FileScreener(readSnapshotFolder(SANCTIONS, { lists, asOf: AS_OF }));
  const loadMs = performance.now() - started;
  gc?.();
  const after = process.memoryUsage();
  console.log(JSON.stringify({ lists, loadMs: Math.round(loadMs), heapMb: mb(after.heapUsed - before.heapUsed), rssMb: mb(after.rss - before.rss), gc: !!gc, keep: !!screener }));
}

const mb = (bytes: number) => Math.round(bytes / 1e5) / 10;

type Rand = () => number;
const pick = <T>(r: Rand, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)] as T;

const CYRILLIC: [string, string][] = [
  ['shch', 'щ'], ['ye', 'е'], ['zh', 'ж'], ['kh', 'х'], ['ts', 'ц'], ['ch', 'ч'], ['sh', 'ш'], ['yu', 'ю'], ['ya', 'я'], ['yo', 'ё'],
  ['a', 'а'], ['b', 'б'], ['v', 'в'], ['g', 'г'], ['d', 'д'], ['e', 'е'], ['z', 'з'], ['i', 'и'], ['y', 'й'], ['k', 'к'],
  ['l', 'л'], ['m', 'м'], ['n', 'н'], ['o', 'о'], ['p', 'п'], ['r', 'р'], ['s', 'с'], ['t', 'т'], ['u', 'у'], ['f', 'ф'],
  ['h', 'х'], ['c', 'к'], ['j', 'дж'], ['w', 'в'], ['x', 'кс'], ['q', 'к'],
];

/** Nationalities whose names are written in Cyrillic first and romanised the Russian way (which the letter table inverts). */
const CYRILLIC_COUNTRIES = new Set(['RU', 'BY', 'UA', 'KZ', 'KG', 'TJ']);

/** Latin to Cyrillic by a letter table, as a clerk would write a foreign name. */
function toCyrillic(text: string): string {
  return text
    .split(/(\s+)/)
    .map((word) => {
      let out = '';
      const lower = anyAscii(word).toLowerCase();
      for (let i = 0; i < lower.length; ) {
        const hit = CYRILLIC.find(([lat]) => lower.startsWith(lat, i));
        if (hit) {
          out += hit[1];
          i += hit[0].length;
        } else {
          out += lower[i];
          i++;
        }
      }
      return out.charAt(0).toUpperCase() + out.slice(1);
    })
    .join('');
}

/** One edit at a letter inside the word (not its first letter, not beside a space or hyphen). */
function typo(r: Rand, word: string): string {
  const inner = [...word].map((_, i) => i).filter((i) => i > 0 && i < word.length - 1 && /\p{L}/u.test(word.slice(i - 1, i + 2).replace(/\P{L}/gu, '#')) && !/[^\p{L}]/u.test(word.slice(i - 1, i + 2)));
  if (inner.length === 0) return word;
  const i = pick(r, inner);
  const kind = Math.floor(r() * 4);
  const letters = 'aeioubdgklmnrst';
  if (kind === 0) return word.slice(0, i) + pick(r, [...letters].filter((c) => c !== word[i]?.toLowerCase())) + word.slice(i + 1);
  if (kind === 1) return word.slice(0, i) + word.slice(i + 1);
  if (kind === 2) return word.slice(0, i) + word[i] + word.slice(i);
  return word.slice(0, i) + (word[i + 1] ?? '') + word[i] + word.slice(i + 2);
}

function dobFrom(r: Rand, dates: readonly ListedDate[]): string | undefined {
  const d = dates[0];
  if (!d) return undefined;
  if ('exact' in d) return d.exact;
  if ('month' in d) return d.month;
  if ('fromYear' in d) return String(d.fromYear + Math.floor(r() * (d.toYear - d.fromYear + 1)));
  return String(d.year);
}

interface Positive {
  list: string;
  cls: string;
  entry: string;
  person: ScreenedPerson;
}

const CLASSES = ['exact', 'reordered', 'typo', 'typo2', 'missing_middle', 'initials', 'fields', 'to_script', 'from_script'] as const;

/** Titles a document does not carry: a generated query leaves them out. */
const TITLES = new Set(['haji', 'hajji', 'alhaj', 'sheikh', 'shaykh', 'shaikh', 'maulavi', 'mawlawi', 'maulvi', 'mullah', 'mulla', 'qari', 'mufti', 'hafiz', 'dr', 'dr.', 'col', 'col.', 'colonel', 'general', 'gen.', 'engineer', 'eng.', 'prof.', 'major', 'brigadier', 'captain', 'lieutenant', 'commander', 'imam', 'mr', 'mr.']);
/** Particles that belong to the next word (Abdul Rahman, Abu Bakr, Al Tikriti, bin Laden): kept with it as one name unit. */
const JOINING = new Set(['abd', 'abdul', 'abdel', 'abdal', 'abdus', 'abdur', 'abdou', 'abdoul', 'abu', 'al', 'el', 'bin', 'ibn', 'bint', 'ben', 'ould', 'de', 'del', 'la', 'van', 'von', 'da', 'dos', 'di']);

/** The name units of a listed name: titles left out, particles kept with the word they introduce. */
function words(text: string): string[] {
  const all = text.split(/[\s,]+/).filter((w) => /\p{L}/u.test(w));
  const untitled = all.filter((w) => !TITLES.has(w.toLowerCase()));
  // A title that is all there is (a family name "HAJJI") is the name.
  const raw = untitled.length > 0 ? untitled : all;
  const units: string[] = [];
  for (let i = 0; i < raw.length; i++) {
    let unit = raw[i] as string;
    while (JOINING.has((unit.split(' ').pop() as string).toLowerCase().replace(/[^a-z]/g, '')) && i + 1 < raw.length) unit += ` ${raw[++i]}`;
    units.push(unit);
  }
  return units;
}

/** One positive of a class from an entry, or undefined when the class does not apply to it. */
function variant(r: Rand, cls: (typeof CLASSES)[number], entry: ListEntry): ScreenedPerson | undefined {
  const strong = entry.names.filter((n) => n.quality === 'strong' && n.kind !== 'original_script');
  const name = pick(r, strong);
  if (!name) return undefined;
  const given = name.parts ? words(name.parts.given?.join(' ') ?? '') : words(name.full).slice(0, -1);
  const family = name.parts ? words(name.parts.family?.join(' ') ?? '') : words(name.full).slice(-1);
  const all = [...given, ...family];
  if (all.length < 2) return undefined;
  const original = entry.names.find((n) => n.kind === 'original_script');
  let person: ScreenedPerson;
  switch (cls) {
    case 'exact':
      person = { fullName: all.join(' ') };
      break;
    case 'reordered':
      person = { fullName: (name.parts ? [...family, ...given] : [...all.slice(1), all[0] as string]).join(' ') };
      break;
    case 'typo':
    case 'typo2': {
      const order = all.map((w, i) => [w.replace(/\P{L}/gu, '').length, i] as const).filter(([len]) => len >= 5).sort((a, b) => b[0] - a[0]);
      const n = cls === 'typo' ? 1 : 2;
      if (order.length < n) return undefined;
      const changed = [...all];
      for (const [, i] of order.slice(0, n)) changed[i] = typo(r, changed[i] as string);
      person = { fullName: changed.join(' ') };
      break;
    }
    case 'missing_middle':
      if (all.length < 3) return undefined;
      person = { fullName: [all[0], all[all.length - 1]].join(' ') };
      break;
    case 'initials':
      if (all.length < 3) return undefined;
      // The initial of the unit's own name, not of its particle (Ben Omar → O.).
      person = { fullName: all.map((w, i) => (i === 0 || i === all.length - 1 ? w : `${(w.split(' ').pop() as string)[0]}.`)).join(' ') };
      break;
    case 'fields':
      if (!name.parts || given.length === 0 || family.length === 0) return undefined;
      person = { firstName: given[0], ...(given.length > 1 ? { middleName: given.slice(1).join(' ') } : {}), lastName: family.join(' ') };
      break;
    case 'to_script':
      if (!original && !entry.nationalities.some((c) => CYRILLIC_COUNTRIES.has(c))) return undefined;
      person = { fullName: original ? original.full : toCyrillic(all.join(' ')) };
      break;
    case 'from_script':
      if (!original) return undefined;
      person = { fullName: anyAscii(original.full) };
      break;
  }
  if (r() < 0.5) {
    const dob = dobFrom(r, entry.datesOfBirth);
    if (dob) person.dateOfBirth = dob;
  }
  if (r() < 0.3 && entry.nationalities[0]) person.nationality = entry.nationalities[0];
  if (r() < 0.3 && entry.gender) person.gender = entry.gender;
  return person;
}

function positives(r: Rand, snapshots: ListSnapshot[], perClass: number): Positive[] {
  const out: Positive[] = [];
  for (const s of snapshots) {
    const persons = s.entries.filter((e) => e.kind === 'person');
    for (const cls of CLASSES) {
      let made = 0;
      for (let tries = 0; made < perClass && tries < perClass * 20; tries++) {
        const entry = pick(r, persons);
        const person = variant(r, cls, entry);
        if (!person) continue;
        out.push({ list: s.list, cls, entry: entry.id, person });
        made++;
      }
    }
  }
  return out;
}

function signature(name: string): string {
  return tokenise(name)
    .map((t) => t.text)
    .sort()
    .join(' ');
}

function negatives(r: Rand, count: number, listed: Set<string>): { people: ScreenedPerson[]; onTheList: number } {
  const people: ScreenedPerson[] = [];
  let onTheList = 0;
  while (people.length < count) {
    const c = pick(r, CULTURES);
    const female = r() < 0.5;
    const first = pick(r, female ? c.female : c.male);
    const middle = c.middle && r() < 0.5 ? pick(r, female ? c.female : c.male) : undefined;
    const last = pick(r, c.family);
    if (middle === first) continue;
    const givens = [first, middle].filter(Boolean).join(' ');
    let full = c.familyFirst ? `${last} ${givens}` : `${givens} ${last}`;
    if (listed.has(signature(full))) {
      onTheList++;
      continue;
    }
    if ((c.name === 'Russian' || c.name === 'Ukrainian') && r() < 0.2) full = toCyrillic(full);
    const person: ScreenedPerson = r() < 0.5 ? { fullName: full } : { firstName: first, ...(middle ? { middleName: middle } : {}), lastName: last };
    if (r() < 0.7) {
      const y = 1940 + Math.floor(r() * 67);
      const m = 1 + Math.floor(r() * 12);
      const d = 1 + Math.floor(r() * 28);
      person.dateOfBirth = `${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
    }
    if (r() < 0.5) person.nationality = pick(r, c.countries);
    if (r() < 0.5) person.gender = female ? 'female' : 'male';
    people.push(person);
  }
  return { people, onTheList };
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

function main(): void {
  if (args['load-only']) return loadOnly(args['load-only']);
  const seed = Number(args.seed);
  const threshold = Number(args.threshold);
  const r = random(seed);

  const loads = ['ofac-sdn', 'un-sc', 'both'].map((which) => {
    const out = execFileSync(process.execPath, ['--expose-gc', ...process.execArgv.filter((a) => a !== '--expose-gc'), __filename, '--load-only', which], { encoding: 'utf8', env: process.env });
    return JSON.parse(out.trim().split('\n').pop() as string) as { lists: string[]; loadMs: number; heapMb: number; rssMb: number };
  });

  const snapshots = readSnapshotFolder(SANCTIONS, { asOf: AS_OF });
  const screener = new FileScreener(snapshots);
  const policy: ScreeningPolicy = { lists: LISTS, threshold, maxAgeDays: 100_000 };
  const now = new Date();

  const listed = new Set<string>();
  for (const s of snapshots) {
    for (const e of s.entries) {
      if (e.kind !== 'person') continue;
      for (const n of e.names) {
        listed.add(signature(n.full));
        // The listed name without its middle names: what the missing_middle positives are.
        const given = n.parts ? words(n.parts.given?.join(' ') ?? '') : words(n.full).slice(0, -1);
        const family = n.parts ? words(n.parts.family?.join(' ') ?? '') : words(n.full).slice(-1);
        if (given[0] && family.length) listed.add(signature([given[0], ...family].join(' ')));
      }
    }
  }

  const pos = positives(r, snapshots, Number(args['per-class']));
  const neg = negatives(r, Number(args.negatives), listed);

  const times: number[] = [];
  const screen = (person: ScreenedPerson) => {
    const t0 = performance.now();
    const result = screener.screenSync(person, policy, now);
    times.push(performance.now() - t0);
    if (result.status !== 'screened') throw new Error(`not screened: ${result.message}`);
    return result;
  };

  const started = performance.now();
  const posScores = pos.map((p) => {
    const res = screen(p.person);
    return res.hits.find((h) => h.list === p.list && h.entry === p.entry)?.score ?? 0;
  });
  const negBest = neg.people.map((p) => screen(p));
  const elapsed = performance.now() - started;

  const sweep = [0.75, 0.8, 0.82, 0.83, 0.84, 0.85, 0.9].map((t) => ({
    threshold: t,
    recall: posScores.filter((s) => s >= t).length / pos.length,
    falsePositivesPer1000: (negBest.filter((n) => n.best >= t).length / neg.people.length) * 1000,
  }));
  const classes: Record<string, { n: number; recall: number }> = {};
  for (const list of LISTS) {
    for (const cls of CLASSES) {
      const idx = pos.map((p, i) => [p, i] as const).filter(([p]) => p.list === list && p.cls === cls);
      if (idx.length === 0) continue;
      classes[`${list}/${cls}`] = { n: idx.length, recall: idx.filter(([, i]) => (posScores[i] ?? 0) >= threshold).length / idx.length };
    }
  }
  const recall = posScores.filter((s) => s >= threshold).length / pos.length;
  const fps = negBest.map((n, i) => [n, i] as const).filter(([n]) => n.best >= threshold);
  const fpPer1000 = (fps.length / neg.people.length) * 1000;
  const sorted = [...times].sort((a, b) => a - b);
  const throughput = times.length / (elapsed / 1000);
  const p95 = percentile(sorted, 95);

  if (args.verbose) {
    pos.forEach((p, i) => {
      if ((posScores[i] ?? 0) < threshold) console.log(`MISS ${p.list}/${p.cls} ${p.entry} ${JSON.stringify(p.person)} → ${posScores[i]}`);
    });
    for (const [n, i] of fps) console.log(`FP ${JSON.stringify(neg.people[i])} → ${n.best} ${n.hits[0]?.reasons.join(' | ')}`);
  }

  const row = (figure: string, value: string, target: string, met: boolean) => console.log(`${figure.padEnd(44)} ${value.padStart(12)}  ${target.padEnd(10)} ${met ? 'met' : 'NOT MET'}`);
  console.log(`\nsanctions screening, threshold ${threshold}, seed ${seed}: ${pos.length} positives, ${neg.people.length} negatives (${neg.onTheList} generated names left out: on the list)\n`);
  row('recall (positives found at the threshold)', `${(recall * 100).toFixed(2)} %`, '≥ 98 %', recall >= 0.98);
  row('false positives per 1,000 ordinary people', fpPer1000.toFixed(2), '≤ 1', fpPer1000 <= 1);
  row('throughput (screenings/s, one at a time)', throughput.toFixed(0), '≥ 200', throughput >= 200);
  row('latency p95 (ms)', p95.toFixed(2), '≤ 20', p95 <= 20);
  console.log(`latency p50 ${percentile(sorted, 50).toFixed(2)} ms, p99 ${percentile(sorted, 99).toFixed(2)} ms, max ${(sorted[sorted.length - 1] ?? 0).toFixed(2)} ms`);
  for (const l of loads) console.log(`load ${l.lists.join(' + ').padEnd(18)} ${String(l.loadMs).padStart(6)} ms, heap +${l.heapMb} MB, RSS +${l.rssMb} MB`);
  console.log('\nrecall by class:');
  for (const [k, v] of Object.entries(classes)) console.log(`  ${k.padEnd(28)} ${String(v.n).padStart(5)}  ${(v.recall * 100).toFixed(1)} %`);
  console.log('\nthreshold sweep:');
  for (const s of sweep) console.log(`  ${s.threshold.toFixed(2)}  recall ${(s.recall * 100).toFixed(2)} %  FP/1000 ${s.falsePositivesPer1000.toFixed(2)}`);

  const report = {
    bench: 'npm run bench:screening',
    date: new Date().toISOString().slice(0, 10),
    seed,
    threshold,
    machine: { cpus: cpus().length, load_average_1m_at_end: Math.round((loadavg()[0] ?? 0) * 10) / 10 },
    lists: snapshots.map((s) => ({ list: s.list, asOf: s.asOf, entries: s.entries.length, persons: s.entries.filter((e) => e.kind === 'person').length })),
    generator: 'positives: per list and class, listed persons drawn at random, a strong name changed by the class (see the header of scripts/bench/screening.ts); negatives: given and family names of 30 cultures (scripts/bench/screening-names.ts), names exactly on a list (or a listed name without its middle names) left out',
    positives: pos.length,
    negatives: neg.people.length,
    negatives_left_out_as_listed: neg.onTheList,
    recall,
    false_positives_per_1000: fpPer1000,
    throughput_per_s: Math.round(throughput),
    latency_ms: { p50: round(percentile(sorted, 50)), p95: round(p95), p99: round(percentile(sorted, 99)), max: round(sorted[sorted.length - 1] ?? 0) },
    load: loads,
    recall_by_class: classes,
    threshold_sweep: sweep,
    targets: { recall: 0.98, false_positives_per_1000: 1, throughput_per_s: 200, p95_ms: 20 },
    met: { recall: recall >= 0.98, false_positives: fpPer1000 <= 1, throughput: throughput >= 200, p95: p95 <= 20 },
  };
  writeFileSync(args.out, `${JSON.stringify(report, null, 2)}\n`);
}

const round = (x: number) => Math.round(x * 100) / 100;

main();
