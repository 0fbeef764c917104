import type { ExpectedData } from './entities';
import type { ContextType, FlowChecks } from './flow';

/**
 * The shapes the rules read and write: what an extractor read (extracted_data, readings), what a
 * rule answers, and a document's rules report. Types only (and the empty extraction): the rule
 * modules (rules.ts, consistency.ts, presentation.ts, age-estimate.ts) and the entities import them
 * from here, so that none of them imports another to reach its types.
 */

/** extracted_data: the spec's groups and keys, all strings. */
export interface ExtractedData {
  person: { surname: string; full_name: string; given_names: string; date_of_birth: string };
  address: { zip: string; city: string; full: string; state: string; street: string; country: string };
  document: {
    type: string;
    number: string;
    has_selfie: string;
    identified: string;
    country_code: string;
    country_name: string;
    issuing_entity: string;
    expiration_date: string;
    selfie_comparison: string;
  };
}

export function emptyExtractedData(): ExtractedData {
  return {
    person: { surname: '', full_name: '', given_names: '', date_of_birth: '' },
    address: { zip: '', city: '', full: '', state: '', street: '', country: '' },
    document: {
      type: '', number: '', has_selfie: '', identified: 'false', country_code: '', country_name: '',
      issuing_entity: '', expiration_date: '', selfie_comparison: '',
    },
  };
}

export type RuleOutcome = 'passed' | 'failed' | 'review';

/**
 * A rule's result. `not_evaluated`: the rule applies to this document but what it needs was not read
 * (e.g. no issue date on a proof of address): it decides nothing and says why in `reason`.
 */
export type RuleResultValue = RuleOutcome | 'not_evaluated';

/** Where a value a rule used was read. */
export type ReadingSource = 'mrz' | 'barcode' | 'printed' | 'ocr' | 'pdf_text' | 'face_model' | 'sandbox' | 'index';

export interface RuleResult {
  name: string;
  expected: string;
  extracted: string;
  result: RuleResultValue;
  reason: string;
  /** Added by the fraud and consistency rules (and the scored ones); absent on results stored before. */
  source?: string;
  /** The similarity or score the result was decided from (0..1, selfie 0..100). */
  score?: number;
  /** The limits the score was held against, e.g. `pass >= 0.92, review >= 0.75`. */
  threshold?: string;
  /** Duplicate rules: the other verifications where the same document or face was seen. */
  other_verification_ids?: string[];
  /** The flow requires this check (e.g. `checks.liveness: "required"`): not evaluated, it sends the document to review. */
  required?: true;
  /** `person.screening`: the strongest list entries the person matched (at most a few: the document item stays bounded). */
  hits?: RuleHit[];
}

/** A screening hit as a rule result carries it (the API's snake_case), with its clearance when a reviewer cleared it. */
export interface RuleHit {
  list: string;
  entry: string;
  reference: string;
  name: string;
  programmes: string[];
  score: number;
  reasons: string[];
  cleared?: { user: string; comment: string; created_at: string };
}

/** What a decision was made with: the rules' code version, the thresholds' digest and the extractor. */
export interface RuleVersions {
  rules: string;
  thresholds: string;
  extractor: string;
}

/** The `rules` object of a processed document. */
export interface RulesReport {
  outcome: RuleOutcome;
  results: RuleResult[];
  versions?: RuleVersions;
}

export interface RuleInput {
  context: ContextType;
  typeName: string;
  country: string;
  expected: ExpectedData;
  extracted: ExtractedData;
  /** Confidence 0..1 per dotted field path, when the extractor gives one. */
  confidence: Record<string, number>;
  /** The date the document is judged at (YYYY-MM-DD): the verification's submission, so that a replay judges as the run did. */
  today: string;
  /** The fraud and consistency checks of the flow (flows.json `checks`); none when absent. */
  checks?: FlowChecks;
  /** Values read per source (MRZ, barcode, printed text…), when the extractor reports them. */
  readings?: Reading[];
  /** The other documents of the verification already read: for the checks across documents. */
  others?: { context: ContextType; extracted: ExtractedData; confidence?: Record<string, number> }[];
}

/** One value as one source read it: `field` is a dotted extracted_data path or `document.issue_date`. */
export interface Reading {
  field: string;
  value: string;
  source: ReadingSource;
  /**
   * How far this source's value may be trusted (0..1), when the extractor says: a printed field read
   * under its label twice alike is trusted, a guess is not. A disagreement read below the rules'
   * min_confidence decides nothing (not_evaluated). Absent: trusted (check digits, a signed barcode).
   */
  confidence?: number;
}
