import { tesseractLine, type TesseractWorker } from '../../../src/adapters/offline/engines';

describe('an MRZ line read by tesseract.js, the second engine', () => {
  it('reads the crop as one line of the MRZ alphabet', async () => {
    const params: Record<string, string>[] = [];
    const worker: TesseractWorker = {
      setParameters: async (p) => params.push(p),
      recognize: async () => ({ data: { text: 'P<CANVAN<DER<BERG<<SOFIA<<<<KKLL\n', confidence: 80 } }),
    };
    expect(await tesseractLine(worker, Buffer.from(''))).toBe('P<CANVAN<DER<BERG<<SOFIA<<<<KKLL');
    expect(params[0]).toMatchObject({ tessedit_pageseg_mode: '7', tessedit_char_whitelist: 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789<' });
  });
});
