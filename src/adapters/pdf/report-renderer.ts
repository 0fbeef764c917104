import { join } from 'node:path';
import { PDFDocument, type PDFFont, type PDFPage, StandardFonts, rgb } from 'pdf-lib';
import type { ExpectedData } from '../../domain/entities';
import { checkFile } from '../../domain/file-checks';
import type { ContextType } from '../../domain/flow';
import type { RuleResultValue } from '../../domain/rules';
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
/** Body text: size, distance between baselines, space between text and a cell's border. */
const TEXT = { size: 8.5, leading: 11, pad: 4 };
const GRID = rgb(0.6, 0.6, 0.6);
const HEADER_FILL = rgb(0.9, 0.9, 0.9);

/**
 * The characters the standard fonts can draw (WinAnsi): what the font says it has, not a range guess,
 * so that €, curly quotes and every accented Latin-1 letter stay as they are.
 */
const charsets = new WeakMap<PDFFont, Set<number>>();
function charset(font: PDFFont): Set<number> {
  let set = charsets.get(font);
  if (!set) charsets.set(font, (set = new Set(font.getCharacterSet())));
  return set;
}

/**
 * One line of text as the font can draw it: compatibility forms composed (ﬁ → fi), a letter the font
 * lacks drawn without its accent when that is enough (ő → o), anything else as `?`; control characters
 * become spaces.
 */
function printable(text: string, font: PDFFont): string {
  const has = charset(font);
  let out = '';
  for (const ch of text.normalize('NFKC').replace(/\p{Cc}/gu, ' ')) {
    if (has.has(ch.codePointAt(0) ?? 0)) {
      out += ch;
      continue;
    }
    const base = ch.normalize('NFKD').replace(/\p{M}+/gu, '');
    out += base !== '' && [...base].every((c) => has.has(c.codePointAt(0) ?? 0)) ? base : '?';
  }
  return out;
}

/**
 * Width of printable text at the body size as it is drawn: glyph by glyph. pdf-lib's own measure
 * subtracts kerning between pairs (AV, To), which drawText does not apply, so a line measured whole
 * would come out wider than measured and run into the next column.
 */
const glyphWidths = new WeakMap<PDFFont, Map<string, number>>();
function measure(text: string, font: PDFFont): number {
  let widths = glyphWidths.get(font);
  if (!widths) glyphWidths.set(font, (widths = new Map()));
  let total = 0;
  for (const ch of text) {
    let width = widths.get(ch);
    if (width === undefined) widths.set(ch, (width = font.widthOfTextAtSize(ch, TEXT.size)));
    total += width;
  }
  return total;
}

/**
 * The lines `text` takes in a column `width` points wide: broken between words, a word wider than
 * the column broken between its characters, and at the text's own line breaks.
 */
function wrap(text: string, font: PDFFont, width: number): string[] {
  const space = measure(' ', font);
  const lines: string[] = [];
  for (const paragraph of text.split(/\r\n|[\r\n]/)) {
    let line = '';
    let used = 0;
    for (const word of printable(paragraph, font).split(' ').filter(Boolean)) {
      const wide = measure(word, font);
      if (line !== '' && used + space + wide <= width) {
        line += ` ${word}`;
        used += space + wide;
        continue;
      }
      if (line !== '') lines.push(line);
      line = '';
      used = 0;
      // Character by character: a word that fits is taken whole, a longer one is broken where it must.
      for (const ch of word) {
        const w = measure(ch, font);
        if (line !== '' && used + w > width) {
          lines.push(line);
          line = '';
          used = 0;
        }
        line += ch;
        used += w;
      }
    }
    lines.push(line);
  }
  return lines;
}

/** Lines of a table row's cells: the tallest cell and the padding above and below. */
function rowHeight(cells: string[][]): number {
  return Math.max(...cells.map((c) => c.length)) * TEXT.leading + 2 * TEXT.pad;
}

/** Draws from the top of A4 pages down: headings, paragraphs and tables, a new page at the bottom margin. */
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
  private newPage(): void {
    this.page = this.pdf.addPage(A4);
    this.y = A4[1] - MARGIN;
  }
  /** A heading is never left alone at the bottom of a page: room for it and a few lines below. */
  heading(text: string): void {
    if (this.y - 30 - 4 * TEXT.leading < MARGIN) this.newPage();
    this.y -= 8;
    this.page.drawText(printable(text, this.bold), { x: MARGIN, y: this.y - 14, size: 14, font: this.bold });
    this.y -= 28;
  }
  note(text: string): void {
    for (const line of wrap(text, this.font, A4[0] - 2 * MARGIN)) {
      if (this.y - TEXT.leading < MARGIN) this.newPage();
      this.page.drawText(line, { x: MARGIN, y: this.y - TEXT.size, size: TEXT.size, font: this.font });
      this.y -= TEXT.leading;
    }
    this.y -= TEXT.leading;
  }

  /**
   * A table as wide as the text area (column widths: `columns`). Every cell wraps within its column
   * and a row is as tall as its tallest cell. A row that does not fit moves to a new page under a
   * repeated header; one taller than a page is cut between its lines.
   */
  table(headers: string[], rows: string[][]): void {
    const widths = this.columns(headers, rows);
    const header = headers.map((h, i) => wrap(h, this.bold, (widths[i] ?? 0) - 2 * TEXT.pad));
    // The header is not left alone at the bottom of a page: it needs one line of the first row below.
    const oneLine = rowHeight([['']]);
    if (this.y - rowHeight(header) - oneLine < MARGIN) this.newPage();
    this.row(header, widths, true);
    for (const row of rows) {
      let cells = row.map((c, i) => wrap(c, this.font, (widths[i] ?? 0) - 2 * TEXT.pad));
      for (;;) {
        const room = this.y - MARGIN;
        if (rowHeight(cells) <= room) {
          this.row(cells, widths, false);
          break;
        }
        if (rowHeight(cells) > A4[1] - 2 * MARGIN - rowHeight(header) && room >= oneLine) {
          const fit = Math.floor((room - 2 * TEXT.pad) / TEXT.leading);
          this.row(cells.map((c) => c.slice(0, fit)), widths, false);
          cells = cells.map((c) => c.slice(fit));
        }
        this.newPage();
        this.row(header, widths, true);
      }
    }
    this.y -= 2 * TEXT.leading;
  }

  /**
   * Column widths that fill the text area: narrow columns (times, statuses, names) get their widest
   * text, narrowest first, while it is within an even share of what is left; the wider ones share the
   * rest, half of it evenly and half by the square root of their widest text, so a long comment gets
   * more room than a long e-mail without starving it. When everything fits, the spare width goes to
   * each column in proportion.
   */
  private columns(headers: string[], rows: string[][]): number[] {
    const total = A4[0] - 2 * MARGIN;
    const widest = (text: string, font: PDFFont) => Math.max(...text.split(/\r\n|[\r\n]/).map((p) => measure(printable(p, font), font)));
    const wanted = headers.map((h, i) => Math.max(widest(h, this.bold), ...rows.map((r) => widest(r[i] ?? '', this.font))) + 2 * TEXT.pad);
    const sum = wanted.reduce((a, b) => a + b, 0);
    if (sum <= total) return wanted.map((w) => (w / sum) * total);
    const widths = [...wanted];
    let left = total;
    const wide = wanted.map((_, i) => i).sort((a, b) => (wanted[a] ?? 0) - (wanted[b] ?? 0));
    while (wide.length > 0 && (wanted[wide[0] ?? 0] ?? 0) <= left / wide.length) {
      const narrow = wide.shift() ?? 0;
      left -= wanted[narrow] ?? 0;
    }
    const roots = wide.reduce((a, i) => a + Math.sqrt(wanted[i] ?? 0), 0);
    for (const i of wide) widths[i] = left / 2 / wide.length + (Math.sqrt(wanted[i] ?? 0) / roots) * (left / 2);
    return widths;
  }

  private row(cells: string[][], widths: number[], isHeader: boolean): void {
    const height = rowHeight(cells);
    let x = MARGIN;
    cells.forEach((lines, i) => {
      const width = widths[i] ?? 0;
      this.page.drawRectangle({ x, y: this.y - height, width, height, borderColor: GRID, borderWidth: 0.5, ...(isHeader ? { color: HEADER_FILL } : {}) });
      lines.forEach((line, n) => {
        if (line === '') return;
        const y = this.y - TEXT.pad - TEXT.size - n * TEXT.leading;
        this.page.drawText(line, { x: x + TEXT.pad, y, size: TEXT.size, font: isHeader ? this.bold : this.font, color: rgb(0.1, 0.1, 0.1) });
      });
      x += width;
    });
    this.y -= height;
  }
}

/** Dotted paths and values of a data object, in its own order. */
function flatten(prefix: string, value: unknown, out: [string, string][]): [string, string][] {
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    for (const [k, v] of Object.entries(value)) flatten(prefix ? `${prefix}.${k}` : k, v, out);
  } else {
    out.push([prefix, Array.isArray(value) ? value.join(', ') : String(value ?? '')]);
  }
  return out;
}

const GROUPS = new Map([['person', ''], ['documents', ''], ['photo_id', 'Photo ID'], ['proof_of_address', 'Proof of address']]);
/** A dotted field or rule name in words: `documents.photo_id.number` → "Photo ID number". */
function label(path: string): string {
  const words = path.split('.').map((part) => GROUPS.get(part) ?? part.replace(/_/g, ' ')).filter(Boolean).join(' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** An ISO instant as a reader takes it, its time zone said: `2026-11-23 02:50:35 UTC`. */
function time(iso: string): string {
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? iso : `${new Date(ms).toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}

const OUTCOMES: Record<RuleResultValue, string> = { passed: 'Passed', failed: 'Failed', review: 'Needs review', not_evaluated: 'Not evaluated' };

/**
 * The expected value each extracted field is compared with, as the rules pair them (src/domain/rules.ts);
 * the document's own expected fields are those of its context.
 */
function counterparts(context: ContextType, e: ExpectedData): Map<string, string> {
  const doc = context === 'PHOTO_ID' ? e.documents.photo_id : context === 'PROOF_OF_ADDRESS' ? e.documents.proof_of_address : null;
  return new Map([
    ['person.given_names', e.person.first_name],
    ['person.surname', e.person.last_name],
    ['person.full_name', `${e.person.first_name} ${e.person.last_name}`.trim()],
    ['person.date_of_birth', e.person.date_of_birth],
    ['address.street', e.address.street],
    ['address.city', e.address.city],
    ['address.state', e.address.state],
    ['address.zip', e.address.postal_code],
    ['address.full', [e.address.street, e.address.city, e.address.state, e.address.postal_code].filter(Boolean).join(' ')],
    ['address.country', e.address.country],
    ...(doc ? ([['document.type', doc.type], ['document.number', doc.number], ['document.country_code', doc.country]] as const) : []),
  ]);
}

/** An empty value shown as such, not as a blank a reader may take for a missing cell. */
const shown = (value: string) => (value === '' ? '-' : value);

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
    w.table(
      ['Item', 'Value'],
      [
        ['Verification', v.id],
        ['Flow', input.flowName],
        ['Verification status', verificationStatusLabel(v.status)],
        ['Document', document.id],
        ['Document type', input.typeName],
        ['Issuing country', `${input.countryName} (${document.country})`],
        ['Document status', documentStatusLabel(document.status)],
        ['Rules outcome', document.rules ? OUTCOMES[document.rules.outcome] : 'Not evaluated yet'],
        ['Generated at', time(input.generatedAt)],
      ],
    );

    w.heading('Expected data');
    w.table(['Field', 'Value'], flatten('', v.expectedData, []).map(([k, val]) => [label(k), shown(val)]));

    w.heading('Extracted data');
    if (document.extractedData) {
      const expected = counterparts(document.contextType, v.expectedData);
      const rows = flatten('', document.extractedData, []).map(([k, val]) => {
        const e = expected.get(k);
        return [label(k), e === undefined ? '' : shown(e), shown(val)];
      });
      w.table(['Field', 'Expected', 'Extracted'], rows);
    } else w.note('Not extracted yet.');

    w.heading('Rules');
    if (document.rules && document.rules.results.length > 0) {
      w.table(['Rule', 'Outcome', 'Reason'], document.rules.results.map((r) => [label(r.name), OUTCOMES[r.result], shown(r.reason)]));
    } else w.note(document.rules ? 'No rule applied.' : 'Not evaluated yet.');

    w.heading('Decisions');
    if (document.decisions.length === 0) w.note('None.');
    else {
      const by = { automatic: 'Automatic (rules)', manual: 'Reviewer' } as const;
      w.table(['Time', 'Status', 'By'], document.decisions.map((d) => [time(d.createdAt), documentStatusLabel(d.status), by[d.validation_workflow]]));
    }

    w.heading('History');
    const history = [...aggregate.history].sort((a, b) => (a.createdAt < b.createdAt ? 1 : -1));
    w.table(
      ['Time', 'Status', 'By', 'Comment'],
      history.map((h) => {
        const to = verificationStatusLabel(h.toStatus);
        return [time(h.createdAt), h.fromStatus === null ? to : `${to} (from ${verificationStatusLabel(h.fromStatus)})`, h.user, shown(h.comment ?? '')];
      }),
    );

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
      // Pages left out are said in the last page's title: below the picture is the bottom margin.
      const omitted = i === drawn.pages.length - 1 && drawn.omitted > 0 ? ` (${drawn.omitted} more pages not shown)` : '';
      title(page, drawn.pages.length > 1 ? `Image: ${image.side}, page ${i + 1}${omitted}` : `Image: ${image.side}${omitted}`);
      const embedded = await pdf.embedJpg(picture.jpeg);
      const scale = Math.min(box.w / picture.width, box.h / picture.height);
      const size = { width: picture.width * scale, height: picture.height * scale };
      page.drawImage(embedded, { x: MARGIN, y: A4[1] - MARGIN - 30 - size.height, ...size });
    }
  }
}
