import { countryByIso3 } from '../domain/countries';
import type { Comment, Decision, DocumentRecord, HistoryEntry, Verification, VerificationAggregate } from '../domain/entities';
import { CONTEXT_LABELS, type Flow, findTypeById } from '../domain/flow';
import { documentStatusLabel, verificationStatusLabel } from '../domain/status';
import type { Deps, RequestInfo } from './deps';
import { sessionToken } from './tokens';

/** Signed image links are valid exactly this long (spec: 30 minutes). */
export const SIGNED_URL_SECONDS = 1800;

type LinkDeps = Pick<Deps, 'sessionSecret' | 'publicBaseUrl'>;

/** The service's base address: PUBLIC_BASE_URL when configured, else the one the request came to (never a client header). */
export function serviceBase(deps: Pick<Deps, 'publicBaseUrl'>, req: RequestInfo): string {
  return (deps.publicBaseUrl ?? req.baseUrl).replace(/\/+$/, '');
}

export function widgetLinks(deps: LinkDeps, req: RequestInfo, verificationId: string): { url: string; qr_code: string } {
  const base = serviceBase(deps, req);
  const token = sessionToken(deps.sessionSecret, verificationId);
  return { url: `${base}/v/${token}`, qr_code: `${base}/v/${token}/qr` };
}

/** Oldest first by timestamp, then by (time-ordered) id. */
function byTime(a: { createdAt: string; id: string }, b: { createdAt: string; id: string }): number {
  if (a.createdAt !== b.createdAt) return a.createdAt < b.createdAt ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

function presentComment(c: Comment) {
  return { content: c.content, status: verificationStatusLabel(c.status), created_at: c.createdAt };
}

function presentHistory(h: HistoryEntry) {
  return {
    id: h.id,
    from_status: h.fromStatus === null ? null : verificationStatusLabel(h.fromStatus),
    to_status: verificationStatusLabel(h.toStatus),
    user: h.user,
    comment: h.comment,
    created_at: h.createdAt,
    changed_fields: h.changedFields,
  };
}

function presentDecision(d: Decision) {
  return {
    id: d.id,
    status_label: documentStatusLabel(d.status),
    validation_workflow: d.validation_workflow,
    created_at: d.createdAt,
    updated_at: d.updatedAt,
  };
}

/**
 * Whether access-granting links are included: signed image links and the end-user widget links.
 * API responses include them; event payloads (webhooks) never do.
 */
export interface PresentOptions {
  links: boolean;
  /** At most this many history entries, newest (events: EVENT_HISTORY; Get Verification reads at most HISTORY_SHOWN). */
  history?: number;
}
const WITH_LINKS: PresentOptions = { links: true };

/** A verification without documents and history (List, and the base of every other shape). */
export function presentVerification(deps: LinkDeps, req: RequestInfo, v: Verification, flowName: string, opts = WITH_LINKS) {
  return {
    id: v.id,
    ...(opts.links && widgetLinks(deps, req, v.id)),
    vendor_reference: v.vendorReference,
    vendor_state: v.vendorState,
    expected_data: v.expectedData,
    status_label: verificationStatusLabel(v.status),
    submitted_at: v.submittedAt,
    created_at: v.createdAt,
    updated_at: v.updatedAt,
    flow: flowName,
    comments: v.comments
      .filter((c) => !c.private)
      .sort(byTime)
      .map(presentComment),
  };
}

/** Full document shape (Get Document, Get Verification, Create Document). */
export async function presentDocument(deps: Pick<Deps, 'blobs'>, flow: Flow, d: DocumentRecord, opts = WITH_LINKS) {
  const type = findTypeById(flow, d.typeId);
  const country = countryByIso3(d.country);
  return {
    ...(await presentDocumentCore(deps, d, opts)),
    document_type: {
      id: d.typeId,
      name: type?.name ?? '',
      type_label: CONTEXT_LABELS[d.contextType],
    },
    country: country ?? { name: d.country, iso2: '', iso3: d.country },
  };
}

/** The document shape of Update Document, which omits document_type and country (spec). */
export async function presentDocumentCore(deps: Pick<Deps, 'blobs'>, d: DocumentRecord, opts = WITH_LINKS) {
  const links = opts.links
    ? {
        url_front: await deps.blobs.signedGetUrl(d.front.key, SIGNED_URL_SECONDS),
        url_back: d.back ? await deps.blobs.signedGetUrl(d.back.key, SIGNED_URL_SECONDS) : null,
      }
    : {};
  return {
    id: d.id,
    ...links,
    status_label: documentStatusLabel(d.status),
    verification_id: d.verificationId,
    created_at: d.createdAt,
    updated_at: d.updatedAt,
    extracted_data: d.extractedData ?? [],
    decisions: d.decisions.map(presentDecision),
    rules: d.rules,
  };
}

/**
 * Get Verification (and the events, without links): the verification, its documents, its newest
 * history entries and the public comments among them (every comment is on the history entry of the
 * change it came with: a long-lived verification shows the comments of the history it shows).
 */
export async function presentAggregate(deps: LinkDeps & Pick<Deps, 'blobs'>, req: RequestInfo, flow: Flow, agg: VerificationAggregate, opts = WITH_LINKS) {
  const documents = await Promise.all(
    [...agg.documents].sort((a, b) => (a.id < b.id ? -1 : 1)).map((d) => presentDocument(deps, flow, d, opts)),
  );
  const sorted = [...agg.history].sort(byTime);
  const history = opts.history === undefined ? sorted : sorted.slice(-opts.history);
  const comments = history
    .filter((h) => h.comment !== null)
    .map((h) => presentComment({ id: h.id, content: h.comment ?? '', status: h.toStatus, private: false, createdAt: h.createdAt }));
  return {
    ...presentVerification(deps, req, agg.verification, flow.name, opts),
    comments,
    documents,
    history: history.reverse().map(presentHistory),
  };
}
