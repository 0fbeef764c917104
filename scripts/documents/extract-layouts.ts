/**
 * Runs generated documents read by their layout (fronts without MRZ or barcode, letters in four
 * languages) through the offline extractor WITHOUT expected data, in this process, and prints one JSON
 * line per document: { case, data, confidence, readings, truth }. Used by the layout end-to-end test
 * (jest cannot load the engines' ES modules).
 *
 *   tsx scripts/documents/extract-layouts.ts licence-front-uk:clean:1000 letter-de:clean:1000
 */
import { memoryExtractor } from './harness';
import { type Condition, generateDocument, type Kind } from './generate';
import { inputFor } from './score';

const { extractor, objects } = memoryExtractor(() => new Date('2026-11-27T00:00:00Z'));

async function main(): Promise<void> {
  for (const spec of process.argv.slice(2)) {
    const [kind, condition, seed] = spec.split(':') as [Kind, Condition, string];
    const doc = await generateDocument(kind, condition, Number(seed));
    objects.set(`${spec}/front`, doc.front);
    const out = await extractor.extract({ ...inputFor(doc, spec, null), back: null });
    process.stdout.write(`${JSON.stringify({ case: spec, data: out.data, confidence: out.confidence, readings: out.readings ?? [], truth: doc.truth })}\n`);
  }
  process.exit(0);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
