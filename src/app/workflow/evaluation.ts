import { withDecisions } from '../../domain/retention';
import { createHash } from 'node:crypto';
import { ACROSS_DOCUMENTS, nameAcrossDocuments } from '../../domain/consistency';
import type { DocumentRecord, VerificationAggregate } from '../../domain/entities';
import { DEFAULT_CHECKS, type Flow, findTypeById } from '../../domain/flow';
import { AGE_RULES, selfieAgeRules } from '../../domain/age-estimate';
import { decisionStatus, emptyExtractedData, type RuleInput, type RuleResult, type RuleThresholds, type RuleVersions, RULES_VERSION, withResults } from '../../domain/rules';
import type { ChangeContext } from '../../domain/transitions';

/**
 * What the rules of one document are evaluated from: the stored extraction, the verification's
 * expected data, the flow's checks and the other documents already read. Shared by the pipeline
 * (EvaluateDocument) and the replay, so that a replay judges exactly as a run does. Documents are
 * judged at the submission date, so a replay months later does not find them expired.
 */
export function ruleInput(agg: VerificationAggregate, doc: DocumentRecord, flow: Flow, now: string): RuleInput {
  return {
    context: doc.contextType,
    typeName: findTypeById(flow, doc.typeId)?.name ?? '',
    country: doc.country,
    expected: agg.verification.expectedData,
    extracted: doc.extractedData ?? emptyExtractedData(),
    confidence: doc.extractionConfidence ?? {},
    today: (agg.verification.submittedAt ?? now).slice(0, 10),
    checks: flow.checks ?? DEFAULT_CHECKS,
    readings: doc.extractionInfo?.readings ?? [],
    others: agg.documents
      .filter((d) => d.id !== doc.id && d.extractedData)
      .map((d) => ({ context: d.contextType, extracted: d.extractedData ?? emptyExtractedData(), confidence: d.extractionConfidence ?? {} })),
  };
}

/** The versions a decision was made with: the rules' code, a digest of the thresholds and the flow's checks, the extractor. */
export function ruleVersions(thresholds: RuleThresholds, flow: Flow, extractor: string): RuleVersions {
  const digest = createHash('sha256').update(JSON.stringify({ thresholds, checks: flow.checks ?? DEFAULT_CHECKS })).digest('hex');
  return { rules: RULES_VERSION, thresholds: `sha256:${digest.slice(0, 16)}`, extractor };
}

/**
 * The checks across documents, evaluated once every document of the run is read and judged: by
 * FinishRun, so that the result does not depend on which document finished first. The photo ID's name
 * against the proof of address's is recorded on the proof of address; the selfie's age estimate
 * against the photo ID's date of birth on the selfie (as a replay evaluates them). When a result
 * changes a document's outcome, its automatic decision follows. Answers the documents to write: none
 * when the checks are off, a document is missing or was not judged, or the stored results are
 * already these (a retried FinishRun).
 */
export function acrossDocumentsRevision(agg: VerificationAggregate, flow: Flow, t: RuleThresholds, ctx: ChangeContext): DocumentRecord[] {
  const checks = flow.checks ?? DEFAULT_CHECKS;
  const photo = agg.documents.find((d) => d.contextType === 'PHOTO_ID');
  if (!photo?.extractedData) return [];
  const poa = agg.documents.find((d) => d.contextType === 'PROOF_OF_ADDRESS');
  const selfie = agg.documents.find((d) => d.contextType === 'SELFIE');
  const today = (agg.verification.submittedAt ?? ctx.now).slice(0, 10);
  const photoRead = { extracted: photo.extractedData, confidence: photo.extractionConfidence ?? {} };
  return [
    poa && checks.cross_source && poa.extractedData ? revised(poa, [ACROSS_DOCUMENTS], [nameAcrossDocuments(photo.extractedData, poa.extractedData, t)], ctx) : undefined,
    selfie?.extractedData ? revised(selfie, AGE_RULES, selfieAgeRules(selfie.extractionConfidence ?? {}, photoRead, today, checks, t), ctx) : undefined,
  ].filter((d): d is DocumentRecord => d !== undefined);
}

/** A judged document with the results named replaced by these: undefined when it was not judged or already holds exactly them. */
function revised(doc: DocumentRecord, names: string[], results: RuleResult[], ctx: ChangeContext): DocumentRecord | undefined {
  if (!doc.rules) return undefined;
  const stored = doc.rules.results.filter((r) => names.includes(r.name));
  if (JSON.stringify(stored) === JSON.stringify(results)) return undefined;
  const rules = { ...withResults({ ...doc.rules, results: doc.rules.results.filter((r) => !names.includes(r.name)) }, results), versions: doc.rules.versions };
  // The automatic decision follows the new outcome; a status set otherwise (by a reviewer) is left alone.
  const automatic = doc.status === decisionStatus(doc.rules.outcome);
  const status = automatic ? decisionStatus(rules.outcome) : doc.status;
  const decided = status !== doc.status ? [{ id: ctx.newId('dec'), status, validation_workflow: 'automatic' as const, createdAt: ctx.now, updatedAt: ctx.now }] : [];
  return { ...doc, rules, status, decisions: withDecisions(doc.decisions, decided), updatedAt: ctx.now, version: doc.version + 1 };
}
