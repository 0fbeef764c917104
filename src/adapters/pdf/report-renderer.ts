import { join } from 'node:path';
import { PDFDocument, type PDFFont, type PDFPage, StandardFonts, rgb } from 'pdf-lib';
import { checkFile } from '../../domain/file-checks';
import { documentStatusLabel, verificationStatusLabel } from '../../domain/status';
import type { ReportInput, ReportRenderer } from '../../ports/report-renderer';
import { packageDir, pdfjs, sharpModule } from '../offline/engines';

/**
 * Bounds of what the report decodes from an upload (the door, src/app/file-checks.ts, already bounds
 * pixels, inflated bytes and pages; these hold even for files stored before it did).
 */
export const REPORT_LIMITS = {
  /** Pixels of a raster image sharp will open. */
  inputPixels: 40_000_000,
  /** Pixels of one image inside an uploaded PDF that pdf.js will decode. */
  pdfImagePixels: 25_000_000,
  /** Pages of an uploaded PDF drawn into the report. */
  pdfPages: 10,
  /** Size of a rendered image or page, in pixels (about 150 dpi on A4). */
  width: 1240,
  height: 1754,
};

const A4: [number, number] = [595.28, 841.89];
const MARGIN = 50;

/** WinAnsi (the standard fonts' encoding) cannot draw every character: replace what it cannot. */
function printable(text: string): string {
  return text.normalize('NFKD').replace(/[^\x20-\x7e\xa0-\xff]/g, '?');
}

class Writer {
  page: PDFPage;
  y = A4[1] - MARGIN;
  constructor(
    private readonly pdf: PDFDocument,
    private readonly font: PDFFont,
    private readonly bold: PDFFont,
  ) {
    this.page = pdf.addPage(A4);
  }
  private ensure(height: number): void {
    if (this.y - height < MARGIN) {
      this.page = this.pdf.addPage(A4);
      this.y = A4[1] - MARGIN;
    }
  }
  heading(text: string): void {
    this.ensure(30);
    this.y -= 8;
    this.page.drawText(printable(text), { x: MARGIN, y: this.y, size: 14, font: this.bold });
    this.y -= 20;
  }
  line(label: string, value: string): void {
    const maxChars = 70;
    const chunks = printable(value || '-').match(new RegExp(`.{1,${maxChars}}`, 'g')) ?? ['-'];
    chunks.forEach((chunk, i) => {
      this.ensure(14);
      if (i === 0) this.page.drawText(printable(label), { x: MARGIN, y: this.y, size: 9, font: this.bold });
      this.page.drawText(chunk, { x: MARGIN + 150, y: this.y, size: 9, font: this.font, color: rgb(0.1, 0.1, 0.1) });
      this.y -= 13;
    });
  }
  space(height: number): void {
    this.ensure(height);
  }
}

function flatten(prefix: string, value: unknown, out: [string, string][]): [string, string][] {
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    for (const [k, v] of Object.entries(value)) flatten(prefix ? `${prefix}.${k}` : k, v, out);
  } else {
    out.push([prefix, Array.isArray(value) ? JSON.stringify(value) : String(value ?? '')]);
  }
  return out;
}

/** A raster image or PDF page, ready to embed. */
interface Picture {
  jpeg: Buffer;
  width: number;
  height: number;
}

/**
 * An upload drawn as pictures only: raster images re-encoded by sharp at report size, PDF pages
 * rasterised by pdf.js. Nothing of the uploaded file (its actions, links, scripts, forms, fonts or
 * streams) is copied into the report.
 */
async function pictures(image: ReportInput['images'][number]): Promise<{ pages: Picture[]; omitted: number }> {
  // A file stored before the upload checks existed meets them here, before any decoder does.
  const problem = await checkFile(image.bytes, image.contentType);
  if (problem) throw new Error(`stored file refused: ${problem}`);
  const sharp = await sharpModule();
  const fit = (input: Buffer) =>
    sharp(input, { limitInputPixels: REPORT_LIMITS.inputPixels, failOn: 'error', sequentialRead: true })
      .rotate()
      .resize({ width: REPORT_LIMITS.width, height: REPORT_LIMITS.height, fit: 'inside', withoutEnlargement: true })
      .flatten({ background: '#ffffff' })
      .jpeg({ quality: 80 })
      .toBuffer({ resolveWithObject: true });
  if (image.contentType !== 'application/pdf') {
    const { data, info } = await fit(Buffer.from(image.bytes));
    return { pages: [{ jpeg: data, width: info.width, height: info.height }], omitted: 0 };
  }
  const pdf = await pdfjs();
  const doc = await pdf.getDocument({
    data: new Uint8Array(image.bytes),
    standardFontDataUrl: `${join(packageDir('pdfjs-dist'), 'standard_fonts')}/`,
    isEvalSupported: false,
    enableXfa: false,
    disableFontFace: true,
    useSystemFonts: false,
    stopAtErrors: false,
    maxImageSize: REPORT_LIMITS.pdfImagePixels,
  }).promise;
  try {
    const pages: Picture[] = [];
    const count = Math.min(doc.numPages, REPORT_LIMITS.pdfPages);
    for (let n = 1; n <= count; n++) {
      const page = await doc.getPage(n);
      const unit = page.getViewport({ scale: 1 });
      const scale = Math.min(REPORT_LIMITS.width / unit.width, REPORT_LIMITS.height / unit.height, 4);
      const viewport = page.getViewport({ scale });
      const factory = doc.canvasFactory as { create(w: number, h: number): { canvas: unknown; context: unknown } };
      const { canvas, context } = factory.create(Math.max(1, Math.floor(viewport.width)), Math.max(1, Math.floor(viewport.height)));
      // Annotations are not drawn: a link or form field is the uploader's, not the report's.
      type RenderParams = Parameters<typeof page.render>[0];
      await page.render({ canvas, canvasContext: context, viewport, annotationMode: pdf.AnnotationMode.DISABLE } as unknown as RenderParams).promise;
      const { data, info } = await fit((canvas as { toBuffer(type: string): Buffer }).toBuffer('image/png'));
      pages.push({ jpeg: data, width: info.width, height: info.height });
      page.cleanup();
    }
    return { pages, omitted: doc.numPages - count };
  } finally {
    await doc.destroy();
  }
}

/** The PDF report of one document, made with pdf-lib; uploads are drawn as pictures (see `pictures`). */
export class PdfLibReportRenderer implements ReportRenderer {
  /** `drawImages: false` writes a placeholder page per upload instead (the fallback when drawing failed). */
  constructor(private readonly options: { drawImages: boolean } = { drawImages: true }) {}

  async render(input: ReportInput): Promise<Uint8Array> {
    const { aggregate, document } = input;
    const v = aggregate.verification;
    const pdf = await PDFDocument.create();
    pdf.setTitle(`Verification report ${document.id}`);
    pdf.setProducer('idv-service');
    pdf.setCreationDate(new Date(Date.parse(input.generatedAt)));
    const w = new Writer(pdf, await pdf.embedFont(StandardFonts.Helvetica), await pdf.embedFont(StandardFonts.HelveticaBold));

    w.heading('Document verification report');
    w.line('Verification', v.id);
    w.line('Flow', input.flowName);
    w.line('Verification status', verificationStatusLabel(v.status));
    w.line('Document', document.id);
    w.line('Document type', input.typeName);
    w.line('Issuing country', `${input.countryName} (${document.country})`);
    w.line('Document status', documentStatusLabel(document.status));
    w.line('Generated at', input.generatedAt);

    w.heading('Expected data');
    for (const [k, val] of flatten('', v.expectedData, [])) w.line(k, val);

    w.heading('Extracted data');
    if (document.extractedData) for (const [k, val] of flatten('', document.extractedData, [])) w.line(k, val);
    else w.line('', 'Not extracted yet');

    w.heading('Rules');
    if (document.rules) for (const [k, val] of flatten('', document.rules, [])) w.line(k, val);
    else w.line('', 'Not evaluated yet');

    w.heading('Decisions');
    if (document.decisions.length === 0) w.line('', 'None');
    for (const d of document.decisions) w.line(d.createdAt, `${documentStatusLabel(d.status)} (${d.validation_workflow}) ${d.id}`);

    w.heading('History');
    for (const h of [...aggregate.history].sort((a, b) => (a.createdAt < b.createdAt ? 1 : -1))) {
      const from = h.fromStatus === null ? '-' : verificationStatusLabel(h.fromStatus);
      w.line(h.createdAt, `${from} -> ${verificationStatusLabel(h.toStatus)} by ${h.user}${h.comment ? `: ${h.comment}` : ''}`);
    }

    for (const image of input.images) await this.addImage(pdf, image);
    return pdf.save();
  }

  private async addImage(pdf: PDFDocument, image: ReportInput['images'][number]): Promise<void> {
    const font = await pdf.embedFont(StandardFonts.HelveticaBold);
    const title = (page: PDFPage, text: string) => page.drawText(text, { x: MARGIN, y: A4[1] - MARGIN, size: 14, font });
    let drawn: { pages: Picture[]; omitted: number } | undefined;
    if (this.options.drawImages) {
      try {
        drawn = await pictures(image);
      } catch {
        drawn = undefined;
      }
    }
    if (!drawn || drawn.pages.length === 0) {
      const page = pdf.addPage(A4);
      title(page, `Image: ${image.side}`);
      page.drawText('(this file could not be drawn within the report limits; see the signed link in the API)', { x: MARGIN, y: A4[1] - MARGIN - 24, size: 10 });
      return;
    }
    const box = { w: A4[0] - 2 * MARGIN, h: A4[1] - 2 * MARGIN - 30 };
    for (const [i, picture] of drawn.pages.entries()) {
      const page = pdf.addPage(A4);
      title(page, drawn.pages.length > 1 ? `Image: ${image.side}, page ${i + 1}` : `Image: ${image.side}`);
      const embedded = await pdf.embedJpg(picture.jpeg);
      const scale = Math.min(box.w / picture.width, box.h / picture.height);
      const size = { width: picture.width * scale, height: picture.height * scale };
      page.drawImage(embedded, { x: MARGIN, y: A4[1] - MARGIN - 30 - size.height, ...size });
    }
    if (drawn.omitted > 0) {
      const last = pdf.getPage(pdf.getPageCount() - 1);
      last.drawText(`(${drawn.omitted} more pages not shown)`, { x: MARGIN, y: MARGIN / 2, size: 9 });
    }
  }
}
