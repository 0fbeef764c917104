import { authorize } from '../../../src/app/authorize';
import { createDocument } from '../../../src/app/create-document';
import { createVerification } from '../../../src/app/create-verification';
import { withConflictRetry } from '../../../src/app/load';
import { submitVerification } from '../../../src/app/submit-verification';
import { hashToken, sessionToken } from '../../../src/app/tokens';
import { updateDocument } from '../../../src/app/update-document';
import { ConflictError, UnauthorizedError } from '../../../src/domain/errors';
import { b64, png } from '../../fixtures/images';
import { fakeDeps, REQ } from '../../fakes/in-memory';

const person = { first_name: 'A', last_name: 'B' };

describe('createVerification', () => {
  it('stores only the hash of the session token and derives the widget links from it', async () => {
    const { deps, store } = fakeDeps();
    const v = await createVerification(deps, REQ, 'photo-id', { person });
    const token = sessionToken(deps.sessionSecret, v.id);
    expect(v.url).toBe(`https://api.test/v1/v/${token}`);
    expect([...store.sessions.entries()]).toEqual([[hashToken(token), v.id]]);
    expect(v.created_at).toBe('2026-01-02T03:04:05.123456Z');
  });

  it('uses the configured public base URL for links', async () => {
    const { deps } = fakeDeps();
    const v = await createVerification({ ...deps, publicBaseUrl: 'https://verify.example.com/' }, REQ, 'photo-id', { person });
    expect(v.url?.startsWith('https://verify.example.com/v/')).toBe(true);
  });
});

describe('createDocument', () => {
  it('removes the uploaded images when the document write fails', async () => {
    const { deps, store, blobs } = fakeDeps();
    const v = await createVerification(deps, REQ, 'photo-id', { person });
    store.failNextCreate = new Error('DynamoDB throttled');
    const input = { verification: v.id, document: { context_type: 'PHOTO_ID' as const, type: 2, country: 'USA', front_side_data: b64(png()), back_side_data: b64(png(8, 8, 2)) } };
    await expect(createDocument(deps, 'photo-id', input)).rejects.toThrow('DynamoDB throttled');
    expect(blobs.objects.size).toBe(0);
  });

  it('removes the front image when the back upload fails', async () => {
    const { deps, blobs } = fakeDeps();
    const v = await createVerification(deps, REQ, 'photo-id', { person });
    blobs.failPutAfter = 1;
    const input = { verification: v.id, document: { context_type: 'PHOTO_ID' as const, type: 2, country: 'USA', front_side_data: b64(png()), back_side_data: b64(png(8, 8, 2)) } };
    await expect(createDocument(deps, 'photo-id', input)).rejects.toThrow('S3 unavailable');
    expect(blobs.objects.size).toBe(0);
  });
});

describe('updateDocument', () => {
  it('deletes the replaced image only after the write succeeded', async () => {
    const { deps, blobs } = fakeDeps();
    const v = await createVerification(deps, REQ, 'photo-id', { person });
    const d = await createDocument(deps, 'photo-id', { verification: v.id, document: { context_type: 'PHOTO_ID', type: 1, country: 'FRA', front_side_data: b64(png()) } });
    const before = [...blobs.objects.keys()];
    await updateDocument(deps, 'photo-id', d.id, { verification: v.id, document: { front_side_data: b64(png(8, 8, 9)) } });
    const after = [...blobs.objects.keys()];
    expect(after).toHaveLength(1);
    expect(after[0]).not.toBe(before[0]);
  });
});

describe('submitVerification', () => {
  it('starts the pipeline with the new run number after committing', async () => {
    const { deps, workflow, store } = fakeDeps();
    const v = await createVerification(deps, REQ, 'photo-id', { person });
    await createDocument(deps, 'photo-id', { verification: v.id, document: { context_type: 'PHOTO_ID', type: 1, country: 'FRA', front_side_data: b64(png()) } });
    await submitVerification(deps, REQ, 'photo-id', v.id);
    expect(workflow.starts).toEqual([{ verificationId: v.id, run: 1 }]);
    expect(store.verifications.get(v.id)?.status).toBe(2);
  });
});

describe('withConflictRetry', () => {
  it('retries a lost race and gives up after the limit', async () => {
    let calls = 0;
    await expect(
      withConflictRetry(async () => {
        calls++;
        if (calls < 3) throw new ConflictError();
        return 'ok';
      }),
    ).resolves.toBe('ok');
    calls = 0;
    await expect(
      withConflictRetry(async () => {
        calls++;
        throw new ConflictError();
      }, 2),
    ).rejects.toBeInstanceOf(ConflictError);
    expect(calls).toBe(2);
  });
});

describe('authorize', () => {
  it('accepts a known bearer token and refuses missing, malformed and unknown ones', async () => {
    const { deps, tokens } = fakeDeps();
    await tokens.put({ name: 'ci', hash: hashToken('idv_secret'), createdAt: 'now' });
    await expect(authorize(deps, 'Bearer idv_secret')).resolves.toMatchObject({ tokenName: 'ci', flows: '*', tokenId: expect.stringMatching(/^tok_[0-9a-f]{32}$/) });
    await expect(authorize(deps, 'bearer idv_secret')).resolves.toMatchObject({ tokenName: 'ci', flows: '*', tokenId: expect.stringMatching(/^tok_[0-9a-f]{32}$/) });
    await tokens.put({ name: 'scoped', hash: hashToken('idv_scoped'), createdAt: 'now', flows: ['default', 'photo-id'] });
    await expect(authorize(deps, 'Bearer idv_scoped')).resolves.toMatchObject({ tokenName: 'scoped', flows: 'default,photo-id' });
    for (const header of [undefined, '', 'idv_secret', 'Basic idv_secret', 'Bearer other', `Bearer ${'x'.repeat(600)}`]) {
      await expect(authorize(deps, header)).rejects.toBeInstanceOf(UnauthorizedError);
    }
  });
});

describe('when processing cannot be started', () => {
  it('answers with the committed change, and the verification goes to Double Check with a private note', async () => {
    const { deps, store } = fakeDeps();
    deps.workflow = {
      start: async () => {
        throw Object.assign(new Error('throttled'), { name: 'ThrottlingException' });
      },
      state: async () => 'absent',
    };
    const v = await createVerification(deps, REQ, 'photo-id', { person });
    await createDocument(deps, 'photo-id', { verification: v.id, document: { context_type: 'PHOTO_ID', type: 1, country: 'FRA', front_side_data: b64(png()) } });
    const res = await submitVerification(deps, REQ, 'photo-id', v.id);
    expect(res.status_label).toBe('Double Check');
    expect(res.comments).toEqual([]);
    const stored = store.verifications.get(v.id)!;
    expect(stored.comments).toEqual([expect.objectContaining({ private: true, content: expect.stringContaining('StartFailed.ThrottlingException') })]);
    expect(store.history.get(v.id)?.map((h) => [h.fromStatus, h.toStatus, h.user])).toEqual([
      [null, 1, 'system'],
      [1, 2, 'system'],
      [2, 5, 'system'],
    ]);
  });
});

describe('widget session tokens', () => {
  it('reach exactly their own verification; tampered, foreign or malformed tokens are not found', async () => {
    const { resolveSession, uploadFromWidget } = await import('../../../src/app/widget');
    const { deps, store } = fakeDeps();
    const a = await createVerification(deps, REQ, 'photo-id', { person });
    const b = await createVerification(deps, REQ, 'photo-id', { person });
    const tokenA = sessionToken(deps.sessionSecret, a.id);
    expect((await resolveSession(deps, tokenA)).aggregate.verification.id).toBe(a.id);
    const tampered = `${tokenA.slice(0, -1)}${tokenA.endsWith('A') ? 'B' : 'A'}`;
    await expect(resolveSession(deps, tampered)).rejects.toThrow('Session not found');
    await expect(resolveSession(deps, 'short')).rejects.toThrow('Session not found');
    // A stored hash that points at another verification does not match the HMAC of that id.
    store.sessions.set(hashToken(tokenA), b.id);
    await expect(resolveSession(deps, tokenA)).rejects.toThrow('Session not found');
    store.sessions.set(hashToken(tokenA), a.id);
    // Closed for changes once the verification left Started.
    store.verifications.get(a.id)!.status = 2;
    await expect(uploadFromWidget(deps, tokenA, { context_type: 'PHOTO_ID', type: 1, country: 'FRA', front_side_data: b64(png()) })).rejects.toThrow(/session is closed/);
  });
});
