import type { DocumentRecord, VerificationAggregate } from '../../domain/entities';
import { DEFAULT_CHECKS, type Flow, findTypeById } from '../../domain/flow';
import { type ExtractedData, type RuleResult, type RuleThresholds, similarity } from '../../domain/rules';
import type { Deps } from '../deps';

/** Other verifications looked at per document: the index query's bound. */
export const DUPLICATE_LOOKUP_LIMIT = 25;

/**
 * What a document fingerprint is made of: type, issuing country and number (upper case, letters and
 * digits only). Only its keyed HMAC (the `documentFingerprints` port: a KMS HMAC key deployed, a key
 * file locally; never the session secret) is stored, so the number never appears in the index.
 */
export function documentFingerprintMessage(type: string, country: string, number: string): string {
  return [type.toUpperCase(), country.toUpperCase(), number.toUpperCase().replace(/[^A-Z0-9]/g, '')].join('|');
}

export interface Person {
  name: string;
  dateOfBirth: string;
}

export function personOn(x: ExtractedData | null, agg: VerificationAggregate): Person {
  const name = x ? x.person.full_name || `${x.person.given_names} ${x.person.surname}`.trim() : '';
  const expected = agg.verification.expectedData.person;
  return {
    name: name || `${expected.first_name} ${expected.last_name}`.trim(),
    dateOfBirth: x?.person.date_of_birth || expected.date_of_birth,
  };
}

/**
 * Another person: another date of birth (when both are known), or a name clearly different (below the
 * name review threshold, the bar under which a name rule fails). A near name on the same document is
 * far likelier a misread than another holder, and the name rules already review it.
 */
export function samePerson(a: Person, b: Person, t: RuleThresholds): boolean {
  if (a.dateOfBirth && b.dateOfBirth && a.dateOfBirth !== b.dateOfBirth) return false;
  return similarity(a.name, b.name) >= t.name.review;
}

/**
 * `duplicate.document`: the photo ID's type, issuing country and number, as a keyed fingerprint,, looked
 * up among the flow's other verifications. The verification registers itself before it looks, so of two
 * verifications processed at once at least one sees the other (consistent reads). Another person with
 * the same document goes to review, naming the other verifications; the same person again passes, and
 * says where. Undefined when the rule does not apply (not a photo ID, no number read, switched off).
 */
export async function duplicateDocumentRule(
  deps: Pick<Deps, 'documentIndex' | 'verifications' | 'documentFingerprints' | 'ruleThresholds'>,
  agg: VerificationAggregate,
  doc: DocumentRecord,
  flow: Flow,
  now: string,
): Promise<RuleResult | undefined> {
  if (doc.contextType !== 'PHOTO_ID' || !(flow.checks ?? DEFAULT_CHECKS).duplicate_document) return undefined;
  const x = doc.extractedData;
  const expected = 'no other person with this document in the flow';
  // A document that could not be read fails on that alone (document.identified).
  if (!x || x.document.identified !== 'true') return undefined;
  if (x.document.number === '') return { name: 'duplicate.document', expected, extracted: '', result: 'not_evaluated', reason: 'no document number read' };
  const type = findTypeById(flow, doc.typeId)?.name ?? String(doc.typeId);
  const fingerprint = await deps.documentFingerprints.fingerprint(documentFingerprintMessage(type, x.document.country_code || doc.country, x.document.number));
  await deps.documentIndex.register({ flow: flow.path, fingerprint, verificationId: agg.verification.id, documentId: doc.id, createdAt: now });
  const seen = (await deps.documentIndex.find(flow.path, fingerprint, DUPLICATE_LOOKUP_LIMIT + 1)).filter((e) => e.verificationId !== agg.verification.id);
  const me = personOn(x, agg);
  const others: string[] = [];
  const same: string[] = [];
  for (const entry of seen.slice(0, DUPLICATE_LOOKUP_LIMIT)) {
    const other = await deps.verifications.get(entry.verificationId);
    // Deleted since (its index entry outlives it until purged): nothing to compare with.
    if (!other) continue;
    const otherDoc = other.documents.find((d) => d.id === entry.documentId);
    (samePerson(me, personOn(otherDoc?.extractedData ?? null, other), deps.ruleThresholds) ? same : others).push(entry.verificationId);
  }
  const base = { name: 'duplicate.document', expected, source: 'index' };
  if (others.length > 0) {
    return { ...base, extracted: `${others.length} other person(s)`, result: 'review', other_verification_ids: others, reason: `the same document (type, country, number) is on ${others.join(', ')} with another name or date of birth` };
  }
  if (same.length > 0) return { ...base, extracted: 'same person', result: 'passed', other_verification_ids: same, reason: `the same document is on ${same.join(', ')}, same person` };
  return { ...base, extracted: 'none', result: 'passed', reason: 'not seen on another verification of this flow' };
}
