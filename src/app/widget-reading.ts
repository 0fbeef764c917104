import type { DocumentRecord } from '../domain/entities';
import type { ContextType } from '../domain/flow';
import type { ExtractedData, RuleThresholds } from '../domain/rules';
import type { Extraction } from '../ports/extractor';
import type { Deps } from './deps';

/** A field group of a document: read clearly (at or above the rules' `min_confidence`), read but unclear, or not found. */
export type GroupStatus = 'found' | 'unclear' | 'not_found';
export type ReadingGroup = 'name' | 'date_of_birth' | 'document_number' | 'expiration_date' | 'address';

/**
 * What the widget may say about a document read at upload (PreExtract, on DocumentUploaded): per
 * field group found / unclear / not found, never a value, since the person's phone may be shared.
 * - `pending`: not read yet (or the reading failed: the run that Submit starts reads it again);
 * - `read`: the groups below are what the pipeline will decide from;
 * - `after_submit`: never read before Submit (a selfie is compared with the photo ID by the run).
 */
export interface WidgetReading {
  state: 'pending' | 'read' | 'after_submit';
  /** The extractor recognised a document (`document.identified`); null until read. */
  recognised: boolean | null;
  /**
   * A photo ID's machine-readable zone or barcode: `valid` when the extractor says it read one (its
   * `readings` name the source) and every field read from it is clear, `unclear` when some is not,
   * `not_found` when it read none; null when not read yet, not a photo ID, or the extractor does not
   * say which source it read (the groups still say what was found).
   */
  machine_readable: 'valid' | 'unclear' | 'not_found' | null;
  fields: { group: ReadingGroup; status: GroupStatus }[];
}

/** The dotted paths of each group, by the context that has it (a proof of address shows name and address). */
const GROUPS: Partial<Record<ContextType, [ReadingGroup, string[]][]>> = {
  PHOTO_ID: [
    ['name', ['person.surname', 'person.given_names', 'person.full_name']],
    ['date_of_birth', ['person.date_of_birth']],
    ['document_number', ['document.number']],
    ['expiration_date', ['document.expiration_date']],
  ],
  PROOF_OF_ADDRESS: [
    ['name', ['person.full_name', 'person.surname', 'person.given_names']],
    ['address', ['address.full', 'address.street', 'address.city', 'address.zip']],
  ],
};

function valueAt(data: ExtractedData, path: string): string {
  const [group, key] = path.split('.') as [keyof ExtractedData, string];
  return (data[group] as Record<string, string> | undefined)?.[key] ?? '';
}

/** Clear: read with a confidence at or above the one the rules trust (no confidence reported: trusted, as the rules do). */
function clear(extraction: Extraction, path: string, t: RuleThresholds): boolean {
  return (extraction.confidence[path] ?? 1) >= t.min_confidence;
}

/** The groups and the machine-readable zone of one extraction, without a single value. Pure. */
export function summariseReading(context: ContextType, extraction: Extraction, t: RuleThresholds): Pick<WidgetReading, 'recognised' | 'machine_readable' | 'fields'> {
  const fields = (GROUPS[context] ?? []).map(([group, paths]) => {
    const read = paths.filter((p) => valueAt(extraction.data, p).trim() !== '');
    const status: GroupStatus = read.length === 0 ? 'not_found' : read.every((p) => clear(extraction, p, t)) ? 'found' : 'unclear';
    return { group, status };
  });
  let machine: WidgetReading['machine_readable'] = null;
  if (context === 'PHOTO_ID' && extraction.readings) {
    const zone = extraction.readings.filter((r) => r.source === 'mrz' || r.source === 'barcode');
    machine = zone.length === 0 ? 'not_found' : zone.every((r) => clear(extraction, r.field, t)) ? 'valid' : 'unclear';
  }
  return { recognised: extraction.data.document.identified === 'true', machine_readable: machine, fields };
}

/**
 * The upload-time reading of one of the session's documents, for the page to say in plain words
 * what was read before the person submits (and to offer a retake when it was not). Current only:
 * an extraction of other images (the document was replaced since) is `pending`.
 */
export async function documentReading(deps: Pick<Deps, 'extractionCache' | 'ruleThresholds'>, doc: DocumentRecord): Promise<WidgetReading> {
  const base = { recognised: null, machine_readable: null, fields: [] };
  // PreExtract reads only what the run can reuse (extraction.ts `extractionKey`): not a selfie, not images without hashes.
  const images = [doc.front.sha256, ...(doc.back ? [doc.back.sha256] : [])];
  if (doc.contextType === 'SELFIE' || images.some((h) => !h)) return { ...base, state: 'after_submit' };
  const latest = await deps.extractionCache.latest(doc.id);
  if (!latest || latest.images.join(',') !== images.join(',')) return { ...base, state: 'pending' };
  return { state: 'read', ...summariseReading(doc.contextType, latest.extraction, deps.ruleThresholds) };
}
