import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { type DynamoDBDocumentClient, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ConflictError } from '../../domain/errors';
import type { CompleteRefusal, FaceLivenessRecordedResult, FaceLivenessSessionRecord, FaceLivenessSessions } from '../../ports/liveness';
import { keys } from './keys';
import { partitionItems } from './partition';

const isConditionFailure = (error: unknown) => error instanceof ConditionalCheckFailedException || (error as { name?: string })?.name === 'ConditionalCheckFailedException';

function fromItem(i: Record<string, unknown>): FaceLivenessSessionRecord {
  return {
    verificationId: i.verification_id as string,
    nonce: i.nonce as string,
    sessionHash: i.session_hash as string,
    provider: 'rekognition',
    sessionId: i.provider_session_id as string,
    region: i.provider_region as string,
    issuedAt: i.issued_at as string,
    expiresAt: i.expires_at as string,
    completedAt: (i.used_at as string | undefined) ?? null,
    result: (i.provider_result as FaceLivenessRecordedResult | undefined) ?? null,
    documentId: (i.document_id as string | undefined) ?? null,
  };
}

/**
 * Provider liveness sessions on the challenge items (keys.livenessChallenge) that
 * DynamoLivenessChallenges issues: the challenge's counter, failed-attempt limit, partition and
 * purge apply to them as they are. This adapter adds the provider's session id and region, and at
 * completion the result (status, confidence, image keys), `used_at` and `verdict` (which the limit
 * reads), in one conditional write. Items hold ids, times, a score and image keys: never an image.
 */
export class DynamoFaceLivenessSessions implements FaceLivenessSessions {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  private async challenges(verificationId: string): Promise<Record<string, unknown>[]> {
    const items = await partitionItems(this.db, this.table, keys.verificationPartition(verificationId), { sk: { between: [keys.livenessChallengePrefix, `${keys.livenessChallengePrefix}~`] } });
    return items.filter((i) => typeof i.provider_session_id === 'string');
  }

  async attach(verificationId: string, nonce: string, session: { sessionHash: string; sessionId: string; region: string }): Promise<void> {
    try {
      await this.db.send(
        new UpdateCommand({
          TableName: this.table,
          Key: keys.livenessChallenge(verificationId, nonce),
          UpdateExpression: 'SET provider = :provider, provider_session_id = :sid, provider_region = :region',
          ConditionExpression: 'attribute_exists(PK) AND session_hash = :session AND attribute_not_exists(provider_session_id) AND attribute_not_exists(used_at)',
          ExpressionAttributeValues: { ':provider': 'rekognition', ':sid': session.sessionId, ':region': session.region, ':session': session.sessionHash },
        }),
      );
    } catch (error) {
      // The challenge was issued a moment ago by this request: another writer means a conflict, retried by the caller.
      if (isConditionFailure(error)) throw new ConflictError();
      throw error;
    }
  }

  async find(verificationId: string, sessionId: string): Promise<FaceLivenessSessionRecord | undefined> {
    const found = (await this.challenges(verificationId)).find((i) => i.provider_session_id === sessionId);
    return found ? fromItem(found) : undefined;
  }

  async complete(
    verificationId: string,
    nonce: string,
    done: { sessionHash: string; sessionId: string; completedAt: string; result: FaceLivenessRecordedResult; passed: boolean; reason: string | null },
  ): Promise<{ completed: true } | { completed: false; reason: CompleteRefusal }> {
    const verdict = { passed: done.passed, reasons: done.reason ? [done.reason] : [], measures: done.result.confidence === null ? {} : { confidence: done.result.confidence } };
    try {
      await this.db.send(
        new UpdateCommand({
          TableName: this.table,
          Key: keys.livenessChallenge(verificationId, nonce),
          UpdateExpression: 'SET used_at = :now, provider_result = :result, verdict = :verdict',
          ConditionExpression: 'attribute_exists(PK) AND session_hash = :session AND provider_session_id = :sid AND attribute_not_exists(used_at)',
          ExpressionAttributeValues: { ':now': done.completedAt, ':result': done.result, ':verdict': verdict, ':session': done.sessionHash, ':sid': done.sessionId },
        }),
      );
      return { completed: true };
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
      // Which condition failed, for the answer: the write decided, this read only names it.
      const out = await this.db.send(new GetCommand({ TableName: this.table, Key: keys.livenessChallenge(verificationId, nonce), ConsistentRead: true }));
      const i = out.Item;
      const known = i && i.session_hash === done.sessionHash && i.provider_session_id === done.sessionId;
      return { completed: false, reason: known && i.used_at !== undefined ? 'session_used' : 'session_unknown' };
    }
  }

  async forDocument(verificationId: string, documentId: string): Promise<FaceLivenessSessionRecord | undefined> {
    const found = (await this.challenges(verificationId)).find((i) => i.document_id === documentId);
    return found ? fromItem(found) : undefined;
  }

  async imageKeys(verificationId: string): Promise<string[]> {
    return (await this.challenges(verificationId)).flatMap((i) => {
      const r = i.provider_result as FaceLivenessRecordedResult | undefined;
      return r ? [...(r.referenceImageKey ? [r.referenceImageKey] : []), ...r.auditImageKeys] : [];
    });
  }
}
