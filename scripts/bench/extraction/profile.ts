/**
 * npx tsx scripts/bench/extraction/profile.ts [--match passport-aze,dl-usa] [--kinds passport] [--warm]
 *
 * Per-stage timings of the specimen documents (bench/specimens.json), without expected data, each
 * extraction as the specimen bench makes it: wall and CPU time, peak RSS, and the time of each stage
 * and engine call (stages.ts). Without `--warm` the first document is read cold (its engines load
 * during it), as the first request after a start is.
 */
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { bytesOf, loadSpecimens } from '../specimens';
import { timedExtractor } from './stages';
import * as engines from '../../../src/adapters/offline/engines';
import type { ExtractionInput } from '../../../src/ports/extractor';
import { PeakRss } from './memory';

const { values: args } = parseArgs({ options: { match: { type: 'string' }, kinds: { type: 'string' }, warm: { type: 'boolean', default: false } } });
const TYPES = { passport: ['PHOTO_ID', 1, 'Passport'], driver_license: ['PHOTO_ID', 2, 'Driver License'], id_card: ['PHOTO_ID', 3, 'ID Card'], proof_of_address: ['PROOF_OF_ADDRESS', 4, 'Utility Bill'], barcode: ['PHOTO_ID', 2, 'Driver License'] } as const;

async function main(): Promise<void> {
  const { extractor, objects, clock } = timedExtractor();
  if (args.warm) await Promise.all([engines.paddle(), engines.zxing(), engines.sharpModule(), engines.tesseract()]);
  const specimens = loadSpecimens().filter((s) => (!args.kinds || args.kinds.split(',').includes(s.kind)) && (!args.match || args.match.split(',').some((m) => s.file.includes(m))));
  const peak = new PeakRss();
  const totals = new Map<string, number>();
  for (const s of specimens) {
    const key = `specimen/${s.file.split('/').pop()}`;
    objects.set(key, bytesOf(s));
    const [context, id, name] = TYPES[s.kind];
    const side = { key, contentType: s.file.endsWith('.pdf') ? 'application/pdf' : 'image/png' };
    const input: ExtractionInput = { contextType: context, documentType: { id, name }, country: s.kind === 'barcode' ? 'USA' : s.declared_country, front: side, back: s.kind === 'barcode' ? side : null, compareWith: null, expected: null };
    clock.take();
    peak.start();
    const cpu = process.cpuUsage();
    const t = performance.now();
    await extractor.extract(input);
    const ms = Math.round(performance.now() - t);
    const c = process.cpuUsage(cpu);
    const rss = peak.stop();
    const stages = clock.take();
    const tries = clock.outcomes.splice(0);
    for (const [k, v] of Object.entries(stages)) totals.set(k, (totals.get(k) ?? 0) + v.ms);
    console.log(`${(s.file.split('/').pop() ?? '').padEnd(48)} ${String(ms).padStart(6)} ms  cpu ${Math.round((c.user + c.system) / 1000)} ms  peak ${rss} MB  load ${loadavg()[0]?.toFixed(2)}`);
    console.log(`    tries: ${tries.join(' ')}`);
    console.log(`    ${Object.entries(stages).map(([k, v]) => `${k} ${v.ms}${v.calls > 1 ? `×${v.calls}` : ''}`).join(', ')}`);
  }
  console.log(`totals: ${[...totals].sort((a, b) => b[1] - a[1]).map(([k, v]) => `${k} ${Math.round(v)}`).join(', ')}`);
  process.exit(0);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
