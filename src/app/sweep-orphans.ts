import { FACE_LIVENESS } from '../domain/liveness/provider';
import type { Clock } from '../ports/clock';
import type { ImageInventory, ImageKey, ImageReferences } from '../ports/image-inventory';
import type { FaceLivenessSessions, LivenessChallenges } from '../ports/liveness';
import { IMAGE_PREFIX } from './documents';
import { LIVENESS_LIMITS, nonceIssuedAtMs } from './liveness-challenge';

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

/**
 * The layout of a liveness check's images (src/app/liveness.ts framePrefix and providerImagePrefix):
 * a challenge's frames and a Rekognition session's reference and audit images, in the challenge's own
 * folder under the verification. Rekognition names its objects below the prefix as it likes, so any
 * key below a folder of one of our nonces is the check's.
 */
const LIVENESS_KEY = /^documents\/([^/]+)\/liveness-([^/]+)\/.+$/;

/** One image of a liveness check: the challenge (verification and nonce) whose folder holds it. */
export interface LivenessImageKey {
  key: string;
  verificationId: string;
  nonce: string;
}

/** The parts of a liveness image key, or undefined for any other key (a folder whose name is no nonce of ours among them). */
export function parseLivenessImageKey(key: string): LivenessImageKey | undefined {
  const m = LIVENESS_KEY.exec(key);
  if (!m || Number.isNaN(nonceIssuedAtMs(m[2] as string))) return undefined;
  return { key, verificationId: m[1] as string, nonce: m[2] as string };
}

/** The longest a challenge lives (a Rekognition session's 3 minutes), for a folder whose challenge item is gone. */
const LONGEST_CHALLENGE_MS = Math.max(LIVENESS_LIMITS.ttlMs, FACE_LIVENESS.sessionTtlMs);

export interface SweepOrphansDeps {
  imageInventory: ImageInventory;
  imageReferences: ImageReferences;
  clock: Clock;
  /**
   * The challenges and the Rekognition sessions on them: what names a liveness check's images.
   * Without both, liveness images are not judged (counted as unknown and left alone).
   */
  liveness?: LivenessChallenges;
  faceLivenessSessions?: FaceLivenessSessions;
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
 * removed. Keys of any other layout are counted and left alone; images of soft-deleted verifications
 * are named by their documents until the purge job removes both.
 *
 * A liveness check's images (frames of the service's challenge, a Rekognition session's reference
 * and audit images) are named by their challenge, not by a document, and judged by it
 * (livenessOrphans): a session never completed (the person closed the page, the completion call
 * never came) leaves images that nothing shows and nothing purges.
 */
export async function sweepOrphans(deps: SweepOrphansDeps, options: SweepOrphansOptions = {}): Promise<SweepOrphansResult> {
  const now = Date.parse(deps.clock.now());
  const grace = options.graceSeconds ?? ORPHAN_GRACE_SECONDS;
  const lookback = options.lookbackSeconds === undefined ? ORPHAN_LOOKBACK_SECONDS : options.lookbackSeconds;
  const before = new Date(now - grace * 1000).toISOString();
  const notBefore = lookback === null ? undefined : now - (grace + lookback) * 1000;
  const result: SweepOrphansResult = { examined: 0, removed: 0, unknown: 0 };
  const judgesLiveness = deps.liveness !== undefined && deps.faceLivenessSessions !== undefined;
  for await (const page of deps.imageInventory.storedBefore(before)) {
    const candidates: ImageKey[] = [];
    const liveness: LivenessImageKey[] = [];
    for (const image of page) {
      if (notBefore !== undefined && Date.parse(image.storedAt) < notBefore) continue;
      const parsed = parseImageKey(image.key);
      const check = parsed || !judgesLiveness ? undefined : parseLivenessImageKey(image.key);
      if (parsed) candidates.push(parsed);
      else if (check) liveness.push(check);
      else result.unknown++;
    }
    if (candidates.length === 0 && liveness.length === 0) continue;
    const named = candidates.length > 0 ? await deps.imageReferences.referenced(candidates) : new Set<string>();
    const orphans = candidates.filter((c) => !named.has(c.key)).map((c) => c.key);
    if (liveness.length > 0) orphans.push(...(await livenessOrphans(deps as LivenessSweepDeps, liveness, now, grace * 1000)));
    result.examined += candidates.length + liveness.length;
    if (orphans.length > 0) await deps.imageInventory.remove(orphans);
    result.removed += orphans.length;
  }
  return result;
}

type LivenessSweepDeps = Required<Pick<SweepOrphansDeps, 'liveness' | 'faceLivenessSessions'>>;

/**
 * The liveness images among `images` that nothing keeps. A challenge keeps the frames its accepted
 * burst names; a completed Rekognition session keeps the reference and audit images its recorded
 * result names, for as long as the challenge item lives, which is as long as the verification keeps
 * its documents (the purge removes both). Nothing is judged before the challenge's expiry plus the
 * grace: until then the frames' request or Rekognition may still be writing, and the completion may
 * still come. Past that, an image no record names goes: those of a session never completed, of a
 * challenge never used, anything Rekognition wrote that its result did not name, and every image of
 * a challenge whose item is gone (its verification purged), judged by the nonce's issue time.
 */
async function livenessOrphans(deps: LivenessSweepDeps, images: LivenessImageKey[], nowMs: number, graceMs: number): Promise<string[]> {
  const challenges = new Map<string, LivenessImageKey[]>();
  for (const image of images) {
    const id = `${image.verificationId}/${image.nonce}`;
    challenges.set(id, [...(challenges.get(id) ?? []), image]);
  }
  const providerKeys = new Map<string, Set<string>>();
  const orphans: string[] = [];
  for (const group of challenges.values()) {
    const { verificationId, nonce } = group[0] as LivenessImageKey;
    const record = await deps.liveness.get(verificationId, nonce);
    const expiresMs = record ? Date.parse(record.expiresAt) : nonceIssuedAtMs(nonce) + LONGEST_CHALLENGE_MS;
    if (!(nowMs >= expiresMs + graceMs)) continue;
    const named = new Set(record?.frames.map((f) => f.key) ?? []);
    if (record && record.usedAt !== null) {
      let keys = providerKeys.get(verificationId);
      if (!keys) {
        keys = new Set(await deps.faceLivenessSessions.imageKeys(verificationId));
        providerKeys.set(verificationId, keys);
      }
      for (const k of keys) named.add(k);
    }
    orphans.push(...group.filter((i) => !named.has(i.key)).map((i) => i.key));
  }
  return orphans;
}
