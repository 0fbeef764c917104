import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { keys } from '../../src/adapters/dynamodb/keys';
import { verificationEvent } from '../../src/app/events';
import { getDeps } from '../../src/container';
import { EVENT_HISTORY, HISTORY_SHOWN, KEPT_COMMENTS, KEPT_DECISIONS } from '../../src/domain/retention';
import { LOCAL_TABLE } from '../../local/runtime';
import { b64, png } from '../fixtures/images';
import { defaultBody, useTestRuntime } from './harness';

/**
 * What grows with use cannot brick a verification: a client that acts on one verification again and
 * again, with the longest comments the contract allows (each character the costliest there is, in
 * the table and in JSON), never meets DynamoDB's 400 KB item, Lambda's 6 MB response or
 * EventBridge's 256 KB entry. Before: ~110 actions made approve answer 500, ~190 every action.
 */
const ITEM_LIMIT = 400 * 1024;
const RESPONSE_LIMIT = 6 * 1024 * 1024;
const EVENT_LIMIT = 256 * 1024;
const ACTIONS = 240;

/** DynamoDB's item size: attribute names and values, UTF-8 (JSON's quotes and braces make this an overestimate). */
const itemBytes = (item: Record<string, unknown> | undefined) => Buffer.byteLength(JSON.stringify(item ?? {}), 'utf8');

describe('a verification acted on again and again', () => {
  jest.setTimeout(600_000);
  const t = useTestRuntime();

  it('keeps every item, answer, page and event within its platform limit, and every action working', async () => {
    // The longest values the contract takes, in 3-byte characters (6 bytes each once JSON-escaped for control characters in comments).
    const long = (n: number) => '€'.repeat(n);
    const body = {
      ...defaultBody(),
      vendor_reference: long(255),
      vendor_state: '\u0001'.repeat(1000),
      person: { first_name: long(255), last_name: long(255), date_of_birth: '1990-12-10' },
      address: { street: long(255), city: long(255), state: 'TX', postal_code: long(32), country: 'usa' },
    };
    const created = await t.api('POST', '/api/v1/default/verifications', body);
    expect(created.status).toBe(201);
    const id = created.body.data.id as string;
    for (const [context, type, country] of [['PHOTO_ID', 1, 'FRA'], ['PROOF_OF_ADDRESS', 4, 'USA']] as const) {
      const doc = await t.api('POST', '/api/v1/default/documents', { verification: id, document: { context_type: context, type, country, front_side_data: b64(png(8, 8, type)) } });
      expect(doc.status).toBe(201);
    }
    const comment = (i: number) => `${String(i).padStart(4, '0')}${'\u0001'.repeat(996)}${'€'.repeat(1000)}`;
    const sizes: { verification: number; document: number }[] = [];
    const statuses = new Map<number, number>();
    for (let i = 0; i < ACTIONS; i++) {
      const action = i % 2 === 0 ? 'approve' : 'reject';
      const res = await t.api('PUT', `/api/v1/default/verifications/${id}/${action}`, { comment: comment(i), email: 'reviewer@example.com' }, { skipContract: i % 20 !== 0 });
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      if (i % 40 === 39) {
        const head = await t.h.runtime.doc.send(new GetCommand({ TableName: LOCAL_TABLE, Key: keys.verification(id) }));
        const doc = await t.h.runtime.doc.send(new GetCommand({ TableName: LOCAL_TABLE, Key: keys.document(id, 'PHOTO_ID') }));
        sizes.push({ verification: itemBytes(head.Item), document: itemBytes(doc.Item) });
      }
    }
    expect(Object.fromEntries(statuses)).toEqual({ 200: ACTIONS });

    // Items: bounded, and no longer growing once the kept comments and decisions are full.
    const last = sizes.at(-1)!;
    expect(last.verification).toBeLessThan(ITEM_LIMIT / 4);
    expect(last.document).toBeLessThan(ITEM_LIMIT / 4);
    expect(Math.abs(last.verification - sizes[1]!.verification)).toBeLessThan(64);
    expect(Math.abs(last.document - sizes[1]!.document)).toBeLessThan(64);

    // Every action still works, Cancel included.
    const got = await t.api('GET', `/api/v1/default/verifications/${id}`);
    expect(got.status).toBe(200);
    const getBytes = Buffer.byteLength(got.text, 'utf8');
    expect(getBytes).toBeLessThan(RESPONSE_LIMIT / 2);
    expect(got.body.data.history).toHaveLength(HISTORY_SHOWN);
    // Newest first, and the comments are those of the history shown.
    expect(got.body.data.history[0].comment).toBe(comment(ACTIONS - 1));
    expect(got.body.data.comments).toHaveLength(HISTORY_SHOWN);
    expect(got.body.data.comments.at(-1).content).toBe(comment(ACTIONS - 1));
    for (const d of got.body.data.documents) expect(d.decisions).toHaveLength(KEPT_DECISIONS);

    // A list page of such rows: each row carries the newest KEPT_COMMENTS comments.
    const list = await t.api('GET', `/api/v1/default/verifications?search=${id}`);
    expect(list.status).toBe(200);
    expect(list.body.data[0].comments).toHaveLength(KEPT_COMMENTS);
    const rowBytes = Buffer.byteLength(JSON.stringify(list.body.data[0]), 'utf8');
    expect(rowBytes * list.body.meta.per_page).toBeLessThan(RESPONSE_LIMIT / 2);

    // The event entry: detail, detail type and source, as EventBridge counts them.
    const deps = await getDeps(['flows', 'verifications', 'ids', 'clock']);
    const flow = (await deps.flows.get('default'))!;
    const aggregate = (await deps.verifications.get(id))!;
    const event = await verificationEvent(deps, 'VerificationFinished', flow, aggregate);
    const entryBytes = Buffer.byteLength(JSON.stringify(event.detail), 'utf8') + Buffer.byteLength(event.type) + Buffer.byteLength('idv.verifications');
    expect(entryBytes).toBeLessThan(EVENT_LIMIT);
    expect((event.detail.data as { verification: { history: unknown[] } }).verification.history).toHaveLength(EVENT_HISTORY);

    const cancel = await t.api('PUT', `/api/v1/default/verifications/${id}/cancel`, { comment: comment(ACTIONS), email: 'reviewer@example.com' });
    expect(cancel.status).toBe(200);

    console.log(
      `growth: ${ACTIONS} actions with ${comment(0).length}-character comments: verification item ${last.verification} B, document item ${last.document} B, ` +
        `Get Verification ${getBytes} B, list row ${rowBytes} B (page of ${list.body.meta.per_page}: ${rowBytes * list.body.meta.per_page} B), event entry ${entryBytes} B`,
    );
  });
});
