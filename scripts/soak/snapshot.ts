/**
 * What the service holds after the soak, read through the API once DynamoDB Local is healthy again:
 * every verification the list shows and every id the clients learned, every document, every webhook;
 * then the actionability probe (approve, or reject an approved one; a canceled one must still be read).
 * Get Verification shows only the newest HISTORY_SHOWN history entries: a verification that shows that
 * many has its older comments read from the table (the history items are the record). These reads are
 * not part of the measured traffic.
 */
import { type DynamoDBDocumentClient, paginateQuery } from '@aws-sdk/lib-dynamodb';
import { keys } from '../../src/adapters/dynamodb/keys';
import { HISTORY_SHOWN } from '../../src/domain/retention';
import { type Answer, request, sleep } from './http';
import type { Snapshot, SnapshotVerification } from './invariants';

const FLOW = '/api/v1/default';

interface Reader {
  base: string;
  token: string;
  /** The local table, for the history Get Verification does not show. */
  table: { doc: DynamoDBDocumentClient; name: string };
}

/** Every history comment of a verification, from its partition's history items. */
async function historyComments(r: Reader, id: string): Promise<string[]> {
  const out: string[] = [];
  const pages = paginateQuery(
    { client: r.table.doc },
    {
      TableName: r.table.name,
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :h)',
      ExpressionAttributeValues: { ':pk': keys.verificationPartition(id), ':h': keys.historySortPrefix },
      ProjectionExpression: '#c',
      ExpressionAttributeNames: { '#c': 'comment' },
      ConsistentRead: true,
    },
  );
  for await (const page of pages) for (const item of page.Items ?? []) if (typeof item.comment === 'string') out.push(item.comment);
  return out;
}

/** One request, tried again on 503 or no answer (the service may still be warming up after the last fault). */
async function steady(r: Reader, method: string, path: string, body?: unknown): Promise<Answer> {
  let last = await request(r.base, r.token, method, path, body, 30_000);
  for (let attempt = 1; attempt < 6 && (last.status === 503 || typeof last.status !== 'number'); attempt++) {
    await sleep(1000 * attempt);
    last = await request(r.base, r.token, method, path, body, 30_000);
  }
  return last;
}

/** Runs `fn` on every item with `n` at a time. */
async function inParallel<T>(items: readonly T[], n: number, fn: (t: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: n }, async () => {
      while (next < items.length) await fn(items[next++] as T);
    }),
  );
}

function toVerification(data: any): SnapshotVerification {
  const texts = [...((data?.comments ?? []) as { content?: unknown }[]).map((c) => c.content), ...((data?.history ?? []) as { comment?: unknown }[]).map((h) => h.comment)];
  return {
    status: String(data?.status_label),
    vendorReference: data?.vendor_reference ?? null,
    vendorState: data?.vendor_state ?? null,
    submittedAt: data?.submitted_at ?? null,
    comments: texts.filter((t): t is string => typeof t === 'string'),
  };
}

/** Reads the service's state; `problems` collects reads that got neither an answer nor a 404. */
export async function takeSnapshot(
  r: Reader,
  known: { verifications: Set<string>; documents: Set<string> },
  deleted: Set<string>,
  problems: string[],
): Promise<Snapshot> {
  const snap: Snapshot = { verifications: {}, documents: {}, listed: [], webhooks: [], probes: {} };
  for (let page = 1; ; page++) {
    const res = await steady(r, 'GET', `${FLOW}/verifications?page=${page}`);
    if (res.status !== 200) {
      problems.push(`list page ${page} -> ${res.status}`);
      break;
    }
    const rows = (res.body?.data ?? []) as { id: string; vendor_reference?: string | null }[];
    snap.listed.push(...rows.map((v) => ({ id: v.id, vendorReference: v.vendor_reference ?? null })));
    if (rows.length === 0 || page >= Number(res.body?.meta?.last_page ?? page)) break;
  }
  const ids = [...new Set([...known.verifications, ...snap.listed.map((v) => v.id)])];
  await inParallel(ids, 3, async (id) => {
    const res = await steady(r, 'GET', `${FLOW}/verifications/${id}`);
    if (res.status === 200) {
      const v = toVerification(res.body?.data);
      if (((res.body?.data?.history ?? []) as unknown[]).length >= HISTORY_SHOWN) v.comments.push(...(await historyComments(r, id)));
      snap.verifications[id] = v;
    } else {
      snap.verifications[id] = null;
      if (res.status !== 404) problems.push(`Get Verification ${id} -> ${res.status}`);
    }
  });
  await inParallel([...known.documents], 3, async (id) => {
    const res = await steady(r, 'GET', `${FLOW}/documents/${id}`);
    snap.documents[id] = res.status === 200;
    if (res.status !== 200 && res.status !== 404) problems.push(`Get Document ${id} -> ${res.status}`);
  });
  const hooks = await steady(r, 'GET', `${FLOW}/webhooks`);
  if (hooks.status === 200) snap.webhooks = ((hooks.body?.data ?? []) as { id: string; url: string }[]).map((w) => ({ id: w.id, url: w.url }));
  else problems.push(`List Webhooks -> ${hooks.status}`);

  // The probe changes state, so it runs after every read above.
  const live = ids.filter((id) => snap.verifications[id] && !deleted.has(id));
  await inParallel(live, 3, async (id) => {
    const status = snap.verifications[id]?.status;
    if (status === 'Canceled') {
      snap.probes[id] = { action: 'get (canceled)', status: (await steady(r, 'GET', `${FLOW}/verifications/${id}`)).status, accepted: [200] };
      return;
    }
    const action = status === 'Approved' ? 'reject' : 'approve';
    const res = await steady(r, 'PUT', `${FLOW}/verifications/${id}/${action}`, { comment: 'soak probe', email: 'probe@example.com' });
    snap.probes[id] = { action: `${action} (${status})`, status: res.status, accepted: [200] };
  });
  return snap;
}
