import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, type DynamoDBDocumentClient, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { DocumentIndex, DocumentIndexEntry } from '../../ports/document-index';
import { keys } from './keys';
import { partitionItems } from './partition';

/** The duplicate-document index in the table (docs/reference/data-model.md): a conditional put per verification, a Query per lookup. */
export class DynamoDocumentIndex implements DocumentIndex {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  async register(e: DocumentIndexEntry): Promise<void> {
    // The back-reference first: a crash between the two puts leaves a reference to nothing (the purge
    // skips it), never an entry the purge cannot find.
    await this.db.send(
      new PutCommand({ TableName: this.table, Item: { ...keys.documentSeenBy(e.verificationId, e.flow, e.fingerprint), entity: 'documentSeenBy', flow: e.flow, fingerprint: e.fingerprint } }),
    );
    try {
      await this.db.send(
        new PutCommand({
          TableName: this.table,
          Item: { ...keys.documentSeen(e.flow, e.fingerprint, e.verificationId), entity: 'documentSeen', verification_id: e.verificationId, document_id: e.documentId, created_at: e.createdAt },
          // A retried task or a rerun registers the same verification again: the first entry stays.
          ConditionExpression: 'attribute_not_exists(PK)',
        }),
      );
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
    }
  }

  async find(flow: string, fingerprint: string, limit: number): Promise<{ verificationId: string; documentId: string }[]> {
    const out = await this.db.send(
      new QueryCommand({
        TableName: this.table,
        KeyConditionExpression: 'PK = :pk',
        ExpressionAttributeValues: { ':pk': keys.documentSeenPartition(flow, fingerprint) },
        ConsistentRead: true,
        Limit: limit,
      }),
    );
    return (out.Items ?? []).map((i) => ({ verificationId: i.verification_id as string, documentId: i.document_id as string }));
  }

  async removeVerification(verificationId: string): Promise<void> {
    for (const ref of await partitionItems(this.db, this.table, keys.documentSeenByPartition(verificationId))) {
      // The entry, then its reference: an interrupted purge finds the reference again next time.
      await this.db.send(new DeleteCommand({ TableName: this.table, Key: keys.documentSeen(String(ref.flow), String(ref.fingerprint), verificationId) }));
      await this.db.send(new DeleteCommand({ TableName: this.table, Key: { PK: ref.PK, SK: ref.SK } }));
    }
  }
}
