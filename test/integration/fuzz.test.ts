import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import fc from 'fast-check';
import { MAX_IMAGE_BYTES } from '../../src/app/images';
import { routes } from '../../src/http/routes';
import { b64, pdf, png } from '../fixtures/images';
import { defaultBody, storedImages, useTestRuntime } from './harness';

const t = useTestRuntime();

/** A PNG whose header claims 50,000 × 50,000 pixels: a decompression bomb, checked before decoding. */
function bomb(): Buffer {
  const b = Buffer.from(png(2, 2));
  b.writeUInt32BE(50_000, 16);
  b.writeUInt32BE(50_000, 20);
  return b;
}

const hostileStrings = fc.oneof(
  fc.string(),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom('__proto__', 'constructor', 'prototype', '../../etc/passwd', '%00', '<script>', 'ver_01ARZ3NDEKTSV4RRFFQ69G5FAV', 'x'.repeat(5000)),
);
const imageData = fc.oneof(
  fc.constantFrom(b64(png()), b64(pdf()), b64(bomb()), b64(png().subarray(0, 30)), 'not base64!!', '', '====', b64(Buffer.from('plain text'))),
  fc.constant(b64(Buffer.concat([png(), Buffer.alloc(MAX_IMAGE_BYTES)]))),
  fc.base64String({ maxLength: 200 }),
);
const deep = fc.integer({ min: 50, max: 3000 }).map((depth) => {
  let v: unknown = 'leaf';
  for (let i = 0; i < depth; i++) v = { a: v };
  return v;
});
const protoBody = fc.constantFrom('{"__proto__":{"polluted":true},"comment":"c","email":"a@b.co"}', '{"constructor":{"prototype":{"x":1}}}');
const jsonValue = fc.oneof(fc.jsonValue(), deep, fc.dictionary(hostileStrings, fc.jsonValue(), { maxKeys: 8 }));
const documentBody = fc.record(
  {
    verification: fc.oneof(hostileStrings, fc.constant('__VERIFICATION__')),
    document: fc.record(
      {
        context_type: fc.oneof(fc.constantFrom('PHOTO_ID', 'PROOF_OF_ADDRESS', 'SELFIE'), hostileStrings),
        type: fc.oneof(fc.integer({ min: -2, max: 9 }), hostileStrings, fc.double()),
        country: fc.oneof(fc.constantFrom('USA', 'fra', 'GBR', 'XXX'), hostileStrings),
        front_side_data: imageData,
        back_side_data: imageData,
      },
      { requiredKeys: [] },
    ),
    status: fc.oneof(fc.integer({ min: -1, max: 9 }), hostileStrings),
  },
  { requiredKeys: [] },
);
const verificationBody = fc.oneof(
  fc.constant(defaultBody() as unknown),
  fc.record({ person: jsonValue, address: jsonValue, documents: jsonValue, vendor_reference: jsonValue, status: jsonValue, comment: jsonValue, email: jsonValue }, { requiredKeys: [] }),
);

const caseArb = fc.record({
  route: fc.constantFrom(...routes),
  flow: fc.oneof({ arbitrary: fc.constantFrom('default', 'photo-id'), weight: 4 }, { arbitrary: fc.constant('nope'), weight: 1 }, { arbitrary: hostileStrings, weight: 1 }),
  id: fc.oneof({ arbitrary: fc.constantFrom('__VERIFICATION__', '__DOCUMENT__'), weight: 4 }, { arbitrary: hostileStrings, weight: 1 }),
  body: fc.oneof(
    { arbitrary: verificationBody.map((b) => JSON.stringify(b)), weight: 3 },
    { arbitrary: documentBody.map((b) => JSON.stringify(b)), weight: 3 },
    jsonValue.map((b) => JSON.stringify(b)),
    protoBody,
    fc.string(),
    fc.constant(undefined),
  ),
  page: fc.oneof(fc.constant(undefined), fc.integer().map(String), hostileStrings),
  auth: fc.oneof(fc.constant('valid'), fc.constant('valid'), fc.constant('valid'), fc.constantFrom('none', 'Bearer nope', 'Basic x', 'Bearer '), hostileStrings),
  contentType: fc.constantFrom('application/json', 'text/plain', 'application/xml'),
});

describe('hostile input on every endpoint', () => {
  it('never answers 5xx, always answers errors as documented JSON, and leaves no half-written data', async () => {
    const base = t.h.runtime.url;
    const v = (await t.api('POST', '/api/v1/default/verifications', defaultBody())).body.data.id as string;
    const d = (await t.api('POST', '/api/v1/default/documents', { verification: v, document: { context_type: 'PHOTO_ID', type: 1, country: 'FRA', front_side_data: b64(png()) } })).body.data.id as string;
    let cases = 0;
    const statuses = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(caseArb, async (c) => {
        cases++;
        const id = c.id === '__VERIFICATION__' ? v : c.id === '__DOCUMENT__' ? d : c.id;
        const path = c.route.path
          .replace('{flow}', encodeURIComponent(c.flow))
          .replace(/\{(verificationId|documentId|webhookId)\}/, encodeURIComponent(id));
        const url = `${base}${path}${c.page === undefined ? '' : `?page=${encodeURIComponent(c.page)}`}`;
        const headers: Record<string, string> = { 'Content-Type': c.contentType };
        if (c.auth === 'valid') headers.Authorization = `Bearer ${t.h.runtime.token}`;
        else if (c.auth !== 'none') headers.Authorization = c.auth.replace(/[^\x20-\x7e]/g, '?');
        const body = c.route.method === 'GET' || c.route.method === 'DELETE' ? undefined : c.body?.replace('__VERIFICATION__', v);
        const res = await fetch(url, { method: c.route.method, headers, body });
        const text = await res.text();
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        expect([c.route.operation, res.status < 500]).toEqual([c.route.operation, true]);
        if (res.status >= 400) {
          const parsed = JSON.parse(text);
          expect(typeof parsed.message).toBe('string');
          if (res.status === 422) {
            for (const messages of Object.values(parsed.errors as Record<string, unknown>)) {
              expect(Array.isArray(messages) && messages.every((m) => typeof m === 'string')).toBe(true);
            }
          }
        }
      }),
      { numRuns: 600, seed: 20261122 },
    );
    await t.h.runtime.idle();
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    // No orphan: every stored image belongs to a document item, and every document to a verification.
    const stored = storedImages(t.h.dataDir);
    for (const file of stored) {
      const [verificationId, documentId] = file.split('/documents/')[1]!.split('/');
      const items = await t.h.runtime.doc.send(
        new QueryCommand({ TableName: 'idv-local', KeyConditionExpression: 'PK = :pk', ExpressionAttributeValues: { ':pk': `VER#${verificationId}` } }),
      );
      const doc = (items.Items ?? []).find((i) => i.entity === 'document' && i.id === documentId);
      expect([file, Boolean(doc), (items.Items ?? []).some((i) => i.entity === 'verification')]).toEqual([file, true, true]);
    }
    process.stdout.write(`fuzz: ${cases} hostile requests across ${routes.length} routes, statuses ${JSON.stringify(Object.fromEntries(statuses))}\n`);
  }, 240_000);
});
