import { once } from 'node:events';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { packageDir } from '../../../src/adapters/offline/engines';
import { PdfLibReportRenderer } from '../../../src/adapters/pdf/report-renderer';
import type { DocumentRecord, HistoryEntry, VerificationAggregate } from '../../../src/domain/entities';
import type { ReportInput } from '../../../src/ports/report-renderer';

const PAGE_WIDTH = 595.28;
const MARGIN = 50;
/** pdf.js and pdf-lib measure with the same font metrics; this only absorbs rounding. */
const EPSILON = 0.5;

interface Item {
  page: number;
  str: string;
  x: number;
  y: number;
  width: number;
}

/**
 * Every non-blank text item of a PDF, with its page, baseline position and width, as pdf.js reads it.
 * pdf.js is an ES module that jest's CommonJS runtime cannot load: it runs in a worker thread, where
 * Node's own require loads it (as src/adapters/offline/engines.ts does outside jest).
 */
async function textItems(bytes: Uint8Array): Promise<Item[]> {
  const code = `
    const { parentPort, workerData } = require('node:worker_threads');
    (async () => {
      const pdf = require(workerData.module);
      const doc = await pdf.getDocument({ data: workerData.bytes, standardFontDataUrl: workerData.fonts, isEvalSupported: false, disableFontFace: true, useSystemFonts: false }).promise;
      const items = [];
      for (let n = 1; n <= doc.numPages; n++) {
        for (const item of (await (await doc.getPage(n)).getTextContent()).items) {
          if ('str' in item && item.str.trim() !== '') items.push({ page: n, str: item.str, x: item.transform[4], y: item.transform[5], width: item.width });
        }
      }
      await doc.destroy();
      parentPort.postMessage(items);
    })().catch((error) => parentPort.postMessage({ error: String(error) }));`;
  const dir = packageDir('pdfjs-dist');
  const worker = new Worker(code, { eval: true, workerData: { bytes, module: join(dir, 'legacy', 'build', 'pdf.mjs'), fonts: `${join(dir, 'standard_fonts')}/` } });
  try {
    const [result] = (await once(worker, 'message')) as [Item[] | { error: string }];
    if (!Array.isArray(result)) throw new Error(result.error);
    return result;
  } finally {
    await worker.terminate();
  }
}

/** The text of each column (items starting at the same x), read down the pages, without white space. */
function columns(items: Item[]): string[] {
  const byX = new Map<number, Item[]>();
  for (const item of items) {
    const x = Math.round(item.x * 10) / 10;
    byX.set(x, [...(byX.get(x) ?? []), item]);
  }
  return [...byX.values()].map((column) =>
    column
      .sort((a, b) => a.page - b.page || b.y - a.y)
      .map((i) => i.str)
      .join('')
      .replace(/\s+/g, ''),
  );
}

const at = (minute: number) => new Date(Date.UTC(2026, 10, 20, 9, minute)).toISOString();
const long = (seed: string, length: number) => Array.from({ length }, (_, i) => seed[i % seed.length]).join('');
/** Pairs the font kerns (AV, Ty, Wa): a width measured with kerning is narrower than the text drawn. */
const kerned = long('AVAWAYATAVTYTOWAVA', 160);

function reportInput(): ReportInput {
  const street = `${long('Avenida de los Libertadores Bernardo O Higgins ', 120)}${long('Kilometro', 80)}`;
  const history: HistoryEntry[] = Array.from({ length: 30 }, (_, i) => ({
    id: `his_${i}`,
    fromStatus: i === 0 ? null : 5,
    toStatus: i === 0 ? 1 : 3,
    user: i % 2 ? long('compliance.reviewer.with.a.very.long.mailbox', 60) + '@example.com' : 'system',
    comment: i === 0 ? null : `comment-${String(i).padStart(2, '0')} ${long('The applicant called twice and explained that the second surname is written without the hyphen on the card; ', 320)}`,
    createdAt: at(i),
    changedFields: [],
  }));
  const document: DocumentRecord = {
    id: 'doc_01ARZ3NDEKTSV4RRFFQ69G5FAV',
    verificationId: 'ver_01ARZ3NDEKTSV4RRFFQ69G5FAV',
    flow: 'default',
    contextType: 'PHOTO_ID',
    typeId: 1,
    country: 'USA',
    status: 3,
    front: { key: 'front', contentType: 'image/jpeg' },
    back: null,
    extractedData: {
      person: { surname: long('Müller-Lüdenscheidt', 80), full_name: long('Hans Peter Müller-Lüdenscheidt ', 160), given_names: long('Hans Peter ', 80), date_of_birth: '1980-02-29' },
      address: { zip: '90210', city: long('Llanfairpwllgwyngyllgogerychwyrndrobwllllantysiliogogogoch', 80), full: long(`${street} `, 300), state: kerned, street, country: 'USA' },
      document: {
        type: 'Passport',
        number: long('X1234567890', 80),
        has_selfie: 'false',
        identified: 'true',
        country_code: 'USA',
        country_name: 'United States of America',
        issuing_entity: long('Department of State, Bureau of Consular Affairs, ', 200),
        expiration_date: '2031-01-01',
        selfie_comparison: '',
      },
    },
    extractionConfidence: null,
    rules: {
      outcome: 'review',
      results: [
        { name: 'person.first_name', expected: 'Hans Peter', extracted: 'Hans Peter', result: 'passed', reason: 'similarity 1.00' },
        { name: 'person.last_name', expected: 'Müller', extracted: 'Muller', result: 'review', reason: 'similarity 0.95; a word differs (word similarity 0.83); low extraction confidence 0.41' },
        { name: 'document.not_expired', expected: '>= 2026-11-20', extracted: '2031-01-01', result: 'passed', reason: 'valid' },
        { name: 'person.minimum_age', expected: '>= 18 years on 2026-11-20', extracted: '', result: 'not_evaluated', reason: 'date of birth not read' },
      ],
    },
    decisions: [
      { id: 'dec_1', status: 5, validation_workflow: 'automatic', createdAt: at(1), updatedAt: at(1) },
      { id: 'dec_2', status: 3, validation_workflow: 'manual', createdAt: at(2), updatedAt: at(2) },
    ],
    reportSha256: null,
    createdAt: at(0),
    updatedAt: at(2),
    version: 3,
  };
  const aggregate: VerificationAggregate = {
    verification: {
      id: document.verificationId,
      flow: 'default',
      vendorReference: null,
      vendorState: null,
      expectedData: {
        person: { first_name: long('Hans Peter Őrs ', 80), last_name: long('Müller-Lüdenscheidt ', 80), date_of_birth: '1980-02-29' },
        address: { street, city: long('Llanfairpwllgwyngyllgogerychwyrndrobwllllantysiliogogogoch', 80), state: kerned, postal_code: '90210', country: 'USA' },
        documents: {
          photo_id: { type: 'Passport', number: long('X1234567890', 80), country: 'USA' },
          proof_of_address: { type: '', number: '', country: '' },
        },
      },
      status: 3,
      submittedAt: at(0),
      createdAt: at(0),
      updatedAt: at(29),
      version: 30,
      run: 1,
      processedRun: 1,
      comments: [],
      expiresAt: at(59),
    },
    documents: [document],
    history,
  };
  return { aggregate, document, flowName: long('Onboarding of private banking clients, ', 120), typeName: 'Passport', countryName: 'United States of America', images: [], generatedAt: at(30) };
}

describe('PDF report layout', () => {
  let input: ReportInput;
  let items: Item[];
  beforeAll(async () => {
    input = reportInput();
    items = await textItems(await new PdfLibReportRenderer().render(input));
  });

  it('never overprints: no two text items on the same line overlap', () => {
    const lines = new Map<string, Item[]>();
    for (const item of items) {
      const key = `${item.page}:${item.y.toFixed(1)}`;
      lines.set(key, [...(lines.get(key) ?? []), item]);
    }
    const overlaps: string[] = [];
    for (const line of lines.values()) {
      const sorted = line.sort((a, b) => a.x - b.x);
      sorted.slice(1).forEach((item, i) => {
        const before = sorted[i] as Item;
        if (before.x + before.width > item.x + EPSILON) overlaps.push(`${before.str} | ${item.str}`);
      });
    }
    expect(overlaps).toEqual([]);
  });

  it('draws everything inside the margins', () => {
    const outside = items.filter((i) => i.x < MARGIN - EPSILON || i.x + i.width > PAGE_WIDTH - MARGIN + EPSILON || i.y < MARGIN);
    expect(outside.map((i) => i.str)).toEqual([]);
  });

  it('shows every value in full, wrapped across lines and pages', () => {
    const text = columns(items);
    const { verification } = input.aggregate;
    const values = [
      input.flowName,
      ...Object.values(verification.expectedData.person),
      ...Object.values(verification.expectedData.address),
      ...Object.values(input.document.extractedData?.address ?? {}),
      ...Object.values(input.document.extractedData?.person ?? {}),
      ...Object.values(input.document.extractedData?.document ?? {}).filter(Boolean),
      ...input.aggregate.history.flatMap((h) => [h.user, h.comment ?? '']),
    ]
      // Ő is not in the standard fonts' WinAnsi: it is drawn as O.
      .map((value) => value.replace(/Ő/g, 'O').replace(/\s+/g, ''))
      .filter(Boolean);
    const missing = values.filter((value) => !text.some((column) => column.includes(value)));
    expect(missing).toEqual([]);
  });

  it('prints the rules as a table in words, not as JSON', () => {
    const all = items.map((i) => i.str).join('\n');
    expect(all).not.toMatch(/[{}"]/);
    const rule = items.find((i) => i.str === 'Document not expired');
    const row = items.filter((i) => i.page === rule?.page && i.y === rule.y);
    expect(row.map((i) => i.str)).toEqual(['Document not expired', 'Passed', 'valid']);
    // A rule whose input was not read says so; it is neither passed nor a finding.
    const age = items.find((i) => i.str === 'Minimum age');
    expect(items.filter((i) => i.page === age?.page && i.y === age.y).map((i) => i.str)).toEqual(['Minimum age', 'Not evaluated', 'date of birth not read']);
  });

  it('repeats the table header on every page a table continues on', () => {
    const pages = [...new Set(items.filter((i) => i.str.startsWith('comment-')).map((i) => i.page))];
    expect(pages.length).toBeGreaterThan(1);
    for (const page of pages) {
      const header = items.find((i) => i.page === page && i.str === 'Comment');
      const rows = items.filter((i) => i.page === page && i.str.startsWith('comment-'));
      expect(header).toBeDefined();
      expect(rows.every((r) => r.y < (header?.y ?? 0))).toBe(true);
    }
  });

  it('puts each extracted value beside the expected value it is compared with', () => {
    const rows = items
      .filter((label) => label.str === 'Date of birth')
      .map((label) => items.filter((i) => i.page === label.page && i.y === label.y).map((i) => i.str));
    // The expected data's row, then the extracted data's: field | expected | extracted.
    expect(rows).toEqual([
      ['Date of birth', '1980-02-29'],
      ['Date of birth', '1980-02-29', '1980-02-29'],
    ]);
  });
});

describe('PDF report of a row taller than a page', () => {
  it('cuts the row between its lines and shows it in full, inside the margins', async () => {
    const input = reportInput();
    const comment = `start ${long('a reviewer wrote a very long note about this case ', 9000)} end`;
    input.aggregate.history = [{ ...(input.aggregate.history[1] as HistoryEntry), comment }];
    const items = await textItems(await new PdfLibReportRenderer().render(input));
    const pages = new Set(items.filter((i) => /reviewer wrote/.test(i.str)).map((i) => i.page));
    expect(pages.size).toBeGreaterThan(1);
    expect(items.filter((i) => i.y < MARGIN || i.x + i.width > PAGE_WIDTH - MARGIN + EPSILON)).toEqual([]);
    // Read down the column without the header repeated at the top of each page.
    const text = columns(items.filter((i) => i.str !== 'Comment'));
    expect(text.some((column) => column.includes(comment.replace(/\s+/g, '')))).toBe(true);
  });
});

describe('PDF report of text the standard fonts lack', () => {
  it('keeps what WinAnsi has, drops an accent it lacks and marks the rest', async () => {
    const input = reportInput();
    input.aggregate.verification.expectedData.address.street = 'Fee 20 € paid: Straße ﬁve, Őrs, 李 street';
    const text = columns(await textItems(await new PdfLibReportRenderer().render(input)));
    expect(text.some((column) => column.includes('Fee20€paid:Straßefive,Ors,?street'))).toBe(true);
  });
});
