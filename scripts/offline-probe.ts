/**
 * Bundled (esbuild, as the stack bundles the extraction functions) into a copy of a synthesized
 * offline asset and run there with plain Node, so that every engine, model and wasm file is loaded
 * from that asset's node_modules (scripts/offline-trace.ts, test/cdk/synthesized-assets.test.ts).
 *
 *   node probe.js cases.json   → one JSON line per case: { name, data, confidence }
 *
 * cases.json: [{ name, input: ExtractionInput, objects: { key: file } }]. With --warm every engine
 * is loaded first, also those the cases may not reach (the tesseract fallback, the face engine,
 * Human's presentation-attack models and the liveness observer's mesh and iris models).
 *
 *   node probe.js --liveness DIR → one JSON line: what the liveness observer saw in DIR's frames
 *   (file names in capture order, 90 ms apart), on two threads: the worker thread loads its own
 *   bundle beside the probe, as it loads the function's beside index.js.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as engines from '../src/adapters/offline/engines';
import { meshFaces, observeFrames } from '../src/adapters/offline/face-observer';
import { observerThread } from '../src/adapters/offline/face-observer-thread';
import { memoryExtractor } from './documents/harness';
import type { ExtractionInput } from '../src/ports/extractor';

interface Case {
  name: string;
  input: ExtractionInput;
  objects: Record<string, string>;
}

async function main(): Promise<void> {
  const [file, ...flags] = process.argv.slice(2);
  if (file === '--liveness') {
    const dir = flags[0] ?? 'frames';
    const bytes = readdirSync(dir).sort().map((f) => readFileSync(join(dir, f)));
    const observed = await observeFrames(bytes, bytes.map((_, i) => i * 90), { threads: 2, describe: 4 });
    const thread = await observerThread();
    process.stdout.write(`${JSON.stringify({ faces: observed.map((o) => o.faces), landmarks: observed.filter((o) => o.landmarks).length, described: observed.filter((o) => o.descriptor?.length === 128).length, threadRequests: thread.requests })}\n`);
    process.exit(0);
  }
  const cases = JSON.parse(readFileSync(file ?? 'cases.json', 'utf8')) as Case[];
  if (flags.includes('--warm')) {
    await Promise.all([engines.sharpModule(), engines.paddle(), engines.zxing(), engines.pdfjs(), engines.faces(), engines.presentation()]);
    const worker = await engines.tesseract();
    const sharp = await engines.sharpModule();
    const probe = await sharp({ create: { width: 200, height: 60, channels: 3, background: '#ffffff' } }).png().toBuffer();
    await worker.recognize(probe);
    await meshFaces({ data: Buffer.alloc(64 * 64 * 3, 128), width: 64, height: 64 });
  }
  const { extractor, objects } = memoryExtractor(() => new Date('2026-11-22T00:00:00Z'));
  for (const c of cases) {
    for (const [key, path] of Object.entries(c.objects)) objects.set(key, readFileSync(path));
    const out = await extractor.extract(c.input);
    process.stdout.write(`${JSON.stringify({ name: c.name, ...out })}\n`);
  }
  process.exit(0);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
