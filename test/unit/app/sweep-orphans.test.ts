import { framePrefix, providerImagePrefix } from '../../../src/app/liveness';
import { newChallenge } from '../../../src/app/liveness-challenge';
import { ORPHAN_GRACE_SECONDS, ORPHAN_LOOKBACK_SECONDS, parseImageKey, parseLivenessImageKey, sweepOrphans } from '../../../src/app/sweep-orphans';
import type { ImageInventory, ImageKey, ImageReferences, StoredImage } from '../../../src/ports/image-inventory';
import { InMemoryLiveness } from '../../fakes/liveness';

const NOW = '2026-06-01T12:00:00.000000Z';
const ago = (seconds: number) => new Date(Date.parse(NOW) - seconds * 1000).toISOString();

/** The bucket as a map of key to storage time, listed in key order a few keys a page, as S3 does by 1,000. */
class FakeInventory implements ImageInventory {
  removed: string[] = [];
  constructor(readonly objects: Map<string, string>) {}
  async *storedBefore(before: string): AsyncIterable<StoredImage[]> {
    const all = [...this.objects].filter(([, at]) => at < before).sort(([a], [b]) => (a < b ? -1 : 1));
    for (let i = 0; i < all.length; i += 2) yield all.slice(i, i + 2).map(([key, storedAt]) => ({ key, storedAt }));
  }
  async remove(keys: string[]): Promise<void> {
    for (const k of keys) this.objects.delete(k);
    this.removed.push(...keys);
  }
}

class FakeReferences implements ImageReferences {
  asked: ImageKey[] = [];
  constructor(private readonly named: Set<string>) {}
  async referenced(images: ImageKey[]): Promise<Set<string>> {
    this.asked.push(...images);
    return new Set(images.map((i) => i.key).filter((k) => this.named.has(k)));
  }
}

const clock = { now: () => NOW };
const key = (doc: string, side = 'front') => `documents/ver_1/${doc}/img_1-${side}`;

describe('sweepOrphans', () => {
  it('removes an image no record names once it is older than the grace; keeps a younger one and one a record names', async () => {
    const inventory = new FakeInventory(
      new Map([
        [key('doc_orphan'), ago(ORPHAN_GRACE_SECONDS + 60)],
        [key('doc_young'), ago(ORPHAN_GRACE_SECONDS - 60)],
        [key('doc_named'), ago(ORPHAN_GRACE_SECONDS + 60)],
        [key('doc_named', 'back'), ago(3 * 24 * 3600)],
      ]),
    );
    const references = new FakeReferences(new Set([key('doc_named'), key('doc_named', 'back')]));
    const result = await sweepOrphans({ imageInventory: inventory, imageReferences: references, clock });
    expect(result).toEqual({ examined: 3, removed: 1, unknown: 0 });
    expect(inventory.removed).toEqual([key('doc_orphan')]);
    expect([...inventory.objects.keys()].sort()).toEqual([key('doc_named', 'back'), key('doc_named'), key('doc_young')].sort());
  });

  it('never removes nor asks about a key of a layout the service does not write', async () => {
    const old = ago(ORPHAN_GRACE_SECONDS + 60);
    // A folder named like a challenge's whose name is no nonce of ours is not the service's either.
    const others = ['documents/README.txt', 'documents/ver_1/doc_1/report.pdf', 'documents/ver_1/doc_1/img_1-front/extra', 'documents/ver_1/img_1-front', 'documents/ver_1/liveness-abc/frame-00'];
    const inventory = new FakeInventory(new Map(others.map((k) => [k, old])));
    const references = new FakeReferences(new Set());
    const store = new InMemoryLiveness();
    expect(await sweepOrphans({ imageInventory: inventory, imageReferences: references, clock, liveness: store, faceLivenessSessions: store.sessions })).toEqual({ examined: 0, removed: 0, unknown: 5 });
    expect(inventory.removed).toEqual([]);
    expect(references.asked).toEqual([]);
  });

  it('looks back 7 days past the grace on a scheduled run, and at every age when told (lookbackSeconds: null)', async () => {
    const ancient = key('doc_ancient');
    const inventory = new FakeInventory(new Map([[ancient, ago(ORPHAN_GRACE_SECONDS + ORPHAN_LOOKBACK_SECONDS + 60)]]));
    const references = new FakeReferences(new Set());
    expect((await sweepOrphans({ imageInventory: inventory, imageReferences: references, clock })).removed).toBe(0);
    expect((await sweepOrphans({ imageInventory: inventory, imageReferences: references, clock }, { lookbackSeconds: null })).removed).toBe(1);
  });

  it('fails when a removal fails, so a run never reports images it did not remove', async () => {
    const inventory = new FakeInventory(new Map([[key('doc_orphan'), ago(ORPHAN_GRACE_SECONDS + 60)]]));
    inventory.remove = async () => {
      throw new Error('S3 could not delete 1 object(s)');
    };
    await expect(sweepOrphans({ imageInventory: inventory, imageReferences: new FakeReferences(new Set()), clock })).rejects.toThrow('could not delete');
  });
});

describe('sweepOrphans: the images of a liveness check', () => {
  const nowMs = Date.parse(NOW);
  const grace = ORPHAN_GRACE_SECONDS * 1000;
  /** A challenge issued `msAgo` before now, recorded in the store (a Rekognition one has no steps and lives 3 minutes). */
  const issued = async (store: InMemoryLiveness, msAgo: number, rekognition = false) => {
    const drawn = newChallenge('ver_1', 'h', nowMs - msAgo);
    const c = rekognition ? { ...drawn, steps: [], expiresAt: new Date(nowMs - msAgo + 180_000).toISOString() } : drawn;
    expect(await store.issue(c, store.issued.get('ver_1') ?? 0)).toBe(true);
    return c;
  };
  const sweep = (store: InMemoryLiveness, objects: string[]) => {
    const inventory = new FakeInventory(new Map(objects.map((k) => [k, ago(ORPHAN_GRACE_SECONDS + 60)])));
    const references = new FakeReferences(new Set());
    return { inventory, references, run: () => sweepOrphans({ imageInventory: inventory, imageReferences: references, clock, liveness: store, faceLivenessSessions: store.sessions }) };
  };
  const signals = { deviceLabel: null, reportedFps: null, virtualCameraLabel: false };

  it("keeps the frames a challenge's accepted burst names; removes, once the challenge's expiry plus the grace is past, frames it does not name and those of a challenge never used", async () => {
    const store = new InMemoryLiveness();
    const used = await issued(store, grace + 200_000);
    const prefix = framePrefix('ver_1', used.nonce);
    await store.accept('ver_1', used.nonce, { sessionHash: 'h', usedAt: new Date(nowMs - grace - 190_000).toISOString(), frames: { keyPrefix: prefix, times: [0, 100] }, signals });
    const unused = await issued(store, grace + 130_000);
    const { inventory, references, run } = sweep(store, [`${prefix}00`, `${prefix}01`, `${prefix}02`, `${framePrefix('ver_1', unused.nonce)}00`]);
    expect(await run()).toEqual({ examined: 4, removed: 2, unknown: 0 });
    expect(inventory.removed.sort()).toEqual([`${prefix}02`, `${framePrefix('ver_1', unused.nonce)}00`].sort());
    expect(references.asked).toEqual([]);
  });

  it('judges nothing of a challenge before its expiry plus the grace: its request, or Rekognition, may still be writing', async () => {
    const store = new InMemoryLiveness();
    const young = await issued(store, grace + 60_000, true);
    const c = await issued(store, grace + 100_000);
    const { inventory, run } = sweep(store, [`${providerImagePrefix('ver_1', young.nonce)}/reference`, `${framePrefix('ver_1', c.nonce)}00`]);
    expect(await run()).toEqual({ examined: 2, removed: 0, unknown: 0 });
    expect(inventory.removed).toEqual([]);
  });

  it('keeps the reference and audit images a completed Rekognition session names; removes what its result does not name and every image of a session never completed', async () => {
    const store = new InMemoryLiveness();
    const done = await issued(store, grace + 400_000, true);
    const prefix = providerImagePrefix('ver_1', done.nonce);
    await store.sessions.attach('ver_1', done.nonce, { sessionHash: 'h', sessionId: 's-1', region: 'eu-west-1' });
    const result = { status: 'SUCCEEDED' as const, confidence: 98, referenceImageKey: `${prefix}/s-1/reference.jpg`, auditImageKeys: [`${prefix}/s-1/audit_images/1.jpg`] };
    expect(await store.sessions.complete('ver_1', done.nonce, { sessionHash: 'h', sessionId: 's-1', completedAt: new Date(nowMs - grace - 350_000).toISOString(), result, passed: true, reason: null })).toEqual({ completed: true });
    const abandoned = await issued(store, grace + 300_000, true);
    const left = providerImagePrefix('ver_1', abandoned.nonce);
    await store.sessions.attach('ver_1', abandoned.nonce, { sessionHash: 'h', sessionId: 's-2', region: 'eu-west-1' });
    const { inventory, run } = sweep(store, [result.referenceImageKey, ...result.auditImageKeys, `${prefix}/s-1/audit_images/2.jpg`, `${left}/s-2/reference.jpg`, `${left}/s-2/audit_images/1.jpg`]);
    expect(await run()).toEqual({ examined: 5, removed: 3, unknown: 0 });
    expect(inventory.removed.sort()).toEqual([`${prefix}/s-1/audit_images/2.jpg`, `${left}/s-2/reference.jpg`, `${left}/s-2/audit_images/1.jpg`].sort());
  });

  it("removes the images of a challenge whose item is gone (its verification purged) once the nonce's longest life plus the grace is past", async () => {
    const store = new InMemoryLiveness();
    const gone = newChallenge('ver_1', 'h', nowMs - grace - 200_000).nonce;
    const recent = newChallenge('ver_1', 'h', nowMs - grace - 100_000).nonce;
    const { inventory, run } = sweep(store, [`${framePrefix('ver_1', gone)}00`, `${providerImagePrefix('ver_1', recent)}/reference`]);
    expect(await run()).toEqual({ examined: 2, removed: 1, unknown: 0 });
    expect(inventory.removed).toEqual([`${framePrefix('ver_1', gone)}00`]);
  });

  it('leaves liveness images alone where the function is not given the challenges and sessions', async () => {
    const nonce = newChallenge('ver_1', 'h', nowMs - 30 * 24 * 3600_000).nonce;
    const inventory = new FakeInventory(new Map([[`${framePrefix('ver_1', nonce)}00`, ago(ORPHAN_GRACE_SECONDS + 60)]]));
    expect(await sweepOrphans({ imageInventory: inventory, imageReferences: new FakeReferences(new Set()), clock })).toEqual({ examined: 0, removed: 0, unknown: 1 });
  });
});

describe('parseLivenessImageKey', () => {
  it('reads the verification and nonce of a frame or a Rekognition image, and nothing of a folder that is no challenge', () => {
    const nonce = newChallenge('ver_1', 'h', Date.parse(NOW)).nonce;
    expect(parseLivenessImageKey(`documents/ver_1/liveness-${nonce}/frame-07`)).toEqual({ key: `documents/ver_1/liveness-${nonce}/frame-07`, verificationId: 'ver_1', nonce });
    expect(parseLivenessImageKey(`documents/ver_1/liveness-${nonce}/sid/audit_images/1.jpg`)?.nonce).toBe(nonce);
    expect(parseLivenessImageKey('documents/ver_1/liveness-abc/frame-00')).toBeUndefined();
    expect(parseLivenessImageKey(`documents/ver_1/liveness-${nonce}`)).toBeUndefined();
  });
});

describe('parseImageKey', () => {
  it('reads the verification and document of a key imageKey writes', () => {
    expect(parseImageKey('documents/ver_01A/doc_01B/img_01C-back')).toEqual({ key: 'documents/ver_01A/doc_01B/img_01C-back', verificationId: 'ver_01A', documentId: 'doc_01B' });
  });
});
