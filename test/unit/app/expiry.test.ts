import { createVerification } from '../../../src/app/create-verification';
import { expireVerifications } from '../../../src/app/expire-verifications';
import { fakeDeps, FixedClock, REQ } from '../../fakes/in-memory';

describe('expiry job', () => {
  it('expires Started verifications past the flow limit (7 days) and nothing else', async () => {
    const { deps, store } = fakeDeps();
    const clock = deps.clock as FixedClock;
    clock.value = '2026-01-01T00:00:00.000000Z';
    const old = await createVerification(deps, REQ, 'photo-id', { person: { first_name: 'A', last_name: 'B' } });
    clock.value = '2026-01-07T00:00:00.000000Z';
    const recent = await createVerification(deps, REQ, 'photo-id', { person: { first_name: 'C', last_name: 'D' } });
    clock.value = '2026-01-08T00:00:01.000000Z';
    expect(await expireVerifications(deps)).toEqual({ expired: 1 });
    expect(store.verifications.get(old.id)?.status).toBe(6);
    expect(store.verifications.get(recent.id)?.status).toBe(1);
    expect(store.history.get(old.id)?.at(-1)).toMatchObject({ fromStatus: 1, toStatus: 6, user: 'system' });
    expect(await expireVerifications(deps)).toEqual({ expired: 0 });
  });
});
