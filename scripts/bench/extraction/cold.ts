/**
 * npx tsx scripts/bench/extraction/cold.ts <specimen file substring>
 *
 * One specimen extracted (without expected data) in this fresh process, no engine loaded beforehand:
 * the first document after a cold start, engines loading included. Prints one JSON line: wall and CPU
 * time of the extraction, the process's uptime when it ended (module loading included), peak RSS.
 * Run by the extraction bench (extraction.ts, `cold` key) in a child process per document.
 */
import { memoryExtractor } from '../../documents/harness';
import { bytesOf, loadSpecimens } from '../specimens';
import type { ExtractionInput } from '../../../src/ports/extractor';
import { PeakRss } from './memory';

const TYPES = { passport: ['PHOTO_ID', 1, 'Passport'], driver_license: ['PHOTO_ID', 2, 'Driver License'], id_card: ['PHOTO_ID', 3, 'ID Card'], proof_of_address: ['PROOF_OF_ADDRESS', 4, 'Utility Bill'], barcode: ['PHOTO_ID', 2, 'Driver License'] } as const;

async function main(): Promise<void> {
  const match = process.argv[2];
  const s = loadSpecimens().find((d) => match && d.file.includes(match));
  if (!s) throw new Error(`no specimen matches ${match}`);
  const { extractor, objects } = memoryExtractor();
  const key = `specimen/${s.file.split('/').pop()}`;
  objects.set(key, bytesOf(s));
  const [context, id, name] = TYPES[s.kind];
  const side = { key, contentType: s.file.endsWith('.pdf') ? 'application/pdf' : 'image/png' };
  const input: ExtractionInput = { contextType: context, documentType: { id, name }, country: s.kind === 'barcode' ? 'USA' : s.declared_country, front: side, back: s.kind === 'barcode' ? side : null, compareWith: null, expected: null };
  const peak = new PeakRss();
  peak.start();
  const cpu = process.cpuUsage();
  const t = performance.now();
  const x = await extractor.extract(input);
  const ms = Math.round(performance.now() - t);
  const c = process.cpuUsage(cpu);
  const fields = Object.values(x.confidence).filter((v) => v >= 0.6).length;
  console.log(JSON.stringify({ file: s.file.split('/').pop(), kind: s.kind, ms, cpu_ms: Math.round((c.user + c.system) / 1000), process_uptime_ms: Math.round(process.uptime() * 1000), peak_rss_mb: peak.stop(), trusted_fields: fields }));
  process.exit(0);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
