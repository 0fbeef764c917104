import sharp from 'sharp';
import { OfflineExtractor, type OfflineEngines, triesFor } from '../../../src/adapters/offline/extractor';
import { readsAsMrz } from '../../../src/adapters/offline/mrz';
import type { BlobStore } from '../../../src/ports/blob-store';
import type { ExtractionInput } from '../../../src/ports/extractor';

/**
 * Where the MRZ search spends its reads (issue 31 item 5): a run of long lines that reads as nothing
 * of an MRZ is not read again at a larger scale; the runs above the bottom one are searched too; a run
 * that reads as an MRZ only turned half a circle says which turn of the page to try first; so do the
 * standing lines of a page turned a quarter.
 */
type Box = [number, number][];
const box = (x: number, y: number, w: number, h: number): Box => [[x, y], [x + w, y], [x + w, y + h], [x, y + h]];
const LINE1 = 'P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<';
const LINE2 = 'L898902C36UTO7408122F1204159ZE184226B<<<<<10';

/** An OCR engine that sees `boxes` on any page and reads the n-th crop of each read as `texts[n]`. */
function extractor(boxes: Box[], texts: string[], calls: { detect: number; reads: number }): OfflineExtractor {
  const image = sharp({ create: { width: 1000, height: 700, channels: 3, background: '#ffffff' } }).png().toBuffer();
  const engines: OfflineEngines = {
    sharp: async () => sharp,
    paddle: async () => ({
      lines: async (png: Buffer) => {
        const { width: w = 0, height: h = 0 } = await sharp(png).metadata();
        return boxes.map((b) => ({ box: b, image: { width: w, height: h } }));
      },
      readCrops: async (crops: Buffer[]) => {
        calls.reads++;
        return crops.map((_, i) => texts[i] ?? '');
      },
      detect: async () => {
        calls.detect++;
        return [];
      },
    }),
    tesseract: async () => ({ setParameters: async () => undefined, recognize: async () => ({ data: { text: '', confidence: 0 } }) }) as never,
    zxing: async () => async () => [],
    pdfText: async () => [],
    faces: async () => {
      throw new Error('no faces here');
    },
  };
  return new OfflineExtractor({ get: async () => new Uint8Array(await image) } as unknown as BlobStore, engines, () => new Date('2026-01-15T00:00:00Z'));
}

const licence: ExtractionInput = {
  contextType: 'PHOTO_ID',
  documentType: { id: 2, name: 'Driver License' },
  country: 'USA',
  front: { key: 'front', contentType: 'image/png' },
  back: null,
  compareWith: null,
  expected: null,
};

describe('MRZ runs: reads that decide whether to read again', () => {
  it('readsAsMrz: a misread MRZ line passes; printed text, another script and an MRZ read upside down do not', () => {
    expect(readsAsMrz([LINE1])).toBe(true);
    expect(readsAsMrz(['C051777748AZE7611175F2201133S2SSBW3<<'])).toBe(true);
    // Fillers lost or read as letters, the line still one long word of the alphabet.
    expect(readsAsMrz(['L898902C36UTO7408122F1204159ZE184226BKKKKK10'])).toBe(true);
    expect(readsAsMrz(['PCAZEARGEDAS<<CEYLA<<<<'])).toBe(true);
    expect(readsAsMrz(['ISSUING COUNTRY / PAYS EMETTEUR', 'DRIVER LICENSE', '4d DLN S12345678'])).toBe(false);
    expect(readsAsMrz(['yMeHTOB B BHIeOIOTOKe KaMepbI Mo6HWTbHOrO yCTpOicTBa5'])).toBe(false);
    expect(readsAsMrz(['01>>>>>B622481ZE6514021F2218047OTU63C209868L'])).toBe(false);
    expect(readsAsMrz(['', ''])).toBe(false);
  });

  it('a licence line as long as an MRZ that reads as printed text is not read again at a larger scale', async () => {
    const calls = { detect: 0, reads: 0 };
    await extractor([box(50, 500, 700, 30)], ['ISSUING COUNTRY / PAYS EMETTEUR UNITED STATES'], calls).extract(licence);
    // The page read whole at a larger scale once, as the last try on a front that identifies nobody;
    // before, the area around the single long line was read at a larger scale too (2).
    expect(calls.detect).toBe(1);
  });

  it('an MRZ above the bottom run of long lines (a document photographed on a printed page) is found', async () => {
    const calls = { detect: 0, reads: 0 };
    // Top to bottom: the MRZ (two lines 600 wide), then three lines of the printed page (900 wide).
    const boxes = [box(100, 300, 600, 25), box(100, 340, 600, 25), box(20, 500, 900, 25), box(20, 540, 900, 25), box(20, 580, 900, 25)];
    // A run's crops come bottom run first: the page's three lines, then the MRZ's two.
    const texts: string[] = [];
    const x = extractor(boxes, texts, calls);
    let run = 0;
    const engines = (x as unknown as { engines: OfflineEngines }).engines;
    const paddle = await engines.paddle();
    engines.paddle = async () => ({ ...paddle, readCrops: async (crops: Buffer[]) => (crops.length === 3 && run++ === 0 ? ['the printed page', 'of text under', 'the document'] : crops.length === 2 ? [LINE1, LINE2] : crops.length === 1 ? [LINE1] : crops.map(() => '')) });
    const { data } = await x.extract({ ...licence, documentType: { id: 1, name: 'Passport' }, country: 'UTO' });
    expect(data.document.number).toBe('L898902C3');
    expect(calls.detect).toBe(0);
  });

  it('the runs that read as no MRZ are read turned half a circle only when a try needs the turn', async () => {
    // The printed page's three lines under the MRZ, then the MRZ. Before: the page's lines were read
    // again turned (a second read of three crops) though the MRZ above them read with its check digits holding.
    const boxes = [box(100, 300, 600, 25), box(100, 340, 600, 25), box(20, 500, 900, 25), box(20, 540, 900, 25), box(20, 580, 900, 25)];
    const x = extractor(boxes, [], { detect: 0, reads: 0 });
    const engines = (x as unknown as { engines: OfflineEngines }).engines;
    const paddle = await engines.paddle();
    const threes: number[] = [];
    engines.paddle = async () => ({
      ...paddle,
      readCrops: async (crops: Buffer[]) => {
        if (crops.length === 3) threes.push(threes.length);
        return crops.length === 3 ? ['the printed page', 'of text under', 'the document'] : crops.length === 2 ? [LINE1, LINE2] : crops.length === 1 ? [LINE1] : crops.map(() => '');
      },
    });
    const { data } = await x.extract({ ...licence, documentType: { id: 1, name: 'Passport' }, country: 'UTO' });
    expect(data.document.number).toBe('L898902C3');
    expect(threes).toHaveLength(1);
  });

  /** A passport whose OCR reads crops by how many are read together (one: the names line read again). */
  async function passport(boxes: Box[], byCount: Record<number, string[]>) {
    const calls = { detect: 0, reads: 0 };
    const x = extractor(boxes, [], calls);
    const engines = (x as unknown as { engines: OfflineEngines }).engines;
    const paddle = await engines.paddle();
    engines.paddle = async () => ({ ...paddle, readCrops: async (crops: Buffer[]) => byCount[crops.length] ?? crops.map(() => '') });
    const { data } = await x.extract({ ...licence, documentType: { id: 1, name: 'Passport' }, country: 'UTO' });
    return { data, calls };
  }

  it('a names line detected shorter than the data line (its last fillers lost) is read with it as they are cut', async () => {
    // Detection width 800: the data line is long enough for the strict shape (over 45 %), the names line
    // 15 % shorter, starting where it does. Before: the data line alone, its area read at a larger scale.
    const { data, calls } = await passport([box(100, 500, 340, 20), box(100, 540, 400, 20)], { 2: [LINE1, LINE2], 1: [LINE1] });
    expect(data.document.number).toBe('L898902C3');
    expect(calls.detect).toBe(0);
  });

  it('long lines far above the MRZ are not taken into its run', async () => {
    // Before: the three lines were one run, read as three lines for an MRZ of two, and its area read again larger.
    const { data, calls } = await passport([box(100, 60, 400, 20), box(100, 500, 400, 20), box(100, 540, 400, 20)], { 3: ['A LINE OF THE PRINTED PAGE', LINE1, LINE2], 2: [LINE1, LINE2], 1: [LINE1] });
    expect(data.document.number).toBe('L898902C3');
    expect(calls.detect).toBe(0);
  });
});

describe('MRZ tries: their order', () => {
  const page = { misplaced: true, slant: 0, vertical: false, larger: false };
  it('as before without a turn: levelled, quarter turns when lines stand, larger, half a circle', () => {
    expect(triesFor(page)).toEqual([180]);
    expect(triesFor({ ...page, slant: 8 })).toEqual([-8, 172]);
    expect(triesFor({ ...page, vertical: true, larger: true })).toEqual([90, 270, 'larger']);
    expect(triesFor({ ...page, misplaced: false, larger: true })).toEqual(['larger']);
  });

  it('a turn that reads the lines upright comes first, and the same turn is not tried twice', () => {
    // A slanted page upside down: before, levelling (-8) came first and read nothing.
    expect(triesFor({ ...page, slant: 8, turn: 173 })).toEqual([173, -8]);
    expect(triesFor({ ...page, vertical: true, turn: 270 })).toEqual([270, 90]);
    // Almost no turn: the page as it came; a page already read (one failing check digit) is not turned.
    expect(triesFor({ ...page, turn: 2 })).toEqual([180]);
    expect(triesFor({ ...page, misplaced: false, turn: 180 })).toEqual([]);
  });
});

describe('MRZ tries: a page turned a quarter', () => {
  /**
   * A portrait page (a landscape passport turned a quarter) with a dark corner top left; the OCR sees
   * two standing lines on it, and on the page turned back two lying lines, read as the MRZ only when the
   * turn was the right one (the dark corner then at `rightCorner`).
   */
  async function quarterTurned(rightCorner: 'top-right' | 'bottom-left', readsCutTopToBottom: boolean) {
    const page = sharp({ create: { width: 700, height: 1000, channels: 3, background: '#ffffff' } })
      .composite([{ input: { create: { width: 60, height: 60, channels: 3, background: '#000000' } }, left: 0, top: 0 }])
      .png()
      .toBuffer();
    const turns: string[] = [];
    let on = 'portrait';
    let portraitReads = 0;
    const engines: OfflineEngines = {
      sharp: async () => sharp,
      paddle: async () => ({
        lines: async (png: Buffer) => {
          const { data, info } = await sharp(png).grayscale().raw().toBuffer({ resolveWithObject: true });
          const dark = (x: number, y: number) => (data[y * info.width + x] as number) < 128;
          on = info.width < info.height ? 'portrait' : dark(info.width - 3, 3) ? 'top-right' : dark(3, info.height - 3) ? 'bottom-left' : 'other';
          turns.push(on);
          if (on === 'portrait') return [box(500, 100, 22, 520), box(540, 100, 22, 520)].map((b) => ({ box: b, image: { width: info.width, height: info.height } }));
          return [box(100, 500, 600, 22), box(100, 540, 600, 22)].map((b) => ({ box: b, image: { width: info.width, height: info.height } }));
        },
        readCrops: async (crops: Buffer[]) => {
          if (on === 'portrait') {
            // The standing lines: read as the MRZ either as cut (first read) or turned half a circle (second).
            const mrz = portraitReads++ === (readsCutTopToBottom ? 0 : 1);
            return crops.map((_, i) => (mrz ? [LINE1, LINE2][i] ?? '' : 'll1 1l lI'));
          }
          if (on !== rightCorner) return crops.map(() => '');
          return crops.length === 2 ? [LINE1, LINE2] : [LINE1];
        },
        detect: async () => [],
      }),
      tesseract: async () => ({ setParameters: async () => undefined, recognize: async () => ({ data: { text: '', confidence: 0 } }) }) as never,
      zxing: async () => async () => [],
      pdfText: async () => [],
      faces: async () => {
        throw new Error('no faces here');
      },
    };
    const x = new OfflineExtractor({ get: async () => new Uint8Array(await page) } as unknown as BlobStore, engines, () => new Date('2026-01-15T00:00:00Z'));
    const { data } = await x.extract({ ...licence, documentType: { id: 1, name: 'Passport' }, country: 'UTO' });
    return { data, turns };
  }

  it('lines that read cut top to bottom: the page is turned back counterclockwise first', async () => {
    // Before: turned clockwise first (the wrong way: detected and read for nothing), then counterclockwise.
    const { data, turns } = await quarterTurned('bottom-left', true);
    expect(data.document.number).toBe('L898902C3');
    expect(turns).toEqual(['portrait', 'bottom-left']);
  });

  it('lines that read only turned half a circle: the page is turned clockwise, and only that way', async () => {
    const { data, turns } = await quarterTurned('top-right', false);
    expect(data.document.number).toBe('L898902C3');
    expect(turns).toEqual(['portrait', 'top-right']);
  });
});
