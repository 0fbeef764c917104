import { XMLParser } from 'fast-xml-parser';
import { countryCode } from '../../domain/screening/country-names';
import type { ListedDate, ListedDocument, ListedName, ListEntry, ListSnapshot } from '../../domain/screening/types';
import { SnapshotFormatError } from './errors';

/**
 * The United Nations Security Council Consolidated List in the UN's XML: CONSOLIDATED_LIST with
 * INDIVIDUALS/INDIVIDUAL (FIRST_NAME … FOURTH_NAME, NAME_ORIGINAL_SCRIPT, INDIVIDUAL_ALIAS with
 * QUALITY Good / Low, INDIVIDUAL_DATE_OF_BIRTH EXACT / APPROXIMATELY / BETWEEN, NATIONALITY,
 * INDIVIDUAL_DOCUMENT, GENDER) and ENTITIES/ENTITY; the attribute dateGenerated dates the snapshot.
 */
export const UN_SC = 'un-sc';

const MAX_CHARS = 100_000_000;
const MAX_ENTRIES = 100_000;
const FILE = 'un-consolidated.xml';

type Node = Record<string, unknown>;

const ARRAYS = new Set([
  'INDIVIDUAL',
  'ENTITY',
  'INDIVIDUAL_ALIAS',
  'ENTITY_ALIAS',
  'INDIVIDUAL_DATE_OF_BIRTH',
  'INDIVIDUAL_DOCUMENT',
  'INDIVIDUAL_PLACE_OF_BIRTH',
  'VALUE',
]);

function text(value: unknown): string {
  if (typeof value === 'string') return value.replace(/\s+/g, ' ').trim();
  if (typeof value === 'number') return String(value);
  return '';
}

function list(value: unknown): Node[] {
  return Array.isArray(value) ? value.filter((v): v is Node => typeof v === 'object' && v !== null) : [];
}

function values(node: unknown): string[] {
  if (typeof node !== 'object' || node === null) return [];
  const v = (node as Node).VALUE;
  return (Array.isArray(v) ? v : []).map(text).filter(Boolean);
}

function aliasName(alias: Node): ListedName | undefined {
  const full = text(alias.ALIAS_NAME);
  if (!full) return undefined;
  const quality = text(alias.QUALITY).toLowerCase();
  if (quality === 'low') return { full, kind: 'aka', quality: 'weak' };
  return { full, kind: quality === 'f.k.a.' ? 'fka' : 'aka', quality: 'strong' };
}

function birthDate(node: Node): ListedDate | undefined {
  const type = text(node.TYPE_OF_DATE).toUpperCase();
  const date = text(node.DATE);
  const year = Number(text(node.YEAR));
  const from = Number(text(node.FROM_YEAR));
  const to = Number(text(node.TO_YEAR));
  if (type === 'BETWEEN' && from > 0 && to >= from) return { fromYear: from, toYear: to };
  if (/^\d{4}-\d{2}-\d{2}$/.test(date)) return type === 'APPROXIMATELY' ? { year: Number(date.slice(0, 4)), approximate: true } : { exact: date };
  if (year > 0) return type === 'APPROXIMATELY' ? { year, approximate: true } : { year };
  if (from > 0 && to >= from) return { fromYear: from, toYear: to };
  return undefined;
}

function document(node: Node): ListedDocument | undefined {
  const number = text(node.NUMBER);
  if (!number) return undefined;
  const type = text(node.TYPE_OF_DOCUMENT).toLowerCase();
  const country = countryCode(text(node.ISSUING_COUNTRY) || text(node.COUNTRY_OF_ISSUE));
  return { type: type.includes('passport') ? 'passport' : type.includes('identification') ? 'national_id' : type || 'document', number, ...(country ? { country } : {}) };
}

function person(node: Node): ListEntry {
  const nameParts = ['FIRST_NAME', 'SECOND_NAME', 'THIRD_NAME', 'FOURTH_NAME'].map((k) => text(node[k])).filter(Boolean);
  const names: ListedName[] = [{ full: nameParts.join(' '), kind: 'primary', quality: 'strong' }];
  const original = text(node.NAME_ORIGINAL_SCRIPT);
  if (original) names.push({ full: original, kind: 'original_script', quality: 'strong' });
  const dates: ListedDate[] = [];
  for (const alias of list(node.INDIVIDUAL_ALIAS)) {
    const name = aliasName(alias);
    if (name) names.push(name);
    const aliasDob = text(alias.DATE_OF_BIRTH);
    if (/^\d{4}$/.test(aliasDob)) dates.push({ year: Number(aliasDob) });
    else if (/^\d{4}-\d{2}-\d{2}$/.test(aliasDob)) dates.push({ exact: aliasDob });
  }
  for (const d of list(node.INDIVIDUAL_DATE_OF_BIRTH)) {
    const date = birthDate(d);
    if (date) dates.push(date);
  }
  const places = list(node.INDIVIDUAL_PLACE_OF_BIRTH)
    .map((p) => [p.CITY, p.STATE_PROVINCE, p.COUNTRY].map(text).filter(Boolean).join(', '))
    .filter(Boolean);
  const nationalities = [...new Set(values(node.NATIONALITY).map((v) => countryCode(v)).filter((c): c is string => !!c))];
  const gender = text(node.GENDER).toLowerCase();
  return {
    ...common(node, 'person'),
    names,
    datesOfBirth: dates,
    placesOfBirth: places,
    nationalities,
    ...(gender === 'male' || gender === 'female' ? { gender } : {}),
    documents: list(node.INDIVIDUAL_DOCUMENT)
      .map(document)
      .filter((d): d is ListedDocument => !!d),
  };
}

function entity(node: Node): ListEntry {
  const names: ListedName[] = [{ full: text(node.FIRST_NAME), kind: 'primary', quality: 'strong' }];
  for (const alias of list(node.ENTITY_ALIAS)) {
    const name = aliasName(alias);
    if (name) names.push(name);
  }
  return { ...common(node, 'entity'), names, datesOfBirth: [], placesOfBirth: [], nationalities: [], documents: [] };
}

function common(node: Node, kind: 'person' | 'entity'): Pick<ListEntry, 'list' | 'id' | 'reference' | 'kind' | 'programmes' | 'listedOn'> {
  const id = text(node.DATAID);
  if (!/^\d{1,12}$/.test(id)) throw new SnapshotFormatError(FILE, `an ${kind === 'person' ? 'INDIVIDUAL' : 'ENTITY'} without a numeric DATAID`);
  const listedOn = text(node.LISTED_ON);
  return {
    list: UN_SC,
    id,
    reference: text(node.REFERENCE_NUMBER) || id,
    kind,
    programmes: [text(node.UN_LIST_TYPE)].filter(Boolean),
    ...(listedOn ? { listedOn } : {}),
  };
}

/**
 * Parses one UN consolidated list. Refuses (SnapshotFormatError) a file that is not the UN's XML,
 * declares a DOCTYPE (entity expansion is never attempted), is beyond 100 MB or has no list date.
 */
export function parseUnConsolidated(xml: string): ListSnapshot {
  if (xml.length > MAX_CHARS) throw new SnapshotFormatError(FILE, `larger than ${MAX_CHARS} characters`);
  if (/<!DOCTYPE|<!ENTITY/i.test(xml.slice(0, 10_000))) throw new SnapshotFormatError(FILE, 'a DOCTYPE or ENTITY declaration: not the UN list');
  let doc: Node;
  try {
    const parser = new XMLParser({
      ignoreAttributes: false,
      attributeNamePrefix: '@',
      parseTagValue: false,
      parseAttributeValue: false,
      processEntities: true,
      isArray: (name) => ARRAYS.has(name),
    });
    doc = parser.parse(xml, true) as Node;
  } catch (error) {
    throw new SnapshotFormatError(FILE, `not well-formed XML (${(error as Error).message.split('\n')[0]})`);
  }
  const root = doc.CONSOLIDATED_LIST as Node | undefined;
  if (!root || typeof root !== 'object') throw new SnapshotFormatError(FILE, 'no CONSOLIDATED_LIST element');
  const generated = text(root['@dateGenerated']);
  if (!/^\d{4}-\d{2}-\d{2}/.test(generated)) throw new SnapshotFormatError(FILE, 'no dateGenerated on CONSOLIDATED_LIST');
  const individuals = list((root.INDIVIDUALS as Node | undefined)?.INDIVIDUAL);
  const entities = list((root.ENTITIES as Node | undefined)?.ENTITY);
  if (individuals.length + entities.length > MAX_ENTRIES) throw new SnapshotFormatError(FILE, `more than ${MAX_ENTRIES} entries`);
  return { list: UN_SC, asOf: generated.slice(0, 10), entries: [...individuals.map(person), ...entities.map(entity)] };
}
