import type { DocumentRecord } from '../domain/entities';
import type { Flow } from '../domain/flow';
import { decisionStatus, evaluateRules, type RuleResultValue, withResults } from '../domain/rules';
import { VerificationStatus, documentStatusLabel, verificationStatusLabel } from '../domain/status';
import { automaticOutcome, SYSTEM_USER } from '../domain/transitions';
import type { Deps } from './deps';
import { ruleInput } from './workflow/evaluation';

/** One rule whose result a replay changes. */
export interface RuleChange {
  document: string;
  rule: string;
  before: RuleResultValue | null;
  after: RuleResultValue | null;
}

/** A stored verification evaluated again with the rules and thresholds of now. */
export interface ReplayResult {
  verificationId: string;
  /** The automatic decision recorded by its last run. */
  recorded: string;
  /** The decision the rules of now lead to. */
  replayed: string;
  changed: boolean;
  documents: { id: string; context: string; before: string; after: string }[];
  rules: RuleChange[];
}

const DECIDED: readonly VerificationStatus[] = [VerificationStatus.Approved, VerificationStatus.Rejected, VerificationStatus.DoubleCheck];

/**
 * Re-runs the evaluation of a processed verification from what is stored (the extraction, the expected
 * data, the submission date) with the thresholds and flow checks given, and says which decisions would
 * change: a backtest before a rule change ships. Nothing is written. The duplicate rules and the screening
 * are taken as recorded (they depend on what the index and the lists held then); extraction is not redone. Undefined when the
 * verification has no automatic decision to compare with.
 */
export async function replayVerification(deps: Pick<Deps, 'verifications' | 'flows' | 'ruleThresholds' | 'clock'>, id: string): Promise<ReplayResult | undefined> {
  const agg = await deps.verifications.get(id);
  if (!agg) return undefined;
  const recorded = [...agg.history].reverse().find((h) => h.user === SYSTEM_USER && DECIDED.includes(h.toStatus));
  const flow = await deps.flows.get(agg.verification.flow);
  if (!recorded || !flow || agg.documents.some((d) => d.rules === null)) return undefined;
  const now = deps.clock.now();
  const rules: RuleChange[] = [];
  const replayed: DocumentRecord[] = agg.documents.map((doc) => {
    const kept = (doc.rules?.results ?? []).filter((r) => r.name.startsWith('duplicate.') || r.name === 'person.screening');
    const report = withResults(evaluateRules(ruleInput(agg, doc, flow as Flow, now), deps.ruleThresholds), kept);
    const before = new Map((doc.rules?.results ?? []).map((r) => [r.name, r.result]));
    const after = new Map(report.results.map((r) => [r.name, r.result]));
    for (const name of new Set([...before.keys(), ...after.keys()])) {
      if (before.get(name) !== after.get(name)) rules.push({ document: doc.id, rule: name, before: before.get(name) ?? null, after: after.get(name) ?? null });
    }
    return { ...doc, status: decisionStatus(report.outcome), rules: report };
  });
  const status = automaticOutcome(flow, replayed).status;
  const documents = agg.documents.map((d, i) => ({
    id: d.id,
    context: d.contextType,
    before: documentStatusLabel(decisionStatus(d.rules?.outcome ?? 'review')),
    after: documentStatusLabel((replayed[i] as DocumentRecord).status),
  }));
  return {
    verificationId: id,
    recorded: verificationStatusLabel(recorded.toStatus),
    replayed: verificationStatusLabel(status),
    changed: status !== recorded.toStatus,
    documents,
    rules,
  };
}

/** Every processed verification of a flow, newest first, replayed (at most `limit`). */
export async function replayFlow(deps: Pick<Deps, 'verifications' | 'flows' | 'ruleThresholds' | 'clock'>, flow: string, limit = 1000): Promise<ReplayResult[]> {
  const out: ReplayResult[] = [];
  for (let page = 1; out.length < limit; page++) {
    const { items } = await deps.verifications.list({ flow }, page, 100);
    for (const v of items) {
      const r = await replayVerification(deps, v.id);
      if (r) out.push(r);
    }
    if (items.length < 100) break;
  }
  return out;
}
