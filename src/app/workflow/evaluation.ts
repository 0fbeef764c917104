import { withDecisions } from '../../domain/retention';
import { createHash } from 'node:crypto';
import { ACROSS_DOCUMENTS, nameAcrossDocuments } from '../../domain/consistency';
import type { DocumentRecord, VerificationAggregate } from '../../domain/entities';
import { DEFAULT_CHECKS, type Flow, findTypeById } from '../../domain/flow';
import { decisionStatus, emptyExtractedData, type RuleInput, type RuleThresholds, type RuleVersions, RULES_VERSION, withResults } from '../../domain/rules';
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
    others: agg.documents.filter((d) => d.id !== doc.id && d.extractedData).map((d) => ({ context: d.contextType, extracted: d.extractedData ?? emptyExtractedData() })),
  };
}

/** The versions a decision was made with: the rules' code, a digest of the thresholds and the flow's checks, the extractor. */
export function ruleVersions(thresholds: RuleThresholds, flow: Flow, extractor: string): RuleVersions {
  const digest = createHash('sha256').update(JSON.stringify({ thresholds, checks: flow.checks ?? DEFAULT_CHECKS })).digest('hex');
  return { rules: RULES_VERSION, thresholds: `sha256:${digest.slice(0, 16)}`, extractor };
}

/**
 * The check across documents (the photo ID's name against the proof of address's), evaluated once
 * every document of the run is read and judged: by FinishRun, so that the result does not depend on
 * which document finished first. Recorded on the proof of address (as a replay evaluates it); when it
 * changes that document's outcome, the document's automatic decision follows. Answers the documents
 * to write: none when the rule is off, a document is missing or was not judged, or the stored result
 * is already this one (a retried FinishRun).
 */
export function acrossDocumentsRevision(agg: VerificationAggregate, flow: Flow, t: RuleThresholds, ctx: ChangeContext): DocumentRecord[] {
  if (!(flow.checks ?? DEFAULT_CHECKS).cross_source) return [];
  const poa = agg.documents.find((d) => d.contextType === 'PROOF_OF_ADDRESS');
  const photo = agg.documents.find((d) => d.contextType === 'PHOTO_ID');
  if (!poa?.rules || !poa.extractedData || !photo?.extractedData) return [];
  const result = nameAcrossDocuments(photo.extractedData, poa.extractedData, t);
  const stored = poa.rules.results.find((r) => r.name === ACROSS_DOCUMENTS);
  if (stored && JSON.stringify(stored) === JSON.stringify(result)) return [];
  const rules = { ...withResults({ ...poa.rules, results: poa.rules.results.filter((r) => r.name !== ACROSS_DOCUMENTS) }, [result]), versions: poa.rules.versions };
  // The automatic decision follows the new outcome; a status set otherwise (by a reviewer) is left alone.
  const automatic = poa.status === decisionStatus(poa.rules.outcome);
  const status = automatic ? decisionStatus(rules.outcome) : poa.status;
  const decided = status !== poa.status ? [{ id: ctx.newId('dec'), status, validation_workflow: 'automatic' as const, createdAt: ctx.now, updatedAt: ctx.now }] : [];
  return [{ ...poa, rules, status, decisions: withDecisions(poa.decisions, decided), updatedAt: ctx.now, version: poa.version + 1 }];
}
