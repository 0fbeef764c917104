/**
 * Calibration of the widget gate's framing check (src/web/widget-gate.ts `backdrop`) on generated
 * documents (scripts/documents): each kind in each image condition, whole and cropped (one side cut
 * by 25% or 40% of the picture, or a corner by 30% on two sides), measured as the page measures it
 * (brought down to GATE_SIDE). Prints the share of border backdrop per group and the warn rates.
 *
 *   npx tsx scripts/bench/gate-framing.ts [seeds=4]
 */
import sharp from 'sharp';
import { ALL_CONDITIONS, type Condition, generateDocument, type Kind } from '../documents/generate';
import { GATE_SIDE, gateVerdict, measurePixels } from '../../src/web/widget-gate';

const KINDS: Kind[] = ['passport', 'id-card', 'driver-license', 'utility-bill', 'bank-statement'];
type Crop = 'whole' | 'side25' | 'side40' | 'corner30';
const CROPS: Crop[] = ['whole', 'side25', 'side40', 'corner30'];

async function cropped(image: Buffer, crop: Crop, seed: number): Promise<Buffer> {
  if (crop === 'whole') return image;
  const { width = 0, height = 0 } = await sharp(image).metadata();
  const cut = crop === 'side25' ? 0.25 : crop === 'side40' ? 0.4 : 0.3;
  const side = seed % 4;
  let left = 0;
  let top = 0;
  let w = width;
  let h = height;
  const cx = Math.round(width * cut);
  const cy = Math.round(height * cut);
  if (crop === 'corner30') {
    if (side % 2 === 0) left = cx;
    if (side < 2) top = cy;
    w = width - cx;
    h = height - cy;
  } else if (side === 0) {
    left = cx;
    w = width - cx;
  } else if (side === 1) w = width - cx;
  else if (side === 2) {
    top = cy;
    h = height - cy;
  } else h = height - cy;
  return sharp(image).extract({ left, top, width: w, height: h }).toBuffer();
}

export async function framing(image: Buffer, context: string): Promise<{ backdrop: number; verdict: string }> {
  const { data, info } = await sharp(image).rotate().removeAlpha().resize(GATE_SIDE, GATE_SIDE, { fit: 'inside', withoutEnlargement: true }).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  const full = await sharp(image).metadata();
  const m = measurePixels(data, info.width, info.height, 4);
  return { backdrop: m.backdrop, verdict: gateVerdict(m, full.width ?? 0, full.height ?? 0, context) };
}

async function main(): Promise<void> {
  const seeds = Number(process.argv[2] ?? 4);
  const rows: { condition: Condition; crop: Crop; backdrop: number; verdict: string }[] = [];
  for (const kind of KINDS) {
    const context = kind === 'utility-bill' || kind === 'bank-statement' ? 'PROOF_OF_ADDRESS' : 'PHOTO_ID';
    for (const condition of ALL_CONDITIONS) {
      for (let seed = 1; seed <= seeds; seed++) {
        const doc = await generateDocument(kind, condition, seed);
        for (const crop of CROPS) rows.push({ condition, crop, ...(await framing(await cropped(doc.front, crop, seed), context)) });
      }
    }
  }
  const pct = (a: number, b: number) => (b === 0 ? '-' : `${((100 * a) / b).toFixed(0)}%`);
  console.log(`n = ${seeds} seeds x ${KINDS.length} kinds per cell; "edges" = the gate warns; backdrop: min / median / max`);
  console.log(['condition', ...CROPS].join(' | '));
  for (const condition of ALL_CONDITIONS) {
    const cells = CROPS.map((crop) => {
      const r = rows.filter((x) => x.condition === condition && x.crop === crop);
      const b = r.map((x) => x.backdrop).sort((a, c) => a - c);
      const warned = r.filter((x) => x.verdict === 'edges').length;
      return `edges ${pct(warned, r.length)} (${b[0]?.toFixed(2)}/${b[Math.floor(b.length / 2)]?.toFixed(2)}/${b.at(-1)?.toFixed(2)})`;
    });
    console.log([condition, ...cells].join(' | '));
  }
  for (const crop of CROPS) {
    const r = rows.filter((x) => x.crop === crop);
    console.log(`${crop}: edges ${pct(r.filter((x) => x.verdict === 'edges').length, r.length)} of ${r.length}`);
  }
}

if (require.main === module) void main();
