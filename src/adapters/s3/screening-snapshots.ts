import { GetObjectCommand, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import type { ListId, ListSnapshot } from '../../domain/screening/types';
import type { SnapshotStore, StoredSnapshot } from '../../ports/screening-snapshots';

/** Where the lists' snapshots are in their bucket: one folder per list, one per fetched version, and the pointer to the newest. */
export const SNAPSHOT_PREFIX = 'lists/';
const pointerKey = (list: ListId) => `${SNAPSHOT_PREFIX}${list}/newest.json`;

const isMissing = (error: unknown) => ['NoSuchKey', 'NotFound'].includes((error as { name?: string })?.name ?? '');

/**
 * The snapshots in S3: each fetched version under `lists/<list>/<asOf>/<stored at>/` (the publisher's
 * files as fetched, and the parsed snapshot), never overwritten; `lists/<list>/newest.json` names the
 * newest valid one and is written last, so a reader never sees a half-stored version. The bucket is
 * versioned too (lib/screening-lists.ts).
 */
export class S3SnapshotStore implements SnapshotStore {
  constructor(
    private readonly s3: S3Client,
    private readonly bucket: string,
  ) {}

  private async text(key: string): Promise<string> {
    const out = await this.s3.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
    return (await out.Body?.transformToString('utf8')) ?? '';
  }

  private write(key: string, body: string, contentType: string): Promise<unknown> {
    return this.s3.send(new PutObjectCommand({ Bucket: this.bucket, Key: key, Body: body, ContentType: contentType }));
  }

  async newest(list: ListId): Promise<StoredSnapshot | undefined> {
    try {
      return JSON.parse(await this.text(pointerKey(list))) as StoredSnapshot;
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
  }

  async read(stored: StoredSnapshot): Promise<ListSnapshot> {
    return JSON.parse(await this.text(stored.key)) as ListSnapshot;
  }

  async put(snapshot: ListSnapshot, files: Readonly<Record<string, string>>, storedAt: string): Promise<StoredSnapshot> {
    const folder = `${SNAPSHOT_PREFIX}${snapshot.list}/${snapshot.asOf}/${storedAt.replace(/[^0-9TZ]/g, '')}/`;
    for (const [name, body] of Object.entries(files)) await this.write(`${folder}source-${name.replace(/[^a-z0-9-]/gi, '_')}`, body, 'text/plain; charset=utf-8');
    await this.write(`${folder}snapshot.json`, JSON.stringify(snapshot), 'application/json');
    const stored: StoredSnapshot = { list: snapshot.list, asOf: snapshot.asOf, entries: snapshot.entries.length, storedAt, key: `${folder}snapshot.json` };
    await this.write(pointerKey(snapshot.list), JSON.stringify(stored), 'application/json');
    return stored;
  }
}
