import type { DocumentRecord, VerificationAggregate } from '../../domain/entities';
import { DEFAULT_CHECKS, type Flow } from '../../domain/flow';
import type { RuleResult } from '../../domain/rules';
import type { Extraction } from '../../ports/extractor';
import type { FaceIndexEntry } from '../../ports/face-index';
import type { Deps } from '../deps';
import { DUPLICATE_LOOKUP_LIMIT, personOn, samePerson } from './duplicates';

/**
 * Descriptors compared per selfie: the flow's newest, one consistent Query (about 0.6 KB each, so
 * 1,000 ≈ 600 KB, one page; ~150 read units, a few ms of arithmetic). Older verifications are not
 * compared: past this size a vector index takes over (docs/explanation/fraud-signals.md).
 */
export const FACE_LOOKUP_LIMIT = 1000;

/** Euclidean distance of two descriptors of the same model. */
export function descriptorDistance(a: number[], b: number[]): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += ((a[i] ?? 0) - (b[i] ?? 0)) ** 2;
  return Math.sqrt(s);
}

const checksOf = (flow: Flow) => ({ ...DEFAULT_CHECKS, ...flow.checks });

/**
 * ExtractDocument's part: a selfie's descriptor goes to the flow's face index (replacing the
 * verification's earlier one) before the selfie is evaluated, so that of two verifications processed
 * at once at least one sees the other. Nothing when the check is off or the extractor gave none.
 */
export async function registerFace(deps: Pick<Deps, 'faceIndex'>, flow: Flow, doc: DocumentRecord, extraction: Extraction, now: string): Promise<void> {
  if (doc.contextType !== 'SELFIE' || !extraction.face || !checksOf(flow).duplicate_face) return;
  await deps.faceIndex.register({ flow: flow.path, verificationId: doc.verificationId, documentId: doc.id, model: extraction.face.model, descriptor: extraction.face.descriptor, createdAt: now });
}

const round3 = (x: number) => Math.round(x * 1000) / 1000;

/**
 * `duplicate.face` (1:N within the flow): the selfie's descriptor against the flow's newest
 * FACE_LOOKUP_LIMIT descriptors of the same model. A face closer than `checks.duplicate_face_max_distance`
 * on a verification of another person (another date of birth, or a name below the name review
 * threshold, as `duplicate.document` judges it, from each verification's photo ID) → review, naming
 * those verifications; the same person again passes. Undefined when the rule does not apply (not a
 * selfie, switched off); `not_evaluated` when the extractor gave no descriptor.
 */
export async function duplicateFaceRule(deps: Pick<Deps, 'faceIndex' | 'verifications' | 'ruleThresholds'>, agg: VerificationAggregate, doc: DocumentRecord, flow: Flow): Promise<RuleResult | undefined> {
  const checks = checksOf(flow);
  if (doc.contextType !== 'SELFIE' || !checks.duplicate_face) return undefined;
  const max = checks.duplicate_face_max_distance;
  const base = { name: 'duplicate.face', expected: 'no other person with this face in the flow', source: 'index', threshold: `distance < ${max}` };
  const mine = await deps.faceIndex.get(flow.path, agg.verification.id);
  if (!mine || mine.documentId !== doc.id || mine.descriptor.length === 0) {
    return { ...base, extracted: '', result: 'not_evaluated', reason: 'no face descriptor for this selfie (no face found, or the extractor gives none)' };
  }
  const near = (await deps.faceIndex.newest(flow.path, FACE_LOOKUP_LIMIT))
    .filter((e) => e.verificationId !== agg.verification.id && e.model === mine.model && e.descriptor.length === mine.descriptor.length)
    .map((e): [FaceIndexEntry, number] => [e, descriptorDistance(mine.descriptor, e.descriptor)])
    .filter(([, d]) => d < max)
    .sort((a, b) => a[1] - b[1])
    .slice(0, DUPLICATE_LOOKUP_LIMIT);
  const photoIdOf = (a: VerificationAggregate) => a.documents.find((d) => d.contextType === 'PHOTO_ID')?.extractedData ?? null;
  const me = personOn(photoIdOf(agg), agg);
  const others: [string, number][] = [];
  const same: [string, number][] = [];
  for (const [entry, d] of near) {
    const other = await deps.verifications.get(entry.verificationId);
    // Deleted since (its entry stays until the purge): nothing to compare with.
    if (!other) continue;
    (samePerson(me, personOn(photoIdOf(other), other), deps.ruleThresholds) ? same : others).push([entry.verificationId, d]);
  }
  if (others.length > 0) {
    const ids = others.map(([id]) => id);
    const closest = round3(others[0]?.[1] ?? 0);
    return { ...base, extracted: `${ids.length} other person(s)`, score: closest, result: 'review', other_verification_ids: ids, reason: `the same face (distance ${closest}) is on ${ids.join(', ')} with another name or date of birth` };
  }
  if (same.length > 0) {
    const ids = same.map(([id]) => id);
    return { ...base, extracted: 'same person', score: round3(same[0]?.[1] ?? 0), result: 'passed', other_verification_ids: ids, reason: `the same face is on ${ids.join(', ')}, same person` };
  }
  return { ...base, extracted: 'none', result: 'passed', reason: 'not seen on another verification of this flow' };
}
