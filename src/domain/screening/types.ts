/**
 * Sanctions screening: what a list entry, a screened person and a hit are, shared by the list
 * parsers (src/adapters/screening), the matcher (this folder), the pipeline rule and the batch
 * command. Pure data: no I/O.
 */

/** A list as the loader names it: one parser each (`ofac-sdn`, `un-sc`; later `eu-fsf`, `uk-ofsi`). */
export type ListId = string;

/** What kind of subject an entry is: only persons are screened against people. */
export type SubjectKind = 'person' | 'entity' | 'vessel' | 'aircraft';

/**
 * One name an entry is known by, as the list marks it: the primary name, a strong alias (a.k.a.,
 * f.k.a., the UN's "good quality") or a weak one (OFAC's "weak a.k.a.", the UN's "low quality"),
 * which alone never makes a hit strong.
 */
export interface ListedName {
  /** The name as printed by the list, in its own script. */
  full: string;
  /** Its parts when the list gives them apart (UN FIRST_NAME…FOURTH_NAME; OFAC "LAST, First"): family name first when known. */
  parts?: { given?: string[]; family?: string[] };
  kind: 'primary' | 'aka' | 'fka' | 'original_script';
  quality: 'strong' | 'weak';
}

/** A date of birth as lists give them: exact, a month, a year, or a range of years (UN BETWEEN, OFAC "circa", "1960 to 1962"). */
export type ListedDate = { exact: string } | { month: string } | { year: number; approximate?: boolean } | { fromYear: number; toYear: number };

/** An identity document the list records (a passport number is strong evidence). */
export interface ListedDocument {
  type: string;
  number: string;
  /** ISO 3166-1 alpha-2 of the issuer, when the list says it. */
  country?: string;
}

export interface ListEntry {
  list: ListId;
  /** The publisher's identifier (OFAC ent_num, UN DATAID), stable across snapshots: a cleared hit is kept per entry. */
  id: string;
  /** The publisher's reference shown to a reviewer (UN REFERENCE_NUMBER; OFAC ent_num). */
  reference: string;
  kind: SubjectKind;
  names: ListedName[];
  datesOfBirth: ListedDate[];
  placesOfBirth: string[];
  /** ISO 3166-1 alpha-2 codes of nationalities and citizenships. */
  nationalities: string[];
  gender?: 'male' | 'female';
  documents: ListedDocument[];
  /** Sanctions programmes (OFAC SDGT, IRAN…; UN list type Al-Qaida, Taliban…). */
  programmes: string[];
  listedOn?: string;
}

/** A parsed snapshot of one list. */
export interface ListSnapshot {
  list: ListId;
  /** The publisher's date of the snapshot (ISO date), or the date it was taken when the publisher gives none. */
  asOf: string;
  entries: ListEntry[];
}

/** Who is screened: any part may be missing; names in any script. */
export interface ScreenedPerson {
  fullName?: string;
  firstName?: string;
  middleName?: string;
  lastName?: string;
  gender?: 'male' | 'female';
  /** YYYY, YYYY-MM or YYYY-MM-DD. */
  dateOfBirth?: string;
  placeOfBirth?: string;
  /** ISO 3166-1 alpha-2. */
  nationality?: string;
  documentNumbers?: string[];
}

/** One candidate entry and why it scored what it did. */
export interface ScreeningHit {
  list: ListId;
  entry: string;
  reference: string;
  /** The listed name that matched best. */
  name: string;
  programmes: string[];
  /** 0..1 after qualifiers. */
  score: number;
  /** Human-readable, one per effect: which name parts matched how, which qualifiers moved the score and by how much. */
  reasons: string[];
}

/** The outcome of screening one person: `not_evaluated` whenever a list needed is missing or stale (fail closed). */
export type ScreeningResult =
  | { status: 'screened'; lists: { list: ListId; asOf: string }[]; best: number; hits: ScreeningHit[] }
  | { status: 'not_evaluated'; reason: 'stale_list' | 'missing_list'; lists: { list: ListId; asOf: string }[]; message: string };

/** What a flow asks of screening (config/flows.json `checks.screening`). */
export interface ScreeningPolicy {
  lists: ListId[];
  /** A hit at or above it sends the verification to review (Double Check). */
  threshold: number;
  /** A snapshot older than this many days makes the result `not_evaluated`. */
  maxAgeDays: number;
}

/**
 * Entries that are new or changed between two snapshots of a list (diffSnapshots): what a re-screen
 * passes over once. Same shape as the port's ListChanges (src/ports/screening.ts), here so that the
 * domain does not import the ports.
 */
export interface ListChanges {
  list: ListId;
  asOf: string;
  changed: ListEntry[];
}
