/**
 * Tables and targets of the specimen set: per kind, condition and mode; per kind; and the issue's
 * targets (met or not, with the numbers), printed and returned for bench/extraction.json.
 */
import { type Observation } from './reliability';
import { observationsOf, type SpecimenResult } from './specimens';

const pct = (a: number, b: number): number => (b ? Math.round((1000 * a) / b) / 10 : 0);
export const percentile = (xs: number[], p: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? (s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)] as number) : 0;
};
const short = (file: string): string => (file.split('/').pop() ?? file).replace(/\.(png|jpe?g|pdf)$/, '');

interface Row {
  kind: string;
  condition: string;
  mode: string;
  documents: number;
  all_fields_correct: number;
  confidently_wrong: number;
  p50_ms: number;
  p95_ms: number;
  p95_cpu_ms: number;
  fields: Record<string, number>;
  misses: string[];
}

function rowOf(kind: string, condition: string, mode: string, rs: SpecimenResult[]): Row {
  const fields: Record<string, [number, number]> = {};
  for (const r of rs) {
    for (const [path, f] of Object.entries(r.fields)) {
      const c = (fields[path] ??= [0, 0]);
      c[1]++;
      if (f.correct) c[0]++;
    }
  }
  const times = rs.map((r) => r.ms);
  return {
    kind, condition, mode, documents: rs.length,
    all_fields_correct: pct(rs.filter((r) => r.allCorrect).length, rs.length),
    confidently_wrong: rs.reduce((n, r) => n + r.confidentlyWrong.length, 0),
    p50_ms: Math.round(percentile(times, 50)), p95_ms: Math.round(percentile(times, 95)),
    p95_cpu_ms: Math.round(percentile(rs.map((r) => r.cpuMs), 95)),
    fields: Object.fromEntries(Object.entries(fields).map(([k, [a, b]]) => [k, pct(a, b)])),
    misses: rs.filter((r) => !r.allCorrect || r.confidentlyWrong.length).map((r) => {
      const wrong = Object.entries(r.fields).filter(([, f]) => !f.correct).map(([k, f]) => `${k}=${f.got === '' ? '∅' : JSON.stringify(f.got.slice(0, 40))}@${f.confidence}`);
      return `${short(r.file)}: ${wrong.join(', ')}${r.confidentlyWrong.length ? ` [confidently wrong: ${r.confidentlyWrong.join(', ')}]` : ''}`;
    }),
  };
}

const group = <T>(xs: T[], key: (x: T) => string): Map<string, T[]> => {
  const m = new Map<string, T[]>();
  for (const x of xs) m.set(key(x), [...(m.get(key(x)) ?? []), x]);
  return m;
};

export function specimenReport(results: SpecimenResult[], minConfidence: number): { json: Record<string, unknown>; observations: Observation[] } {
  const rows: Row[] = [];
  for (const [k, rs] of group(results, (r) => `${r.kind}|${r.mode}|${r.condition}`)) {
    const [kind, mode, condition] = k.split('|') as [string, string, string];
    rows.push(rowOf(kind, condition, mode, rs));
  }
  const kindRows: Row[] = [];
  for (const [k, rs] of group(results, (r) => `${r.kind}|${r.mode}`)) {
    const [kind, mode] = k.split('|') as [string, string];
    kindRows.push(rowOf(kind, 'all', mode, rs));
  }
  console.log('\nspecimen set (bench/specimens.json; files in ../shared/specimens)');
  console.log(`${'kind'.padEnd(17)}${'condition'.padEnd(15)}${'mode'.padEnd(12)} docs  all correct  conf. wrong   p50 ms   p95 ms  p95 cpu ms`);
  for (const r of [...rows, ...kindRows]) {
    console.log(`${r.kind.padEnd(17)}${r.condition.padEnd(15)}${r.mode.padEnd(12)}${String(r.documents).padStart(5)}  ${String(r.all_fields_correct).padStart(10)}%  ${String(r.confidently_wrong).padStart(11)}  ${String(r.p50_ms).padStart(7)}  ${String(r.p95_ms).padStart(7)}  ${String(r.p95_cpu_ms).padStart(10)}`);
    if (r.condition !== 'all') for (const m of r.misses) console.log(`    ${m}`);
  }

  const plain = results.filter((r) => r.mode === 'no-expected');
  const mrz = plain.filter((r) => r.kind === 'passport' || r.kind === 'id_card');
  const poa = plain.filter((r) => r.kind === 'proof_of_address' && r.fields['person.full_name'] && r.fields['address.zip']);
  const poaOk = poa.filter((r) => r.fields['person.full_name']?.correct && r.fields['address.zip']?.correct);
  const wrong = results.flatMap((r) => r.confidentlyWrong.map((p) => `${short(r.file)} (${r.mode}): ${p}`));
  const times = plain.map((r) => r.ms);
  const documentTimes = plain.filter((r) => r.kind !== 'barcode').map((r) => r.ms);
  const barcodes = plain.filter((r) => r.kind === 'barcode');
  const targets = [
    { target: 'confidently wrong = 0 (trusted field ≠ truth, both modes)', value: wrong.length, met: wrong.length === 0, detail: wrong },
    { target: 'passports and ID cards: all MRZ fields correct ≥ 90% without expected data', value: pct(mrz.filter((r) => r.allCorrect).length, mrz.length), documents: mrz.length, met: pct(mrz.filter((r) => r.allCorrect).length, mrz.length) >= 90,
      by_kind: Object.fromEntries(['passport', 'id_card'].map((k) => { const rs = mrz.filter((r) => r.kind === k); return [k, pct(rs.filter((r) => r.allCorrect).length, rs.length)]; })) },
    { target: 'proof of address: name + postal code correct ≥ 80% without expected data', value: pct(poaOk.length, poa.length), documents: poa.length, met: pct(poaOk.length, poa.length) >= 80 },
    { target: 'p95 ≤ 3000 ms per document (one extraction, without expected data)', value: Math.round(percentile(times, 95)), documents: times.length, met: percentile(times, 95) <= 3000,
      p95_identity_documents_ms: Math.round(percentile(documentTimes, 95)), p50_ms: Math.round(percentile(times, 50)), p95_cpu_ms: Math.round(percentile(plain.map((r) => r.cpuMs), 95)), max_ms: Math.round(Math.max(...times, 0)) },
    { target: 'AAMVA barcodes ≥ 95% all fields, dates always plausible', value: null, met: null, detail: 'not measured: the specimen set holds no AAMVA PDF417 (see ../shared/specimens/README.md)' },
    { target: 'information: bare PDF417 symbols decoded exactly (the extractor\'s decoding steps)', value: pct(barcodes.filter((r) => r.allCorrect).length, barcodes.length), documents: barcodes.length, met: null },
  ];
  console.log(`\nspecimen targets (trusted = confidence ≥ ${minConfidence})`);
  for (const t of targets) console.log(`  ${t.met === null ? '  n/a' : t.met ? '  met' : 'NOT met'}  ${t.target}: ${t.value ?? '—'}${'documents' in t ? ` (${t.documents} documents)` : ''}`);
  for (const w of wrong) console.log(`    confidently wrong: ${w}`);
  return {
    json: { min_confidence: minConfidence, targets, by_kind: kindRows, rows, documents: results },
    observations: observationsOf(results),
  };
}
