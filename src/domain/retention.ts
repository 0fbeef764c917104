import type { Comment, Decision } from './entities';

/**
 * What grows with use is kept bounded where it is read in bulk, so no item, page or event can reach
 * a platform limit (DynamoDB's 400 KB item, Lambda's 6 MB response, EventBridge's 256 KB entry)
 * however long a verification lives: every status change is a history item of its own (with its
 * comment); the verification item keeps its newest comments for List, a document its newest
 * decisions. `test/integration/growth.test.ts` writes the largest a client can cause and measures.
 */

/** Comments of each kind (public, private) kept on the verification item: List shows them without reading history. */
export const KEPT_COMMENTS = 5;
/** Decisions kept on a document item (every manual decision is also in the history, with its actor). */
export const KEPT_DECISIONS = 10;
/** History entries Get Verification shows, newest first (and the public comments among them). */
export const HISTORY_SHOWN = 100;
/** History entries an event carries (EventBridge's 256 KB entry). */
export const EVENT_HISTORY = 5;

/** The newest KEPT_COMMENTS public and KEPT_COMMENTS private comments, in time order. */
export function keepComments(comments: Comment[]): Comment[] {
  const kept = new Set([...comments.filter((c) => !c.private).slice(-KEPT_COMMENTS), ...comments.filter((c) => c.private).slice(-KEPT_COMMENTS)]);
  return comments.filter((c) => kept.has(c));
}

/** The decisions with `added` appended, the newest KEPT_DECISIONS kept. */
export function withDecisions(decisions: Decision[], added: Decision[]): Decision[] {
  return [...decisions, ...added].slice(-KEPT_DECISIONS);
}
