import { createHash } from 'node:crypto';
import type { DocumentRecord, VerificationAggregate } from '../../domain/entities';
import { DEFAULT_CHECKS, type Flow, findTypeById } from '../../domain/flow';
import { emptyExtractedData, type RuleInput, type RuleThresholds, type RuleVersions, RULES_VERSION } from '../../domain/rules';

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
