import { withDecisions } from '../../domain/retention';
import { decisionStatus, evaluateRules, withResults } from '../../domain/rules';
import { DocumentStatus, documentStatusLabel } from '../../domain/status';
import { isCurrentRun } from '../../domain/transitions';
import type { Deps } from '../deps';
import { requireFlow } from '../load';
import { duplicateDocumentRule } from './duplicates';
import { duplicateFaceRule } from './face-duplicates';
import { livenessRule } from '../liveness-check';
import { ruleInput, ruleVersions } from './evaluation';
import { type RunItem, saveForRun, type TaskResult } from './run';
import { screeningRule } from './screening';

/** Evaluates the rules against the expected data and records the automatic document decision. */
export async function evaluateDocument(
  deps: Pick<Deps, 'verifications' | 'documents' | 'flows' | 'clock' | 'ids' | 'ruleThresholds' | 'documentIndex' | 'documentFingerprints' | 'faceIndex' | 'liveness' | 'faceLivenessSessions' | 'faceLivenessMinConfidence' | 'screener' | 'screenings'>,
  item: RunItem,
): Promise<TaskResult> {
  const agg = await deps.verifications.get(item.verificationId);
  const doc = agg?.documents.find((d) => d.id === item.documentId);
  if (!isCurrentRun(agg, item.run) || !doc) return { ...item, stale: true };
  // A retried task whose decision was already saved: never a second decision.
  if (doc.status !== DocumentStatus.Extracted) return { ...item, stale: false, status: documentStatusLabel(doc.status) };
  const flow = await requireFlow(deps, doc.flow);
  const now = deps.clock.now();
  const duplicates = [
    await duplicateDocumentRule(deps, agg, doc, flow, now),
    await duplicateFaceRule(deps, agg, doc, flow),
    await livenessRule(deps, doc, flow),
    await screeningRule(deps, agg, doc, flow),
  ].filter((r) => r !== undefined);
  const report = {
    // Without the other documents: the check across them waits for all of them (FinishRun, acrossDocumentsRevision).
    ...withResults(evaluateRules({ ...ruleInput(agg, doc, flow, now), others: [] }, deps.ruleThresholds), duplicates),
    versions: ruleVersions(deps.ruleThresholds, flow, doc.extractionInfo?.extractor ?? 'unknown'),
  };
  const status = decisionStatus(report.outcome);
  const next = {
    ...doc,
    status,
    rules: report,
    decisions: withDecisions(doc.decisions, [{ id: deps.ids.next('dec'), status, validation_workflow: 'automatic' as const, createdAt: now, updatedAt: now }]),
    updatedAt: now,
    version: doc.version + 1,
  };
  const saved = await saveForRun(deps, doc, next, item.run);
  return { ...item, stale: !saved, status: documentStatusLabel(status) };
}
