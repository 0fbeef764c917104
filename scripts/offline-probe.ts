/**
 * Bundled (esbuild, as the stack bundles the extraction functions) into a copy of a synthesized
 * offline asset and run there with plain Node, so that every engine, model and wasm file is loaded
 * from that asset's node_modules (scripts/offline-trace.ts, test/cdk/synthesized-assets.test.ts).
 *
 *   node probe.js cases.json   → one JSON line per case: { name, data, confidence }
 *
 * cases.json: [{ name, input: ExtractionInput, objects: { key: file } }]. With --warm every engine
 * is loaded first, also those the cases may not reach (the tesseract fallback, the face engine and
 * Human's presentation-attack models).
 */
import { readFileSync } from 'node:fs';
import * as engines from '../src/adapters/offline/engines';
import { memoryExtractor } from './documents/harness';
import type { ExtractionInput } from '../src/ports/extractor';

interface Case {
  name: string;
  input: ExtractionInput;
  objects: Record<string, string>;
}

async function main(): Promise<void> {
  const [file, ...flags] = process.argv.slice(2);
  const cases = JSON.parse(readFileSync(file ?? 'cases.json', 'utf8')) as Case[];
  if (flags.includes('--warm')) {
    await Promise.all([engines.sharpModule(), engines.paddle(), engines.zxing(), engines.pdfjs(), engines.faces(), engines.presentation()]);
    const worker = await engines.tesseract();
    const sharp = await engines.sharpModule();
    const probe = await sharp({ create: { width: 200, height: 60, channels: 3, background: '#ffffff' } }).png().toBuffer();
    await worker.recognize(probe);
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
