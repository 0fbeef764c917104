import { countryByIso3 } from '../../domain/countries';
import type { DocumentRecord, VerificationAggregate } from '../../domain/entities';
import type { Flow } from '../../domain/flow';
import { normalizeName, type RuleHit, type RuleResult } from '../../domain/rules';
import type { ScreenedPerson, ScreeningHit, ScreeningPolicy, ScreeningResult } from '../../domain/screening/types';
import { logger } from '../../logger';
import type { ScreeningClearance } from '../../ports/screening-store';
import type { Deps } from '../deps';

/** The rule's name (docs/reference/rules-and-reasons.md). */
export const SCREENING_RULE = 'person.screening';
/** Hits kept on the rule result: the strongest, so that the result (and the document item) stays bounded whatever the lists hold. */
export const HITS_KEPT = 5;
/** Reasons kept per hit, and characters per reason. */
const REASONS_KEPT = 10;
const REASON_CHARS = 300;

/** The flow's screening policy, or undefined when the flow does not screen. */
export function screeningPolicy(flow: Flow): (ScreeningPolicy & { rescreen: boolean }) | undefined {
  const s = flow.checks?.screening;
  return s ? { lists: [...s.lists], threshold: s.threshold, maxAgeDays: s.max_age_days, rescreen: s.rescreen } : undefined;
}

const iso2Of = (iso3: string): string | undefined => (iso3 ? countryByIso3(iso3.toUpperCase())?.iso2 : undefined);
const present = <T extends object>(o: T): T => Object.fromEntries(Object.entries(o).filter(([, x]) => x !== undefined && x !== '' && !(Array.isArray(x) && x.length === 0))) as T;

/**
 * Who is screened for a photo ID: the person as read on it (names, date of birth, nationality from
 * the issuing country, the document number), and the person as expected when the name or the date of
 * birth differs (a misread must not hide a listed person, nor a wrong expectation hide the holder).
 */
export function peopleToScreen(agg: VerificationAggregate, doc: DocumentRecord): ScreenedPerson[] {
  const x = doc.extractedData;
  const e = agg.verification.expectedData;
  const read: ScreenedPerson | undefined = x
    ? present({
        firstName: x.person.given_names || undefined,
        lastName: x.person.surname || undefined,
        fullName: x.person.full_name || undefined,
        dateOfBirth: x.person.date_of_birth || undefined,
        nationality: iso2Of(x.document.country_code || doc.country),
        documentNumbers: x.document.number ? [x.document.number] : undefined,
      })
    : undefined;
  const expected: ScreenedPerson = present({
    firstName: e.person.first_name || undefined,
    lastName: e.person.last_name || undefined,
    dateOfBirth: e.person.date_of_birth || undefined,
    nationality: iso2Of(e.documents.photo_id.country),
    documentNumbers: e.documents.photo_id.number ? [e.documents.photo_id.number] : undefined,
  });
  const hasName = (p: ScreenedPerson | undefined) => p !== undefined && Boolean(p.fullName || p.firstName || p.lastName);
  if (!hasName(read)) return hasName(expected) ? [expected] : [];
  const nameOf = (p: ScreenedPerson) => normalizeName(p.fullName || `${p.firstName ?? ''} ${p.lastName ?? ''}`);
  const r = read as ScreenedPerson;
  const differs = hasName(expected) && (nameOf(r) !== nameOf(expected) || (expected.dateOfBirth !== undefined && expected.dateOfBirth !== r.dateOfBirth));
  return differs ? [r, expected] : [r];
}

/** Each entry once, at its best score across the people screened, strongest first. */
export function mergeHits(results: readonly ScreeningHit[][]): ScreeningHit[] {
  const best = new Map<string, ScreeningHit>();
  for (const hit of results.flat()) {
    const key = `${hit.list}#${hit.entry}`;
    const seen = best.get(key);
    if (!seen || hit.score > seen.score) best.set(key, hit);
  }
  return [...best.values()].sort((a, b) => b.score - a.score || a.list.localeCompare(b.list) || a.entry.localeCompare(b.entry));
}

function ruleHit(hit: ScreeningHit, clearance: ScreeningClearance | undefined): RuleHit {
  return {
    list: hit.list,
    entry: hit.entry,
    reference: hit.reference,
    name: hit.name,
    programmes: hit.programmes.slice(0, 10),
    score: Number(hit.score.toFixed(4)),
    reasons: hit.reasons.slice(0, REASONS_KEPT).map((r) => r.slice(0, REASON_CHARS)),
    ...(clearance && { cleared: { user: clearance.user, comment: clearance.comment, created_at: clearance.createdAt } }),
  };
}

const describe = (h: RuleHit) => `${h.name} on ${h.list} (entry ${h.entry}, ${h.reference}${h.programmes.length ? `; ${h.programmes.join(', ')}` : ''}) scores ${h.score}`;
const listsOf = (r: ScreeningResult) => r.lists.map((l) => `${l.list} as of ${l.asOf}`).join(', ');

/**
 * The rule from the screening results of the people screened and the verification's clearances: a
 * hit at or above the threshold not cleared → review (Double Check), naming entry, list, programmes,
 * score and reasons; never a rejection. Any list missing or stale → not evaluated and `required`, which
 * also sends to review (fail closed). Cleared hits stay on the result, marked, and decide nothing.
 */
export function screeningResult(policy: ScreeningPolicy, results: readonly ScreeningResult[], clearances: readonly ScreeningClearance[]): RuleResult {
  const base = { name: SCREENING_RULE, expected: `no listed person at or above ${policy.threshold} (${policy.lists.join(', ')})`, source: 'screening', threshold: `review >= ${policy.threshold}` };
  const unscreened = results.find((r) => r.status === 'not_evaluated');
  if (unscreened?.status === 'not_evaluated') {
    return { ...base, extracted: unscreened.reason, result: 'not_evaluated', required: true, reason: unscreened.message };
  }
  const screened = results.filter((r): r is Extract<ScreeningResult, { status: 'screened' }> => r.status === 'screened');
  const all = mergeHits(screened.map((r) => r.hits));
  const best = all[0]?.score ?? Math.max(0, ...screened.map((r) => r.best));
  const cleared = new Map(clearances.map((c) => [`${c.list}#${c.entry}`, c]));
  const hits = all.filter((h) => h.score >= policy.threshold).slice(0, HITS_KEPT).map((h) => ruleHit(h, cleared.get(`${h.list}#${h.entry}`)));
  const open = hits.filter((h) => !h.cleared);
  const against = screened[0] ? listsOf(screened[0]) : policy.lists.join(', ');
  const score = Number(best.toFixed(4));
  if (open.length > 0) {
    const top = open[0] as RuleHit;
    return {
      ...base,
      extracted: `${open.length} hit(s): ${describe(top)}`,
      result: 'review',
      reason: `${describe(top)}: ${top.reasons.join('; ')}`,
      score,
      hits,
    };
  }
  if (hits.length > 0) {
    const names = hits.map((h) => `${h.list} ${h.entry} cleared by ${h.cleared?.user ?? ''}`).join('; ');
    return { ...base, extracted: `${hits.length} cleared hit(s)`, result: 'passed', reason: `every hit at or above the threshold was cleared by a reviewer (${names}); screened against ${against}`, score, hits };
  }
  return { ...base, extracted: 'no hit', result: 'passed', reason: `no entry at or above ${policy.threshold} (best ${score.toFixed(2)}); screened against ${against}`, score };
}

/** `person.screening` not evaluated for a reason of this deployment (no screener, a failure): required, so it reviews. */
function unscreened(policy: ScreeningPolicy, extracted: string, reason: string): RuleResult {
  return {
    name: SCREENING_RULE,
    expected: `no listed person at or above ${policy.threshold} (${policy.lists.join(', ')})`,
    extracted,
    result: 'not_evaluated',
    required: true,
    reason,
    source: 'screening',
  };
}

/**
 * `person.screening` for a photo ID in a flow that sets `checks.screening`: the people read and
 * expected are screened against the flow's lists (the screener's newest valid snapshots), the
 * verification's clearances applied, and, in a flow that re-screens, the people recorded for the
 * re-screen job. Fails closed: no screener, a screener that throws, a stale or missing list → not
 * evaluated and required (review). Undefined when the rule does not apply (another context, a flow
 * without screening, a document that could not be read: it fails on that alone).
 */
export async function screeningRule(
  deps: Pick<Deps, 'screener' | 'screenings' | 'clock'>,
  agg: VerificationAggregate,
  doc: DocumentRecord,
  flow: Flow,
): Promise<RuleResult | undefined> {
  const policy = screeningPolicy(flow);
  if (doc.contextType !== 'PHOTO_ID' || !policy || doc.extractedData?.document.identified !== 'true') return undefined;
  const people = peopleToScreen(agg, doc);
  if (people.length === 0) return unscreened(policy, 'no name', 'no name was read or expected: the person could not be screened');
  if (!deps.screener) return unscreened(policy, 'no screener', 'this deployment has no sanctions lists loaded: the person could not be screened');
  const now = deps.clock.now();
  try {
    const screener = deps.screener;
    const [results, clearances] = await Promise.all([
      Promise.all(people.map((p) => screener.screen(p, policy, new Date(now)))),
      deps.screenings ? deps.screenings.clearances(agg.verification.id) : Promise.resolve([]),
    ]);
    if (policy.rescreen && deps.screenings) await deps.screenings.recordScreened({ verificationId: agg.verification.id, flow: flow.path, people, screenedAt: now });
    return screeningResult(policy, results, clearances);
  } catch (error) {
    logger.error('screening failed', { verificationId: agg.verification.id, errorName: (error as Error)?.name });
    return unscreened(policy, 'failed', 'the screening could not be made (lists or storage unavailable): a person reviews it');
  }
}
