import { ORPHAN_GRACE_SECONDS, ORPHAN_LOOKBACK_SECONDS, parseImageKey, sweepOrphans } from '../../../src/app/sweep-orphans';
import type { ImageInventory, ImageKey, ImageReferences, StoredImage } from '../../../src/ports/image-inventory';

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
    // Liveness frames (src/app/liveness.ts frameKey) are named by their challenge, not by a document: not this sweep's to judge.
    const others = ['documents/README.txt', 'documents/ver_1/doc_1/report.pdf', 'documents/ver_1/doc_1/img_1-front/extra', 'documents/ver_1/img_1-front', 'documents/ver_1/liveness-abc/frame-00'];
    const inventory = new FakeInventory(new Map(others.map((k) => [k, old])));
    const references = new FakeReferences(new Set());
    expect(await sweepOrphans({ imageInventory: inventory, imageReferences: references, clock })).toEqual({ examined: 0, removed: 0, unknown: 5 });
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

describe('parseImageKey', () => {
  it('reads the verification and document of a key imageKey writes', () => {
    expect(parseImageKey('documents/ver_01A/doc_01B/img_01C-back')).toEqual({ key: 'documents/ver_01A/doc_01B/img_01C-back', verificationId: 'ver_01A', documentId: 'doc_01B' });
  });
});
