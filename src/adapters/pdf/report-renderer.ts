import { PDFDocument, type PDFFont, type PDFPage, StandardFonts, rgb } from 'pdf-lib';
import { documentStatusLabel, verificationStatusLabel } from '../../domain/status';
import type { ReportInput, ReportRenderer } from '../../ports/report-renderer';

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

/** The PDF report of one document, made with pdf-lib (no network, no native code). */
export class PdfLibReportRenderer implements ReportRenderer {
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
    if (image.contentType === 'application/pdf') {
      const source = await PDFDocument.load(image.bytes, { ignoreEncryption: true });
      const pages = await pdf.copyPages(source, source.getPageIndices());
      for (const p of pages) pdf.addPage(p);
      return;
    }
    const page = pdf.addPage(A4);
    const font = await pdf.embedFont(StandardFonts.HelveticaBold);
    page.drawText(`Image: ${image.side}`, { x: MARGIN, y: A4[1] - MARGIN, size: 14, font });
    if (image.contentType !== 'image/jpeg' && image.contentType !== 'image/png') {
      page.drawText(`(${image.contentType} cannot be embedded in a PDF; see the signed link in the API)`, {
        x: MARGIN,
        y: A4[1] - MARGIN - 24,
        size: 10,
      });
      return;
    }
    const embedded = image.contentType === 'image/jpeg' ? await pdf.embedJpg(image.bytes) : await pdf.embedPng(image.bytes);
    const box = { w: A4[0] - 2 * MARGIN, h: A4[1] - 2 * MARGIN - 30 };
    const scale = Math.min(box.w / embedded.width, box.h / embedded.height, 1);
    const size = { width: embedded.width * scale, height: embedded.height * scale };
    page.drawImage(embedded, { x: MARGIN, y: A4[1] - MARGIN - 30 - size.height, ...size });
  }
}
