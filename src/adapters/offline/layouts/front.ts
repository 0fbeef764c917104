import { foldText, type Reading } from '../../../domain/rules';
import type { VizLine } from '../viz';
import { EU_ADDRESS, numberRead, readEuLicence } from './eu-licence';
import { readIdFront } from './id-front';
import { addressLines, rowsAfter } from './labelled';
import type { FieldRead } from './lines';
import { dvlaSupport, readUkLicence } from './uk-licence';
import { readUsLicence, US_ADDRESS } from './us-licence';

/**
 * A front without MRZ or barcode read by its layout, without expected data (issue 31): the layout
 * families of the declared country (US/Canadian AAMVA design; the UK's and other EU licences' numbered
 * fields), then identity-card labels for what those did not find. Which fields are supported by a
 * check printed on the card itself (frontChecks) is the extractor's to weigh with its second read.
 * Pure functions.
 */
export function readFront(lines: VizLine[], country: string): FieldRead[] {
  const licence = country === 'USA' || country === 'CAN' ? readUsLicence(lines, country) : country === 'GBR' ? readUkLicence(lines) : readEuLicence(lines, country);
  const out = [...licence];
  for (const read of readIdFront(lines, country)) if (!out.some((r) => r.field === read.field)) out.push(read);
  return out;
}

/**
 * The lines of a front its address may be printed on (labelled.ts addressLines), by the label its layout
 * family gives the address: field 8 (EU and UK), or field 8 and its words in English and French, glued
 * to each other or not ("8ADRESSE", "8 ADDRESS/ADRESSE", US and Canadian cards); and, its label lost, the
 * rows under the field the layout prints before it (`reads`' field 5, or given names: rowsAfter).
 */
export function addressRows(lines: VizLine[], country: string, reads: FieldRead[]): VizLine[] {
  const aamva = country === 'USA' || country === 'CAN';
  const label = aamva ? US_ADDRESS : EU_ADDRESS;
  const before = aamva ? reads.find((r) => r.field === 'person.given_names') : numberRead(reads);
  return [...addressLines(lines, label), ...rowsAfter(lines, before, label)];
}

/** What the card's own content says of the reads: fields a check supports, and dates that cannot be right. */
export interface FrontChecks {
  supported: Set<string>;
  implausible: Set<string>;
}

/**
 * Checks within the card: the UK driver number's encoding of the surname, birth date and initials
 * (uk-licence.ts dvlaSupport); dates in their order (born before issue, issued before expiry, born
 * 1900 or later and at least ten years before `today`).
 */
export function frontChecks(reads: FieldRead[], country: string, today: string): FrontChecks {
  const value = (field: string) => reads.find((r) => r.field === field)?.value ?? '';
  const supported = new Set<string>();
  const implausible = new Set<string>();
  const number = value('document.number');
  if (country === 'GBR' && number) {
    const dvla = dvlaSupport(number, value('person.surname'), value('person.date_of_birth'), value('person.given_names'));
    if (dvla.number) supported.add('document.number');
    if (dvla.dateOfBirth) supported.add('person.date_of_birth');
    // Five letters of the surname are encoded: a longer surname is supported only up to them.
    if (dvla.surname && foldText(value('person.surname')).replace(/[^A-Z]/g, '').length <= 5) supported.add('person.surname');
  }
  const [born, issued, expires] = ['person.date_of_birth', 'document.issue_date', 'document.expiration_date'].map(value) as [string, string, string];
  const tenYearsAgo = `${Number(today.slice(0, 4)) - 10}${today.slice(4)}`;
  if (born && (born < '1900-01-01' || born > tenYearsAgo || (issued && born >= issued) || (expires && born >= expires))) implausible.add('person.date_of_birth');
  if (expires && ((issued && expires <= issued) || (born && expires <= born))) implausible.add('document.expiration_date');
  return { supported, implausible };
}

/** The fields of a licence's front that the barcode also carries, compared across sources (domain/consistency.ts). */
const COMPARED_FIELDS = ['person.surname', 'person.given_names', 'person.date_of_birth', 'document.number', 'document.expiration_date'] as const;

/**
 * A licence front read by its layout as the printed source's readings beside its PDF417 barcode: each
 * field with the trust the layout read gave it (supported by a second read or a check on the card, else
 * a guess below the rules' threshold), so that the cross-source rule compares the value printed where
 * the field is, and a disagreement with an unsupported read decides nothing. The full name is the
 * given names and surname read, as trusted as the weaker of the two.
 */
export function printedReadings(reported: ReadonlyMap<string, { value: string; confidence: number }>): Reading[] {
  const out: Reading[] = COMPARED_FIELDS.flatMap((field) => {
    const r = reported.get(field);
    return r && r.value !== '' ? [{ field, value: r.value, source: 'printed' as const, confidence: r.confidence }] : [];
  });
  const [surname, given] = [reported.get('person.surname'), reported.get('person.given_names')];
  if (surname?.value && given?.value) out.push({ field: 'person.full_name', value: `${given.value} ${surname.value}`, source: 'printed', confidence: Math.min(surname.confidence, given.confidence) });
  return out;
}
