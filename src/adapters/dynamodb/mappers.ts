import type { DocumentRecord, HistoryEntry, Verification } from '../../domain/entities';
import { emptyExpectedData, mergeExpectedData } from '../../domain/expected-data';
import { VerificationStatus } from '../../domain/status';
import type { DomainEvent } from '../../events/events';
import type { RunTicket } from '../../ports/outbox';
import { searchTerms } from '../../domain/search';
import { keys, SEARCH_KINDS } from './keys';

type Item = Record<string, unknown>;

export function verificationToItem(v: Verification): Item {
  return {
    ...keys.verification(v.id),
    ...keys.byFlow(v.flow, v.id),
    ...keys.all(v.id),
    ...keys.byStatus(v.status, v.id),
    ...(v.status === VerificationStatus.Started && keys.startedUntil(v.expiresAt, v.id)),
    entity: 'verification',
    id: v.id,
    flow: v.flow,
    vendor_reference: v.vendorReference,
    vendor_state: v.vendorState,
    expected_data: v.expectedData,
    status: v.status,
    submitted_at: v.submittedAt,
    created_at: v.createdAt,
    updated_at: v.updatedAt,
    version: v.version,
    run: v.run,
    processed_run: v.processedRun,
    comments: v.comments,
    expires_at: v.expiresAt,
  };
}

/**
 * The list entries of a verification besides its own item: its entry in the list of its status in
 * its flow, and one search entry per term (a kind with no term is deleted). Each carries `flow` and
 * `status` (projected by GSI4).
 */
export function listEntries(v: Verification): { puts: Item[]; deletes: { PK: string; SK: string }[] } {
  const terms = searchTerms(v);
  const common = { entity: 'listEntry', flow: v.flow, status: v.status };
  const puts: Item[] = [{ ...keys.flowStatusEntry(v.id), ...keys.byFlowStatus(v.flow, v.status, v.id), ...common }];
  const deletes: { PK: string; SK: string }[] = [];
  for (const kind of SEARCH_KINDS) {
    const term = terms[kind];
    if (term === undefined) deletes.push(keys.searchEntry(v.id, kind));
    else puts.push({ ...keys.searchEntry(v.id, kind), ...keys.searchTerm(term, v.id), ...common });
  }
  return { puts, deletes };
}

/** Every list entry key a verification may have (soft delete removes them all). */
export function listEntryKeys(id: string): { PK: string; SK: string }[] {
  return [keys.flowStatusEntry(id), ...SEARCH_KINDS.map((k) => keys.searchEntry(id, k))];
}

export function verificationFromItem(i: Item): Verification {
  return {
    id: i.id as string,
    flow: i.flow as string,
    vendorReference: (i.vendor_reference as string | null) ?? null,
    vendorState: (i.vendor_state as string | null) ?? null,
    // DynamoDB maps do not keep key order: rebuild in the documented order.
    expectedData: mergeExpectedData(emptyExpectedData(), i.expected_data as Verification['expectedData']),
    status: i.status as Verification['status'],
    submittedAt: (i.submitted_at as string | null) ?? null,
    createdAt: i.created_at as string,
    updatedAt: i.updated_at as string,
    version: i.version as number,
    run: i.run as number,
    processedRun: (i.processed_run as number | undefined) ?? 0,
    comments: (i.comments as Verification['comments']) ?? [],
    expiresAt: (i.expires_at as string | undefined) ?? '',
  };
}

export function documentToItem(d: DocumentRecord): Item {
  return {
    ...keys.document(d.verificationId, d.contextType),
    entity: 'document',
    id: d.id,
    verification_id: d.verificationId,
    flow: d.flow,
    context_type: d.contextType,
    type_id: d.typeId,
    country: d.country,
    status: d.status,
    front: d.front,
    back: d.back,
    extracted_data: d.extractedData,
    extraction_confidence: d.extractionConfidence,
    rules: d.rules,
    extraction_info: d.extractionInfo ?? null,
    decisions: d.decisions,
    report_sha256: d.reportSha256,
    created_at: d.createdAt,
    updated_at: d.updatedAt,
    version: d.version,
  };
}

export function documentFromItem(i: Item): DocumentRecord {
  return {
    id: i.id as string,
    verificationId: i.verification_id as string,
    flow: i.flow as string,
    contextType: i.context_type as DocumentRecord['contextType'],
    typeId: i.type_id as number,
    country: i.country as string,
    status: i.status as DocumentRecord['status'],
    front: i.front as DocumentRecord['front'],
    back: (i.back as DocumentRecord['back']) ?? null,
    extractedData: (i.extracted_data as DocumentRecord['extractedData']) ?? null,
    extractionConfidence: (i.extraction_confidence as DocumentRecord['extractionConfidence']) ?? null,
    rules: (i.rules as DocumentRecord['rules']) ?? null,
    extractionInfo: (i.extraction_info as DocumentRecord['extractionInfo']) ?? null,
    decisions: (i.decisions as DocumentRecord['decisions']) ?? [],
    reportSha256: (i.report_sha256 as string | null) ?? null,
    createdAt: i.created_at as string,
    updatedAt: i.updated_at as string,
    version: i.version as number,
  };
}

export function documentRefToItem(d: DocumentRecord): Item {
  return { ...keys.documentRef(d.id), entity: 'documentRef', verification_id: d.verificationId, context_type: d.contextType };
}

/** An outbox row: the event, written in the same transaction as the change that caused it. */
export function outboxToItem(e: DomainEvent): Record<string, unknown> {
  return { ...keys.outbox(e.detail.id), ...keys.outboxPending(e.detail.created_at, e.detail.id), entity: 'outbox', type: e.type, detail: e.detail };
}

/** A run ticket: written with the change that starts the run (see the Outbox port). */
export function runTicketToItem(t: RunTicket): Item {
  return {
    ...keys.runTicket(t.verificationId),
    ...keys.runTicketDue(t.checkedAt, t.verificationId),
    entity: 'runTicket',
    verification_id: t.verificationId,
    run: t.run,
    attempt: t.attempt,
    started_at: t.startedAt,
    checked_at: t.checkedAt,
  };
}

export function runTicketFromItem(i: Item): RunTicket {
  return {
    verificationId: i.verification_id as string,
    run: i.run as number,
    attempt: i.attempt as number,
    startedAt: i.started_at as string,
    checkedAt: i.checked_at as string,
  };
}

export function historyToItem(verificationId: string, h: HistoryEntry): Item {
  return {
    ...keys.history(verificationId, h.id),
    entity: 'history',
    id: h.id,
    from_status: h.fromStatus,
    to_status: h.toStatus,
    user: h.user,
    ...(h.token !== undefined && { token: h.token }),
    comment: h.comment,
    created_at: h.createdAt,
    ...(h.changedFields.length > 0 && { changed_fields: h.changedFields }),
  };
}

export function historyFromItem(i: Item): HistoryEntry {
  return {
    id: i.id as string,
    fromStatus: (i.from_status as HistoryEntry['fromStatus']) ?? null,
    toStatus: i.to_status as HistoryEntry['toStatus'],
    user: i.user as string,
    ...(typeof i.token === 'string' && { token: i.token }),
    comment: (i.comment as string | null) ?? null,
    createdAt: i.created_at as string,
    changedFields: (i.changed_fields as string[] | undefined) ?? [],
  };
}
