import type { DocumentRecord, HistoryEntry, Verification } from '../domain/entities';
import { InvalidStateError, ValidationError } from '../domain/errors';
import { keepComments } from '../domain/retention';
import { type RuleHit, type RuleResult, withResults } from '../domain/rules';
import { VerificationStatus } from '../domain/status';
import type { Actor } from '../domain/transitions';
import type { ScreeningStore } from '../ports/screening-store';
import { changeContext } from './change-context';
import type { Deps, RequestInfo } from './deps';
import { loadVerification, withConflictRetry } from './load';
import { actedBy, type PresentDeps, presentWithDocuments } from './verification-actions';
import { SCREENING_RULE } from './workflow/screening';

/** What a reviewer clears: one list entry of a hit, with the comment and e-mail every manual action carries. */
export interface ClearHitInput extends Actor {
  list: string;
  entry: string;
}

/** No event: a clearance changes no status (VerificationFinished is for decisions). */
export type ClearHitDeps = Pick<Deps, 'flows' | 'verifications' | 'clock' | 'ids' | 'screenings'> & PresentDeps;

function store(deps: Pick<Deps, 'screenings'>): ScreeningStore {
  if (!deps.screenings) throw new Error("port 'screenings' is not given: declare it in the route (src/http/routes.ts)");
  return deps.screenings;
}

/** The photo ID's `person.screening` result with the hit marked cleared, its result and the report's outcome recomputed. */
function markCleared(doc: DocumentRecord, input: ClearHitInput, at: string, now: string): DocumentRecord | undefined {
  const rules = doc.rules;
  const result = rules?.results.find((r) => r.name === SCREENING_RULE);
  if (!rules || !result?.hits?.some((h) => h.list === input.list && h.entry === input.entry)) return undefined;
  const hits: RuleHit[] = result.hits.map((h) => (h.list === input.list && h.entry === input.entry ? { ...h, cleared: { user: input.email, comment: input.comment, created_at: at } } : h));
  const open = hits.filter((h) => !h.cleared);
  const next: RuleResult =
    open.length > 0 || result.result !== 'review'
      ? { ...result, hits }
      : { ...result, hits, result: 'passed', reason: `every hit at or above the threshold was cleared by a reviewer (${hits.map((h) => `${h.list} ${h.entry} cleared by ${h.cleared?.user ?? ''}`).join('; ')})` };
  const report = { ...withResults({ ...rules, results: rules.results.filter((r) => r !== result) }, [next]), ...(rules.versions && { versions: rules.versions }) };
  // The document's status is left as it is: a reviewer still decides (approve, reject), as after any review.
  return { ...doc, rules: report, updatedAt: now, version: doc.version + 1 };
}

/**
 * Clears a screening hit on one verification (not in the spec: an addition, like the receipt). The
 * entry must be a hit of this verification: on its photo ID's `person.screening` result, or one a
 * re-screen alerted on (ScreeningHit). The clearance is kept per verification and entry, so a re-run
 * or a re-screen does not raise that entry again there (another entry still does), and it is recorded
 * in history (the verification's status unchanged) with the reviewer's comment, in one transaction.
 */
export async function clearScreeningHit(deps: ClearHitDeps, req: RequestInfo, flowPath: string, id: string, input: ClearHitInput) {
  const screenings = store(deps);
  return withConflictRetry(async () => {
    const { flow, aggregate } = await loadVerification(deps, flowPath, id);
    const v = aggregate.verification;
    if (v.status === VerificationStatus.Canceled) throw new InvalidStateError('Verification is canceled');
    const ctx = changeContext(deps);
    const photo = aggregate.documents.find((d) => d.contextType === 'PHOTO_ID');
    const document = photo ? markCleared(photo, input, ctx.now, ctx.now) : undefined;
    const alerted = document ? true : (await screenings.alerts(id)).some((a) => a.list === input.list && a.entry === input.entry);
    if (!alerted) throw new ValidationError({ entry: [`is not a screening hit of this verification on list ${input.list}`] });
    const actor = actedBy(req, input);
    const text = `Screening hit cleared (${input.list} entry ${input.entry}): ${input.comment}`;
    const history: HistoryEntry = {
      id: ctx.newId('hist'),
      fromStatus: v.status,
      toStatus: v.status,
      user: actor.email,
      ...(actor.token !== undefined && { token: actor.token }),
      comment: text,
      createdAt: ctx.now,
      changedFields: [],
    };
    const verification: Verification = {
      ...v,
      updatedAt: ctx.now,
      version: v.version + 1,
      comments: keepComments([...v.comments, { id: ctx.newId('cmt'), content: text, status: v.status, private: false, createdAt: ctx.now }]),
    };
    await screenings.clear({
      clearance: { list: input.list, entry: input.entry, user: actor.email, comment: input.comment, createdAt: ctx.now },
      verification,
      expectedVersion: v.version,
      ...(document && { document }),
      history,
    });
    const documents = aggregate.documents.map((d) => (document && d.id === document.id ? document : d));
    return presentWithDocuments(deps, req, flow, { verification, documents, history: [...aggregate.history, history] });
  });
}
