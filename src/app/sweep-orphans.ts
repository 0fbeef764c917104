import type { Clock } from '../ports/clock';
import type { ImageInventory, ImageKey, ImageReferences } from '../ports/image-inventory';
import { IMAGE_PREFIX } from './documents';

/**
 * How old an unreferenced image must be before the sweep removes it: 1 hour. An upload writes its
 * images, then commits the document that names them, within one request: at most the function's
 * timeout deployed (30 s for the API, and no Lambda runs longer than 15 min), at most the request
 * budget locally. An hour is four times the longest a Lambda can run, so the images of an upload
 * still in flight are never touched, and an orphan lives at most an hour plus the sweep interval.
 */
export const ORPHAN_GRACE_SECONDS = 3600;

/**
 * How far back past the grace a scheduled run looks: 7 days. Listing is cheap, reading the table
 * for every stored image is not, so a daily run reads each image's record about seven times in its
 * life (six failed runs in a row still miss none) instead of every day forever. An operator runs it
 * once over every age (`lookbackSeconds: null`) after an incident older than that.
 */
export const ORPHAN_LOOKBACK_SECONDS = 7 * 24 * 3600;

/** The layout imageKey (./documents) writes; anything else in the bucket is not ours to judge. */
const IMAGE_KEY = /^documents\/([^/]+)\/([^/]+)\/[^/]+-(?:front|back)$/;

/** The parts of an image key as the service writes it, or undefined for a key of any other kind. */
export function parseImageKey(key: string): ImageKey | undefined {
  if (!key.startsWith(IMAGE_PREFIX)) return undefined;
  const m = IMAGE_KEY.exec(key);
  return m ? { key, verificationId: m[1] as string, documentId: m[2] as string } : undefined;
}

export interface SweepOrphansDeps {
  imageInventory: ImageInventory;
  imageReferences: ImageReferences;
  clock: Clock;
}

export interface SweepOrphansOptions {
  graceSeconds?: number;
  /** Past the grace; null looks at every age. */
  lookbackSeconds?: number | null;
}

export interface SweepOrphansResult {
  /** Images old enough that were checked against the table. */
  examined: number;
  /** Images no record names, removed. */
  removed: number;
  /** Keys of a layout the service does not write: left alone. */
  unknown: number;
}

/**
 * The orphan-image sweep. An image can outlive the record that should name it: a crash between
 * the image write and the table write of an upload (create or update document), a crash after a
 * document's deletion or replacement committed but before its images were removed, a compensation
 * delete that failed. Each stored image older than the grace whose document does not name it is
 * removed. Keys of any other layout (a liveness challenge's frames, named by their challenge and not
 * by a document, among them) are counted and left alone; images of soft-deleted verifications
 * are named by their documents until the purge job removes both.
 */
export async function sweepOrphans(deps: SweepOrphansDeps, options: SweepOrphansOptions = {}): Promise<SweepOrphansResult> {
  const now = Date.parse(deps.clock.now());
  const grace = options.graceSeconds ?? ORPHAN_GRACE_SECONDS;
  const lookback = options.lookbackSeconds === undefined ? ORPHAN_LOOKBACK_SECONDS : options.lookbackSeconds;
  const before = new Date(now - grace * 1000).toISOString();
  const notBefore = lookback === null ? undefined : now - (grace + lookback) * 1000;
  const result: SweepOrphansResult = { examined: 0, removed: 0, unknown: 0 };
  for await (const page of deps.imageInventory.storedBefore(before)) {
    const candidates: ImageKey[] = [];
    for (const image of page) {
      if (notBefore !== undefined && Date.parse(image.storedAt) < notBefore) continue;
      const parsed = parseImageKey(image.key);
      if (parsed) candidates.push(parsed);
      else result.unknown++;
    }
    if (candidates.length === 0) continue;
    const named = await deps.imageReferences.referenced(candidates);
    const orphans = candidates.filter((c) => !named.has(c.key)).map((c) => c.key);
    result.examined += candidates.length;
    if (orphans.length > 0) await deps.imageInventory.remove(orphans);
    result.removed += orphans.length;
  }
  return result;
}
