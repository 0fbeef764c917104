import sharp from 'sharp';
import { OfflineExtractor, type OfflineEngines } from '../../../src/adapters/offline/extractor';
import type { ExpectedData } from '../../../src/domain/entities';
import type { BlobStore } from '../../../src/ports/blob-store';
import type { ExtractionInput } from '../../../src/ports/extractor';

/**
 * A front's address read again, wider, when the OCR drops letters of its small, long type (issue 31):
 * through the offline extractor, with an OCR engine that "sees" given rows (one box a row) and answers
 * each recognition call in turn: the first read of every row, the second read of the rows fields came
 * from, then the wider reads of the address's rows. Only the decisions are under test.
 */
const card = sharp({ create: { width: 1011, height: 638, channels: 3, background: '#ffffff' } }).png().toBuffer();

/** `reads[0]`: the first read of `rows`; `reads[1]`: the second read of the rows read again (here every row); then each wider read of the address's rows. */
function extractor(rows: string[], reads: string[][]): { extractor: OfflineExtractor; calls: () => number } {
  const blobs = { get: async () => new Uint8Array(await card) } as unknown as BlobStore;
  let call = 0;
  const answer = (n: number) => Array.from({ length: n }, (_, i) => reads[call]?.[i] ?? '');
  const engines: OfflineEngines = {
    sharp: async () => sharp,
    paddle: async () => ({
      detect: async () => [],
      // Boxes under ten times as long as they are high: no row is taken for an MRZ line (whose search reads its own crops first).
      lines: async () => rows.map((text, i) => ({ box: [[300, 100 + i * 50], [300 + 8 * text.length, 100 + i * 50], [300 + 8 * text.length, 134 + i * 50], [300, 134 + i * 50]] as [number, number][], image: { width: 1011, height: 638 } })),
      readScored: async (crops) => {
        const out = answer(crops.length).map((text) => ({ text, mean: 0.95 }));
        call++;
        return out;
      },
      readCrops: async (crops) => {
        const out = answer(crops.length);
        call++;
        return out;
      },
    }),
    // The other engine reads every row as printed (the number's check), no barcode, no face.
    tesseract: async () => ({ setParameters: async () => undefined, recognize: async () => ({ data: { text: rows.join(' ') } }) }) as never,
    zxing: async () => async () => [],
    pdfText: async () => [],
    faces: () => Promise.reject(new Error('not used')),
  };
  return { extractor: new OfflineExtractor(blobs, engines, () => new Date('2026-11-27T00:00:00Z')), calls: () => call };
}

/** A licence front alone (no back, no selfie), in `country`. */
const input = (country: string, expected: ExpectedData | null = null): ExtractionInput => ({ contextType: 'PHOTO_ID', documentType: { id: 2, name: 'Driver License' }, country, front: { key: 'front', contentType: 'image/png' }, back: null, compareWith: null, expected });

const parts = (x: Awaited<ReturnType<OfflineExtractor['extract']>>) => ({
  street: x.data.address.street,
  city: x.data.address.city,
  zip: x.data.address.zip,
  trust: [x.confidence['address.street'], x.confidence['address.city'], x.confidence['address.zip']],
});

/** A US front whose address the first two reads give as printed (`street` over `city`), and both wider reads as `wide`. */
const US_ROWS = ['4d DL J7506667', '1 SMITH', '2 JOHN'];
const usAddress = (street: string, city: string, wide: string[]) => {
  const rows = [...US_ROWS, street, city];
  return extractor(rows, [rows, rows, wide, wide]).extractor;
};

describe('an address read again wider when the first two reads drop its letters', () => {
  // Quebec's French label glued to its field number, the city line's postal code missing a character in both first reads.
  const QUEBEC = ['4d NUMERO C7371-462530-22', '1 NOM COTE', '2 PRENOM EMMA', '8ADRESSE 59 MAIN STREET', 'QUEBEC, QC G1R P5'];
  const whole = ['8ADRESSE 59 MAIN STREET', 'QUEBEC, QC G1R 4P5'];

  it('reads the rows under a field number glued to its label word (8ADRESSE) again, and trusts what two wider reads give alike', async () => {
    const { extractor: x } = extractor(QUEBEC, [QUEBEC, QUEBEC, whole, whole]);
    expect(parts(await x.extract(input('CAN')))).toEqual({ street: '59 MAIN STREET', city: 'QUEBEC', zip: 'G1R 4P5', trust: [0.9, 0.9, 0.9] });
  });

  it('reports what one wider read alone gives, untrusted', async () => {
    const { extractor: x } = extractor(QUEBEC, [QUEBEC, QUEBEC, whole, ['8ADRESSE 59 MAIN STREET', 'QUEBEC, QC G1R 4F5']]);
    expect(parts(await x.extract(input('CAN')))).toEqual({ street: '59 MAIN STREET', city: 'QUEBEC', zip: 'G1R 4P5', trust: [0.5, 0.5, 0.5] });
  });

  it('trusts no part the first two reads give alike against the wider reads, which read the letters they drop', async () => {
    const narrow = '8.160VICTORIARAD,EDS,S14AP';
    const UK = ['1. EVANS', '2. HARRY', '3. 11.11.1978 UNITED KINGDOM', '4b. 23.09.2030', '5. EVANS711118H99GC 95', narrow];
    const { extractor: x } = extractor(UK, [UK, UK, ['8.160VICTORIAROAD,LEEDS,LS14AP'], ['8.160VICTORIAROAD,LEEDS,LS14AP']]);
    expect(parts(await x.extract(input('GBR')))).toEqual({ street: '160 VICTORIAROAD', city: 'LEEDS', zip: 'LS1 4AP', trust: [0.5, 0.5, 0.5] });
  });

  it('takes the longer of two values each read alike twice (the OCR drops letters, it seldom adds any), untrusted', async () => {
    const x = usAddress('8 127 MARVON AVE', 'AUSTIN, TX, 78701', ['8 127 MARVON AVE', 'AUSTN, TX, 78701']);
    expect(parts(await x.extract(input('USA')))).toEqual({ street: '127 MARVON AVE', city: 'AUSTIN', zip: '78701', trust: [0.5, 0.5, 0.5] });
  });

  it('takes a value without a digit inside a word over one as long with it (VIALEDEIM1LLE: the I read as 1 by the wider reads), untrusted', async () => {
    const IT = ['1. MARINO', '2. MATTEO', '4b. 04.02.2029', '5. UF7341325N', '8. VIALE DEI MILLE 29, 00184 ROMA'];
    const wide = ['8.VIALEDEIM1LLE29,00184ROMA'];
    const { extractor: x } = extractor(IT, [IT, IT, wide, wide]);
    expect(parts(await x.extract(input('ITA')))).toEqual({ street: 'VIALE DEI MILLE 29', city: 'ROMA', zip: '00184', trust: [0.5, 0.5, 0.5] });
    // No two reads alike (the second read's city R0MA does not parse): the longest street without such a digit.
    const second = IT.map((l) => l.replace('ROMA', 'R0MA'));
    const alone = extractor(IT, [IT, second, wide, ['8.VIALEDEIMLLE29,00184ROMA']]);
    expect(parts(await alone.extractor.extract(input('ITA'))).street).toBe('VIALE DEI MILLE 29');
  });

  it('takes the first reads\' value over the wider reads\' as long (8 14OMAIN STREET: 0 read as O), untrusted', async () => {
    const x = usAddress('8 140 MAIN STREET', 'ALBANY, NY, 12207', ['8 14OMAIN STREET', 'ALBANY,NY,12207']);
    expect(parts(await x.extract(input('USA')))).toEqual({ street: '140 MAIN STREET', city: 'ALBANY', zip: '12207', trust: [0.5, 0.5, 0.5] });
  });

  it('trusts no house number with the letter O among its digits, read so by both wider reads (1OO MAIN STREET)', async () => {
    const x = usAddress('8 100 MAIN STREET', 'ALBNY, M, 1220', ['8 1OO MAIN STREET', 'ALBANY, NY, 12207']);
    expect(parts(await x.extract(input('USA')))).toEqual({ street: '1OO MAIN STREET', city: 'ALBANY', zip: '12207', trust: [0.5, 0.5, 0.5] });
  });

  it('doubts a house number glued to a word starting with O (1OOMAINSTREET, 1OO read for 100) however many reads give it', async () => {
    const rows = [...US_ROWS, '8 100 MAIN STREET', 'ANYTOWN, MA, 02127'];
    const x = extractor(rows, [rows, [...US_ROWS, '8 1OO MAIN STREET', 'ANYTOWN, MA, 02127'], ['8 1OOMAINSTREET', 'ANYTOWN,MA,02127'], ['8 1OOMAINSTREET', 'ANYTOWN,MA,02127']]).extractor;
    expect(parts(await x.extract(input('USA')))).toEqual({ street: '100 MAIN STREET', city: 'ANYTOWN', zip: '02127', trust: [0.5, 0.5, 0.5] });
  });

  it("trusts by the client's expected data only the value reported, not another read's equal to it", async () => {
    const expected: ExpectedData = {
      person: { first_name: 'JOHN', last_name: 'SMITH', date_of_birth: '' },
      address: { street: '127 MARVON AVE', city: 'AUSTIN', state: 'TX', postal_code: '78701', country: 'USA' },
      documents: { photo_id: { type: '', number: '', country: 'USA' }, proof_of_address: { type: '', number: '', country: 'USA' } },
    };
    const x = usAddress('8 127 MARVON AVE', 'AUSTIN, TX, 78701', ['8 127 MARVON AVE', 'AUSTINE, TX, 78701']);
    const read = await x.extract(input('USA', expected));
    expect([read.data.address.city, read.confidence['address.city']]).toEqual(['AUSTINE', 0.5]);
  });

  it('reads a one-line UK address whose letters both first reads drop, and makes no second wider read when the first agrees with an earlier read', async () => {
    const dropped = '8.138ICTRIAAD,DINBURGHH1G';
    const UK = ['1. EVANS', '2. SARAH GRACE', '3. 05.07.1985 UNITED KINGDOM', '4b. 31.01.2030', '5. EVANS857055SG9AB  35', dropped];
    const { extractor: x } = extractor(UK, [UK, UK, ['8.138VICTORIAROAD,EDINBURGH,EH19GP'], ['8.138VICTORIA ROAD, EDINBURGH, EH1 9GP']]);
    expect(parts(await x.extract(input('GBR')))).toEqual({ street: '138 VICTORIAROAD', city: 'EDINBURGH', zip: 'EH1 9GP', trust: [0.9, 0.9, 0.9] });
    // Read whole at first, the address agrees with the first wider read: three recognition calls, not four.
    const clean = ['8. 138 VICTORIA ROAD, EDINBURGH, EH1 9GP'];
    const again = extractor([...UK.slice(0, -1), ...clean], [[...UK.slice(0, -1), ...clean], [...UK.slice(0, -1), ...clean], clean, clean]);
    expect(parts(await again.extractor.extract(input('GBR'))).trust).toEqual([0.9, 0.9, 0.9]);
    expect(again.calls()).toBe(3);
  });
});
