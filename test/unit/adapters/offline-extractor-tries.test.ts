import sharp from 'sharp';
import { OfflineExtractor, type OfflineEngines } from '../../../src/adapters/offline/extractor';
import type { BlobStore } from '../../../src/ports/blob-store';
import type { ExtractionInput } from '../../../src/ports/extractor';

/**
 * Which tries the offline extractor spends time on (issue 31 item 5: tries ordered by their measured
 * yield), with an OCR engine that "sees" given boxes and texts on any image and counts its calls.
 */
type Box = [number, number][];
const box = (x: number, y: number, w: number, h: number): Box => [[x, y], [x + w, y], [x + w, y + h], [x, y + h]];

interface Calls {
  lines: number;
  detect: number;
  tesseract: number;
}

function extractor(boxes: Box[], texts: string[], calls: Calls, width = 1000): OfflineExtractor {
  const image = sharp({ create: { width, height: Math.round(width * 0.63), channels: 3, background: '#ffffff' } }).png().toBuffer();
  const blobs = { get: async () => new Uint8Array(await image) } as unknown as BlobStore;
  const engines: OfflineEngines = {
    sharp: async () => sharp,
    paddle: async () => ({
      lines: async (png: Buffer) => {
        calls.lines++;
        const { width: w = 0, height: h = 0 } = await sharp(png).metadata();
        return boxes.map((b) => ({ box: b, image: { width: w, height: h } }));
      },
      readCrops: async (crops: Buffer[]) => crops.map((_, i) => texts[i] ?? ''),
      detect: async () => {
        calls.detect++;
        return [];
      },
    }),
    tesseract: async () =>
      ({
        setParameters: async () => undefined,
        recognize: async () => {
          calls.tesseract++;
          return { data: { text: '', confidence: 0 } };
        },
      }) as never,
    zxing: async () => async () => [],
    pdfText: async () => [],
    faces: async () => {
      throw new Error('no faces here');
    },
  };
  return new OfflineExtractor(blobs, engines, () => new Date('2026-01-15T00:00:00Z'));
}

const input = (name: string, country: string, sameKeyBack: boolean): ExtractionInput => ({
  contextType: 'PHOTO_ID',
  documentType: { id: 2, name },
  country,
  front: { key: 'front', contentType: 'image/png' },
  back: sameKeyBack ? { key: 'front', contentType: 'image/png' } : null,
  compareWith: null,
  expected: null,
});

/** A licence front as its lines are detected: short boxes, none MRZ-shaped, one a row. */
const front = ['DRIVER LICENSE', 'DL D1234567', 'EXP 03/14/2030', 'LN MORALES', 'FN ANA LUCIA', '12 ELM STREET', 'AUSTIN, TX 78701', 'DOB 07/02/1988', 'ISS 03/14/2022'];
const frontBoxes = front.map((_, i) => box(20, 20 + i * 60, 220, 30));

describe('offline extractor: tries ordered by their yield', () => {
  it('neither turns nor reads with tesseract.js a page that shows almost no text (a barcode photograph)', async () => {
    const calls: Calls = { lines: 0, detect: 0, tesseract: 0 };
    const { data } = await extractor([box(100, 100, 40, 30)], ['|||'], calls).extract(input('Passport', 'FRA', false));
    expect(data.document.number).toBe('');
    // Detected once for the MRZ (not again turned) and once for the front's layout; read once at a larger scale.
    expect(calls).toEqual({ lines: 2, detect: 1, tesseract: 0 });
  });

  it('reads a licence front by its layout before the MRZ tries, and stops there when it identifies the holder', async () => {
    const calls: Calls = { lines: 0, detect: 0, tesseract: 0 };
    const { data } = await extractor(frontBoxes, front, calls).extract(input('Driver License', 'USA', false));
    expect(data.person.surname).toBe('MORALES');
    expect(data.document.number).toBe('D1234567');
    // Detected once for the upright MRZ search and once for the layout: no turn, no larger-scale read, no tesseract.js.
    expect(calls).toEqual({ lines: 2, detect: 0, tesseract: 0 });
  });

  it('reads an ID card front on which nothing reads as an MRZ by its layout before the MRZ tries', async () => {
    const calls: Calls = { lines: 0, detect: 0, tesseract: 0 };
    const { data } = await extractor(frontBoxes, front, calls).extract(input('ID Card', 'USA', false));
    expect(data.person.surname).toBe('MORALES');
    // Before: turned, read whole at a larger scale and by tesseract.js (lines 3, detect 1) before the layout.
    expect({ lines: calls.lines, detect: calls.detect }).toEqual({ lines: 2, detect: 0 });
  });

  it('searches a side sent as both front and back once', async () => {
    const calls: Calls = { lines: 0, detect: 0, tesseract: 0 };
    const texts = ['NOTHING HERE', 'NOR HERE', 'A B C', 'D E F', 'G H I', 'J K L', 'M N O', 'P Q R', 'S T U'];
    await extractor(frontBoxes, texts, calls).extract(input('ID Card', 'FRA', true));
    const once: Calls = { lines: 0, detect: 0, tesseract: 0 };
    await extractor(frontBoxes, texts, once).extract({ ...input('ID Card', 'FRA', false) });
    expect(calls).toEqual(once);
  });
});
