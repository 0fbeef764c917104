import { readFileSync, writeFileSync } from 'node:fs';
import sharp from 'sharp';
import { PDFDict, PDFDocument, PDFName, PDFRawStream } from 'pdf-lib';
import { REPORT_LIMITS } from '../../src/adapters/pdf/report-renderer';
import { getDeps } from '../../src/container';
import { activeContentPdf, bigFlatPng, headerOnlyPng, pdfInflateBomb, pdfJunk, pngZtxtBomb } from '../fixtures/hostile-files';
import { b64, pdf, png } from '../fixtures/images';
import { client, defaultBody, storedImages, useTestRuntime } from './harness';

const t = useTestRuntime();
const api: ReturnType<typeof client> = (...args) => t.api(...args);
const action = { comment: 'ok', email: 'reviewer@example.com' };

async function verification(): Promise<string> {
  const res = await api('POST', '/api/v1/default/verifications', defaultBody());
  expect(res.status).toBe(201);
  return res.body.data.id;
}

const photoId = (v: string, image: Buffer) => ({ verification: v, document: { context_type: 'PHOTO_ID', type: 1, country: 'fra', front_side_data: b64(image) } });
const proofOfAddress = (v: string, file: Buffer) => ({ verification: v, document: { context_type: 'PROOF_OF_ADDRESS', type: 4, country: 'USA', front_side_data: b64(file) } });

/** Uploads the documents, approves, and answers the report of the first one. */
async function report(bodies: (v: string) => object[]): Promise<{ status: number; pdf: Buffer; v: string }> {
  const v = await verification();
  const ids: string[] = [];
  for (const body of bodies(v)) {
    const res = await api('POST', '/api/v1/default/documents', body);
    expect(res.status).toBe(201);
    ids.push(res.body.data.id);
  }
  expect((await api('PUT', `/api/v1/default/verifications/${v}/approve`, action)).status).toBe(200);
  const res = await api('GET', `/api/v1/default/documents/${ids[0]}/pdf`);
  return { status: res.status, pdf: Buffer.from(res.status === 200 ? res.body.data : '', 'base64'), v };
}

/** Every dictionary of a PDF (including those inside object streams and stream dictionaries), as text. */
function allDictionaries(doc: PDFDocument): string[] {
  return doc.context
    .enumerateIndirectObjects()
    .map(([, obj]) => (obj instanceof PDFRawStream ? obj.dict : obj))
    .filter((obj): obj is PDFDict => obj instanceof PDFDict)
    .map((d) => d.toString());
}

describe('hostile files at the door', () => {
  it.each([
    ['a PNG that is only a header', 'PHOTO_ID', () => headerOnlyPng(), /not a readable image: it is truncated/],
    ['bytes that start with %PDF-', 'PROOF_OF_ADDRESS', () => pdfJunk(), /not a readable PDF: it is truncated/],
    ['a JPEG cut short', 'PHOTO_ID', async () => {
      const jpeg = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#888' } }).jpeg().toBuffer();
      return jpeg.subarray(0, Math.floor(jpeg.length * 0.8));
    }, /not a readable image/],
    ['a PDF whose content inflates to 256 MB', 'PROOF_OF_ADDRESS', () => pdfInflateBomb(256 * 1024 * 1024), /its content inflates to more than 128 MB/],
    ['a PNG whose zTXt chunk inflates to 256 MB', 'PHOTO_ID', () => pngZtxtBomb(256 * 1024 * 1024), /its metadata inflates to more than 1 MB/],
  ])('answers 400 for %s and stores nothing', async (_name, context, build, message) => {
    const v = await verification();
    const file = await build();
    const body = context === 'PHOTO_ID' ? photoId(v, file) : proofOfAddress(v, file);
    const res = await api('POST', '/api/v1/default/documents', body);
    expect([res.status, res.body.message]).toEqual([400, expect.stringMatching(message)]);
    expect(storedImages(t.h.dataDir, v)).toEqual([]);
  });
});

describe('the report of hostile files', () => {
  it('draws a 40-megapixel PNG shrunk to report size', async () => {
    const { status, pdf: bytes } = await report((v) => [photoId(v, await40mp)]);
    expect(status).toBe(200);
    const doc = await PDFDocument.load(bytes);
    const images = doc.context
      .enumerateIndirectObjects()
      .map(([, obj]) => obj)
      .filter((obj): obj is PDFRawStream => obj instanceof PDFRawStream && obj.dict.get(PDFName.of('Subtype')) === PDFName.of('Image'));
    expect(images).toHaveLength(1);
    const width = Number(images[0]!.dict.get(PDFName.of('Width'))?.toString());
    expect(width).toBeGreaterThan(0);
    expect(width).toBeLessThanOrEqual(REPORT_LIMITS.width);
  });

  it('answers 200 with a placeholder, never 500, for stored files the door would now refuse', async () => {
    const v = await verification();
    const d = (await api('POST', '/api/v1/default/documents', photoId(v, png(16, 16)))).body.data.id as string;
    expect((await api('POST', '/api/v1/default/documents', proofOfAddress(v, pdf()))).status).toBe(201);
    // Files stored before the door checked them: overwrite what the local S3 server holds.
    for (const file of storedImages(t.h.dataDir, v)) {
      const isPdf = readFileSync(file).subarray(0, 5).toString() === '%PDF-';
      writeFileSync(file, isPdf ? pdfJunk().subarray(0, readFileSync(file).length) : Buffer.concat([headerOnlyPng(), Buffer.alloc(png(16, 16).length - 33)]));
    }
    expect((await api('PUT', `/api/v1/default/verifications/${v}/approve`, action)).status).toBe(200);
    const res = await api('GET', `/api/v1/default/documents/${d}/pdf`);
    expect(res.status).toBe(200);
    const doc = await PDFDocument.load(Buffer.from(res.body.data, 'base64'));
    expect(doc.getPageCount()).toBeGreaterThanOrEqual(2);
  });

  it('answers 200 with a placeholder for a stored 1 GB PDF inflate bomb without inflating it (peak RSS grows < 300 MB)', async () => {
    const v = await verification();
    const poa = (await api('POST', '/api/v1/default/documents', proofOfAddress(v, pdf()))).body.data.id as string;
    // Stored before the door checked files: written straight to the bucket.
    const deps = await getDeps(['documents', 'blobs']);
    const stored = (await deps.documents.get(poa))!.document;
    await deps.blobs.put(stored.front.key, await pdfInflateBomb(1024 * 1024 * 1024), 'application/pdf');
    expect((await api('PUT', `/api/v1/default/verifications/${v}/approve`, action)).status).toBe(200);
    const before = process.resourceUsage().maxRSS;
    const res = await api('GET', `/api/v1/default/documents/${poa}/pdf`);
    expect(res.status).toBe(200);
    expect((process.resourceUsage().maxRSS - before) / 1024).toBeLessThan(300);
    const { pdfText } = await import('../../src/adapters/offline/engines');
    expect(await pdfText(await pdfInflateBomb(1024 * 1024 * 1024))).toEqual([]);
    expect((process.resourceUsage().maxRSS - before) / 1024).toBeLessThan(300);
  }, 120_000);

  it('carries none of an uploaded PDF\'s JavaScript, Launch, URI links, page or open actions, annotations or form fields', async () => {
    const v = await verification();
    const poa = await api('POST', '/api/v1/default/documents', proofOfAddress(v, activeContentPdf()));
    expect(poa.status).toBe(201);
    expect((await api('PUT', `/api/v1/default/verifications/${v}/approve`, action)).status).toBe(200);
    const res = await api('GET', `/api/v1/default/documents/${poa.body.data.id}/pdf`);
    expect(res.status).toBe(200);
    const bytes = Buffer.from(res.body.data, 'base64');
    const doc = await PDFDocument.load(bytes, { updateMetadata: false });
    const text = [...allDictionaries(doc), bytes.toString('latin1')].join('\n');
    for (const token of [/\/JavaScript\b/, /\/JS\b/, /\/Launch\b/, /\/URI\b/, /\/AA\b/, /\/OpenAction\b/, /\/Annot\b/, /\/AcroForm\b/, /\/Names\b/, /\/Link\b/, /\/Widget\b/]) {
      expect([String(token), token.test(text)]).toEqual([String(token), false]);
    }
    for (const page of doc.getPages()) {
      // pdf-lib gives every page an empty /Annots array: no page may have an annotation in it.
      expect(page.node.Annots()?.size() ?? 0).toBe(0);
      expect(page.node.get(PDFName.of('AA'))).toBeUndefined();
    }
    expect(doc.catalog.get(PDFName.of('OpenAction'))).toBeUndefined();
    // The uploaded page is in the report, drawn as a picture.
    expect(doc.getPageCount()).toBeGreaterThanOrEqual(2);
    expect(allDictionaries(doc).some((d) => d.includes('/Subtype /Image'))).toBe(true);
  });
});

let await40mp: Buffer;
beforeAll(async () => {
  await40mp = await bigFlatPng(8000, 5000);
});
