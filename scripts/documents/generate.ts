import { PDFDocument, StandardFonts, rgb } from 'pdf-lib';
import { type EuLicenceCountry, canadianLicenceNumber, dvlaNumber, euLicenceNumber, frenchCardNumber, renderCanadianLicenceFront, renderEuLicence, renderFrenchIdFront, renderUsLicenceFront } from './fronts';
import { type Identity, PASSPORT_COUNTRIES, ID_CARD_COUNTRIES, type LocaleCountry, identity, localIdentity, random } from './identity';
import { type LetterType, letterFor, letterPdf, renderLetter } from './letters';
import {
  ALL_CONDITIONS, type BillLines, type Condition, type Printed, billLines, degrade, printedDate, renderBill, renderIdCardBack, renderIdCardFront,
  renderLicenceBack, renderLicenceFront, renderPassport,
} from './render';

export type { Condition } from './render';
export { ALL_CONDITIONS, CONDITIONS, HARD_CONDITIONS } from './render';

export const KINDS = [
  'passport', 'id-card', 'driver-license', 'utility-bill', 'bank-statement', 'utility-bill-pdf',
  'licence-front-eu', 'licence-front-uk', 'licence-front-us', 'id-front-fr',
  'letter-en', 'letter-fr', 'letter-de', 'letter-es', 'letter-pdf',
  // Added last: a kind's index seeds its documents, so the earlier kinds keep theirs.
  'licence-front-ca',
] as const;
export type Kind = (typeof KINDS)[number];

/** Fronts without MRZ or barcode, read by their layout (issue 31): EU, UK, US and Canadian licences, the French identity card of 2021. */
export const LAYOUT_FRONT_KINDS: readonly Kind[] = ['licence-front-eu', 'licence-front-uk', 'licence-front-us', 'licence-front-ca', 'id-front-fr'];
/** Proof of address in four languages (bills, statements and letters in turn), as images and as born-digital PDFs. */
export const LETTER_KINDS: readonly Kind[] = ['letter-en', 'letter-fr', 'letter-de', 'letter-es', 'letter-pdf'];

/** The flow's document type and context of each kind (config/flows.json). */
export const KIND_TYPES: Record<Kind, { typeId: number; context: 'PHOTO_ID' | 'PROOF_OF_ADDRESS' }> = {
  passport: { typeId: 1, context: 'PHOTO_ID' },
  'driver-license': { typeId: 2, context: 'PHOTO_ID' },
  'id-card': { typeId: 3, context: 'PHOTO_ID' },
  'utility-bill': { typeId: 4, context: 'PROOF_OF_ADDRESS' },
  'bank-statement': { typeId: 5, context: 'PROOF_OF_ADDRESS' },
  'utility-bill-pdf': { typeId: 4, context: 'PROOF_OF_ADDRESS' },
  'licence-front-eu': { typeId: 2, context: 'PHOTO_ID' },
  'licence-front-uk': { typeId: 2, context: 'PHOTO_ID' },
  'licence-front-us': { typeId: 2, context: 'PHOTO_ID' },
  'licence-front-ca': { typeId: 2, context: 'PHOTO_ID' },
  'id-front-fr': { typeId: 3, context: 'PHOTO_ID' },
  'letter-en': { typeId: 4, context: 'PROOF_OF_ADDRESS' },
  'letter-fr': { typeId: 4, context: 'PROOF_OF_ADDRESS' },
  'letter-de': { typeId: 4, context: 'PROOF_OF_ADDRESS' },
  'letter-es': { typeId: 5, context: 'PROOF_OF_ADDRESS' },
  'letter-pdf': { typeId: 4, context: 'PROOF_OF_ADDRESS' },
};

export interface GeneratedDocument {
  kind: Kind;
  condition: Condition;
  seed: number;
  /** ISO3 issuing country to declare when uploading. */
  country: string;
  front: Buffer;
  back: Buffer | null;
  /** What is printed on the document. */
  identity: Identity;
  bill?: BillLines;
  /**
   * What reading the document whole must give, by extracted_data path (and `document.issue_date`), for
   * the kinds read by their layout: only what the document prints (an EU licence without field 8 has
   * no address). The older kinds are scored by score.ts's truthOf.
   */
  truth?: Record<string, string>;
}

/** Statement dates fall in the month before "today" of the test data, 2026-11. */
const BILL_DATE = (seed: number): string => `2026-10-${String((seed % 28) + 1).padStart(2, '0')}`;

async function billPdf(b: BillLines): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  const page = pdf.addPage([595, 842]);
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  page.drawRectangle({ x: 0, y: 775, width: 595, height: 67, color: rgb(0.11, 0.3, 0.54) });
  page.drawText(b.company, { x: 40, y: 800, size: 22, font: bold, color: rgb(1, 1, 1) });
  page.drawText(b.title, { x: 360, y: 730, size: 16, font: bold });
  page.drawText(`Statement date: ${printedDate(b.date)}`, { x: 360, y: 708, size: 11, font });
  page.drawText(`Account number: ${b.account}`, { x: 360, y: 690, size: 11, font });
  [b.name, b.street, b.cityLine].forEach((line, i) => page.drawText(line, { x: 50, y: 640 - i * 18, size: 13, font }));
  page.drawText('Total due: 123.45', { x: 360, y: 480, size: 14, font: bold });
  return Buffer.from(await pdf.save());
}

/**
 * One synthetic document from a seed: the same kind, condition and seed give the same bytes'
 * content on every run. `face` (JPEG/PNG bytes) is printed as the portrait when given; a proof of
 * address is made out to `holder` (the photo ID's person) when given. `printed` tampers a passport:
 * its visual zone prints those values over the genuine MRZ (`identity` stays the MRZ's).
 */
export async function generateDocument(kind: Kind, condition: Condition, seed: number, face?: Buffer, holder?: Identity, printed?: Printed): Promise<GeneratedDocument> {
  const rng = random(seed * 7919 + KINDS.indexOf(kind) * 104729);
  const person = (p: Identity): Identity => (holder ? { ...p, surname: holder.surname, givenNames: holder.givenNames, dateOfBirth: holder.dateOfBirth } : p);
  const noise = random(seed * 31 + 17 + ALL_CONDITIONS.indexOf(condition));
  const layout = await layoutDocument(kind, condition, seed, rng, noise);
  if (layout) return layout;
  switch (kind) {
    case 'passport': {
      const nationality = PASSPORT_COUNTRIES[seed % PASSPORT_COUNTRIES.length] as string;
      const p = identity(rng, { nationality });
      return { kind, condition, seed, country: nationality, front: await degrade(await renderPassport(p, rng, face, printed), condition, noise), back: null, identity: p };
    }
    case 'id-card': {
      const nationality = ID_CARD_COUNTRIES[seed % ID_CARD_COUNTRIES.length] as string;
      const p = identity(rng, { nationality });
      const front = await degrade(await renderIdCardFront(p, rng, face), condition, noise);
      return { kind, condition, seed, country: nationality, front, back: await degrade(await renderIdCardBack(p, rng), condition, noise), identity: p };
    }
    case 'driver-license': {
      const p = identity(rng, { place: 'US', nationality: 'USA', numberFormat: 'dl' });
      const front = await degrade(await renderLicenceFront(p, rng, face), condition, noise);
      return { kind, condition, seed, country: 'USA', front, back: await degrade(await renderLicenceBack(p, rng), condition, noise), identity: p };
    }
    case 'utility-bill':
    case 'bank-statement': {
      const p = person(identity(rng));
      const bill = billLines(p, rng, kind === 'utility-bill' ? 'utility' : 'bank', BILL_DATE(seed));
      return { kind, condition, seed, country: p.place.country, front: await degrade(await renderBill(bill, rng), condition, noise), back: null, identity: p, bill };
    }
    case 'utility-bill-pdf': {
      const p = person(identity(rng));
      const bill = billLines(p, rng, 'utility', BILL_DATE(seed));
      return { kind, condition: 'clean', seed, country: p.place.country, front: await billPdf(bill), back: null, identity: p, bill };
    }
    default:
      throw new Error(`no generator for ${kind}`);
  }
}

const EU_COUNTRIES: readonly EuLicenceCountry[] = ['DEU', 'FRA', 'ESP', 'ITA', 'NLD'];
const LETTER_COUNTRIES: Record<'letter-en' | 'letter-fr' | 'letter-de' | 'letter-es', readonly LocaleCountry[]> = {
  'letter-en': ['GBR', 'USA'],
  'letter-fr': ['FRA'],
  'letter-de': ['DEU'],
  'letter-es': ['ESP'],
};
const LETTER_TYPES: readonly LetterType[] = ['bill', 'statement', 'letter'];

/** The printed identity fields of a front, as the truth of reading it whole. */
function frontTruth(p: Identity, number: string, address: boolean): Record<string, string> {
  return {
    'person.surname': p.surname, 'person.given_names': p.givenNames, 'person.date_of_birth': p.dateOfBirth,
    'document.number': number, 'document.expiration_date': p.expirationDate,
    ...(address && { 'address.street': p.street, 'address.city': p.place.city, 'address.zip': p.place.zip, ...(p.place.state && { 'address.state': p.place.state }) }),
  };
}

/** The kinds read by their layout (fronts and letters in four languages); undefined for the older kinds. */
async function layoutDocument(kind: Kind, condition: Condition, seed: number, rng: () => number, noise: () => number): Promise<GeneratedDocument | undefined> {
  const front = async (canvas: Parameters<typeof degrade>[0]) => degrade(canvas, condition, noise);
  switch (kind) {
    case 'licence-front-eu': {
      const country = EU_COUNTRIES[seed % EU_COUNTRIES.length] as EuLicenceCountry;
      const p = localIdentity(rng, country);
      const number = euLicenceNumber(country, rng);
      const address = rng() < 0.4;
      return { kind, condition, seed, country, front: await front(renderEuLicence(p, number, country, rng, address)), back: null, identity: { ...p, documentNumber: number }, truth: frontTruth(p, number, address) };
    }
    case 'licence-front-uk': {
      const p = localIdentity(rng, 'GBR');
      const number = dvlaNumber(p, rng);
      return { kind, condition, seed, country: 'GBR', front: await front(renderEuLicence(p, number, 'GBR', rng, true)), back: null, identity: { ...p, documentNumber: number }, truth: frontTruth(p, number, true) };
    }
    case 'licence-front-us': {
      const p = localIdentity(rng, 'USA');
      const style = seed % 3 === 2 ? 'labels' : seed % 3 === 1 ? 'above' : 'beside';
      const canvas = style === 'labels' ? await renderLicenceFront(p, rng) : renderUsLicenceFront(p, rng, style);
      return { kind, condition, seed, country: 'USA', front: await front(canvas), back: null, identity: p, truth: frontTruth(p, p.documentNumber, true) };
    }
    case 'licence-front-ca': {
      const p = localIdentity(rng, 'CAN');
      const number = canadianLicenceNumber(p, rng);
      return { kind, condition, seed, country: 'CAN', front: await front(renderCanadianLicenceFront(p, number, rng)), back: null, identity: { ...p, documentNumber: number }, truth: frontTruth(p, number, true) };
    }
    case 'id-front-fr': {
      const p = localIdentity(rng, 'FRA');
      const number = frenchCardNumber(rng);
      return { kind, condition, seed, country: 'FRA', front: await front(renderFrenchIdFront(p, number, rng)), back: null, identity: { ...p, documentNumber: number }, truth: frontTruth(p, number, false) };
    }
    case 'letter-en':
    case 'letter-fr':
    case 'letter-de':
    case 'letter-es':
    case 'letter-pdf': {
      const countries = kind === 'letter-pdf' ? (['GBR', 'FRA', 'DEU', 'ESP'] as const) : LETTER_COUNTRIES[kind];
      const country = countries[seed % countries.length] as LocaleCountry;
      const p = localIdentity(rng, country);
      const letter = letterFor(p, country, LETTER_TYPES[Math.floor(seed / countries.length) % LETTER_TYPES.length] as LetterType, BILL_DATE(seed), rng);
      const bytes = kind === 'letter-pdf' ? await letterPdf(letter) : await front(renderLetter(letter, rng));
      return { kind, condition: kind === 'letter-pdf' ? 'clean' : condition, seed, country, front: bytes, back: null, identity: p, truth: letter.truth };
    }
    default:
      return undefined;
  }
}

/** The Create Verification body whose expected data matches a generated photo ID and proof of address. */
export function expectedData(photoId: GeneratedDocument, proof: GeneratedDocument): Record<string, unknown> {
  const p = proof.identity;
  return {
    person: { first_name: photoId.identity.givenNames, last_name: photoId.identity.surname, date_of_birth: photoId.identity.dateOfBirth },
    address: { street: p.street, city: p.place.city, state: p.place.state, postal_code: p.place.zip, country: p.place.country },
    documents: {
      photo_id: { type: photoId.kind === 'passport' ? 'Passport' : photoId.kind === 'id-card' ? 'ID Card' : 'Driver License', country: photoId.country, number: photoId.identity.documentNumber },
      proof_of_address: { type: proof.kind === 'bank-statement' ? 'Bank Statement' : 'Utility Bill', country: proof.country },
    },
  };
}
