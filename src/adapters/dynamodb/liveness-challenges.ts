import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { type DynamoDBDocumentClient, GetCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { LivenessVerdict } from '../../domain/liveness/types';
import { type AcceptRefusal, burstFrames, type LivenessChallengeRecord, type LivenessChallenges, type LivenessClientSignals, type StoredBurst } from '../../ports/liveness';
import type { LivenessChallenge } from '../../domain/liveness/types';
import { ConflictError } from '../../domain/errors';
import { keys } from './keys';
import { Transaction } from './transaction';
import { partitionItems } from './partition';

/*
 * The liveness items live in the verification's partition (keys.livenessChallenge, keys.livenessCounter),
 * so the purge, which removes every item of it, removes them, and the widget's functions, held to
 * `VER#…` partitions, reach them: one item per challenge (nonces sort by issue time) and one counter
 * of the challenges issued, whose conditional update makes issuing atomic. They sort after the
 * history and the list entries (`HIST#…`, `IX#…`) and before the verification item.
 */
function fromItem(i: Record<string, unknown>): LivenessChallengeRecord {
  return {
    nonce: i.nonce as string,
    verificationId: i.verification_id as string,
    sessionHash: i.session_hash as string,
    steps: i.steps as LivenessChallenge['steps'],
    issuedAt: i.issued_at as string,
    expiresAt: i.expires_at as string,
    usedAt: (i.used_at as string | undefined) ?? null,
    frames: i.frames ? burstFrames(i.frames as StoredBurst) : [],
    documentId: (i.document_id as string | undefined) ?? null,
    signals: (i.signals as LivenessClientSignals | undefined) ?? null,
    verdict: (i.verdict as LivenessVerdict | undefined) ?? null,
  };
}

const isConditionFailure = (error: unknown) => error instanceof ConditionalCheckFailedException || (error as { name?: string })?.name === 'ConditionalCheckFailedException';

/**
 * Liveness challenges in the table. Items hold ids, the drawn steps, times, frame keys and capture
 * times, the browser's camera signals and the verdict's reasons and figures: never an image or a
 * face descriptor. Issuing and using a nonce are conditional writes; nothing is read-then-written.
 */
export class DynamoLivenessChallenges implements LivenessChallenges {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  private query(verificationId: string, from: string, to: string): Promise<Record<string, unknown>[]> {
    return partitionItems(this.db, this.table, keys.verificationPartition(verificationId), { sk: { between: [from, to] } });
  }

  async recent(verificationId: string, since: string): Promise<{ challenges: LivenessChallengeRecord[]; issued: number }> {
    const sinceNonce = Date.parse(since).toString(36).padStart(10, '0');
    const [items, counter] = await Promise.all([
      this.query(verificationId, `${keys.livenessChallengePrefix}${sinceNonce}`, `${keys.livenessChallengePrefix}~`),
      this.db.send(new GetCommand({ TableName: this.table, Key: keys.livenessCounter(verificationId), ConsistentRead: true })),
    ]);
    return { challenges: items.map(fromItem), issued: Number(counter.Item?.issued ?? 0) };
  }

  async issue(c: LivenessChallenge, issued: number): Promise<boolean> {
    const tx = new Transaction<'counter' | 'challenge'>()
      .add('counter', {
        Update: {
          TableName: this.table,
          Key: keys.livenessCounter(c.verificationId),
          UpdateExpression: 'SET issued = :next, entity = :entity',
          ConditionExpression: issued === 0 ? 'attribute_not_exists(issued) OR issued = :issued' : 'issued = :issued',
          ExpressionAttributeValues: { ':next': issued + 1, ':issued': issued, ':entity': 'livenessCounter' },
        },
      })
      .add('challenge', {
        Put: {
          TableName: this.table,
          Item: {
            ...keys.livenessChallenge(c.verificationId, c.nonce),
            entity: 'livenessChallenge',
            nonce: c.nonce,
            verification_id: c.verificationId,
            session_hash: c.sessionHash,
            steps: c.steps,
            issued_at: c.issuedAt,
            expires_at: c.expiresAt,
          },
          ConditionExpression: 'attribute_not_exists(PK)',
        },
      });
    try {
      await this.db.send(new TransactWriteCommand({ TransactItems: tx.items }));
      return true;
    } catch (error) {
      const failed = tx.failed(error);
      if (failed === undefined) throw error;
      if (failed.has('counter')) return false;
      // A conflicting transaction (another issue at the same moment): the caller reads again.
      if (failed.size === 0) return false;
      throw new ConflictError();
    }
  }

  async get(verificationId: string, nonce: string): Promise<LivenessChallengeRecord | undefined> {
    const out = await this.db.send(new GetCommand({ TableName: this.table, Key: keys.livenessChallenge(verificationId, nonce), ConsistentRead: true }));
    return out.Item ? fromItem(out.Item) : undefined;
  }

  async accept(
    verificationId: string,
    nonce: string,
    use: { sessionHash: string; usedAt: string; frames: StoredBurst; signals: LivenessClientSignals },
  ): Promise<{ accepted: true } | { accepted: false; reason: AcceptRefusal }> {
    try {
      await this.db.send(
        new UpdateCommand({
          TableName: this.table,
          Key: keys.livenessChallenge(verificationId, nonce),
          UpdateExpression: 'SET used_at = :now, frames = :frames, signals = :signals',
          ConditionExpression: 'attribute_exists(PK) AND session_hash = :session AND attribute_not_exists(used_at) AND expires_at > :now',
          ExpressionAttributeValues: { ':now': use.usedAt, ':frames': use.frames, ':signals': use.signals, ':session': use.sessionHash },
        }),
      );
      return { accepted: true };
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
      // Which condition failed, for the answer: the write decided, this read only names it.
      const found = await this.get(verificationId, nonce);
      const reason: AcceptRefusal = !found || found.sessionHash !== use.sessionHash ? 'nonce_unknown' : found.usedAt !== null ? 'nonce_used' : 'nonce_expired';
      return { accepted: false, reason };
    }
  }

  async bindDocument(verificationId: string, nonce: string, documentId: string): Promise<void> {
    await this.db.send(
      new UpdateCommand({
        TableName: this.table,
        Key: keys.livenessChallenge(verificationId, nonce),
        UpdateExpression: 'SET document_id = :doc',
        ConditionExpression: 'attribute_exists(used_at)',
        ExpressionAttributeValues: { ':doc': documentId },
      }),
    );
  }

  async forDocument(verificationId: string, documentId: string): Promise<LivenessChallengeRecord | undefined> {
    const items = await this.query(verificationId, keys.livenessChallengePrefix, `${keys.livenessChallengePrefix}~`);
    const found = items.find((i) => i.document_id === documentId);
    return found ? fromItem(found) : undefined;
  }

  async recordVerdict(verificationId: string, nonce: string, verdict: LivenessVerdict): Promise<void> {
    await this.db.send(
      new UpdateCommand({
        TableName: this.table,
        Key: keys.livenessChallenge(verificationId, nonce),
        UpdateExpression: 'SET verdict = :verdict',
        ConditionExpression: 'attribute_exists(PK)',
        ExpressionAttributeValues: { ':verdict': verdict },
      }),
    );
  }

  async frameKeys(verificationId: string): Promise<string[]> {
    const items = await this.query(verificationId, keys.livenessChallengePrefix, `${keys.livenessChallengePrefix}~`);
    return items.flatMap((i) => (i.frames ? burstFrames(i.frames as StoredBurst) : []).map((f) => f.key));
  }
}
