import { BatchGetCommand, type DynamoDBDocumentClient, GetCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { DocumentRecord } from '../../domain/entities';
import { BadRequestError, ConflictError, InvalidStateError, NotFoundError, StaleRunError } from '../../domain/errors';
import { VerificationStatus } from '../../domain/status';
import type { DocumentRepository, DocumentWithParent } from '../../ports/verification-repository';
import { Transaction } from './transaction';
import { committedMarker } from './idempotency-store';
import { keys } from './keys';
import type { DomainEvent } from '../../events/events';
import { documentFromItem, documentRefToItem, documentToItem, outboxToItem, verificationFromItem } from './mappers';

export class DynamoDocumentRepository implements DocumentRepository {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  /** The verification must still be Started and not deleted; checked in the same transaction as the write. */
  private verificationStarted(verificationId: string) {
    return {
      ConditionCheck: {
        TableName: this.table,
        Key: keys.verification(verificationId),
        ConditionExpression: '#status = :started AND attribute_not_exists(deleted_at)',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':started': VerificationStatus.Started },
      },
    };
  }

  async create(d: DocumentRecord, events: DomainEvent[] = []): Promise<void> {
    const tx = new Transaction<'document' | 'verification'>()
      // One document per context type: the item key is (verification, context).
      .add('document', { Put: { TableName: this.table, Item: documentToItem(d), ConditionExpression: 'attribute_not_exists(PK)' } })
      .addAll([{ Put: { TableName: this.table, Item: documentRefToItem(d), ConditionExpression: 'attribute_not_exists(PK)' } }])
      .add('verification', this.verificationStarted(d.verificationId))
      .addAll(events.map((e) => ({ Put: { TableName: this.table, Item: outboxToItem(e) } })))
      .addAll(committedMarker(d.id));
    try {
      await this.db.send(new TransactWriteCommand({ TransactItems: tx.items }));
    } catch (error) {
      const failed = tx.failed(error);
      if (!failed) throw error;
      if (failed.has('document')) {
        throw new BadRequestError(`A ${d.contextType} document already exists for this verification; delete it first`);
      }
      if (failed.has('verification')) throw new InvalidStateError('Verification is not in Started status');
      throw new ConflictError();
    }
  }

  async get(id: string): Promise<DocumentWithParent | undefined> {
    const ref = await this.db.send(new GetCommand({ TableName: this.table, Key: keys.documentRef(id), ConsistentRead: true }));
    if (!ref.Item) return undefined;
    const verificationId = ref.Item.verification_id as string;
    const docKey = keys.document(verificationId, ref.Item.context_type as string);
    const out = await this.db.send(
      new BatchGetCommand({
        RequestItems: { [this.table]: { Keys: [keys.verification(verificationId), docKey], ConsistentRead: true } },
      }),
    );
    let items = out.Responses?.[this.table] ?? [];
    const unprocessed = out.UnprocessedKeys?.[this.table]?.Keys;
    if (unprocessed && unprocessed.length > 0) {
      const retry = await this.db.send(new BatchGetCommand({ RequestItems: { [this.table]: { Keys: unprocessed, ConsistentRead: true } } }));
      items = [...items, ...(retry.Responses?.[this.table] ?? [])];
    }
    const v = items.find((i) => i.entity === 'verification');
    const d = items.find((i) => i.entity === 'document' && i.id === id);
    if (!v || !d || v.deleted_at !== undefined) return undefined;
    return { document: documentFromItem(d), verification: verificationFromItem(v) };
  }

  async update(prev: DocumentRecord, next: DocumentRecord, events: DomainEvent[] = []): Promise<void> {
    const unchanged = {
      ConditionExpression: 'id = :id AND #version = :prev',
      ExpressionAttributeNames: { '#version': 'version' },
      ExpressionAttributeValues: { ':id': prev.id, ':prev': prev.version },
    };
    const moved = prev.contextType !== next.contextType;
    const outbox = events.map((e) => ({ Put: { TableName: this.table, Item: outboxToItem(e) } }));
    const tx = new Transaction<'moved' | 'verification'>();
    if (moved) {
      tx.addAll([{ Delete: { TableName: this.table, Key: keys.document(prev.verificationId, prev.contextType), ...unchanged } }])
        .add('moved', { Put: { TableName: this.table, Item: documentToItem(next), ConditionExpression: 'attribute_not_exists(PK)' } })
        .addAll([{ Put: { TableName: this.table, Item: documentRefToItem(next) } }]);
    } else {
      tx.addAll([{ Put: { TableName: this.table, Item: documentToItem(next), ...unchanged } }]);
    }
    tx.addAll(outbox).add('verification', this.verificationStarted(prev.verificationId));
    try {
      await this.db.send(new TransactWriteCommand({ TransactItems: tx.items }));
    } catch (error) {
      const failed = tx.failed(error);
      if (!failed) throw error;
      if (failed.has('verification')) throw new InvalidStateError('Verification is not in Started status');
      if (failed.has('moved')) {
        throw new BadRequestError(`A ${next.contextType} document already exists for this verification`);
      }
      throw new ConflictError('The document was changed concurrently; read it again and retry');
    }
  }

  async saveForRun(prev: DocumentRecord, next: DocumentRecord, run: number): Promise<void> {
    const tx = new Transaction<'run'>()
      .addAll([
        {
          Put: {
            TableName: this.table,
            Item: documentToItem(next),
            ConditionExpression: 'id = :id AND #version = :prev',
            ExpressionAttributeNames: { '#version': 'version' },
            ExpressionAttributeValues: { ':id': prev.id, ':prev': prev.version },
          },
        },
      ])
      .add('run', {
        ConditionCheck: {
          TableName: this.table,
          Key: keys.verification(prev.verificationId),
          ConditionExpression:
            '#run = :run AND #status IN (:submitted, :doubleCheck) AND attribute_not_exists(deleted_at) AND (attribute_not_exists(processed_run) OR processed_run < :run)',
          ExpressionAttributeNames: { '#run': 'run', '#status': 'status' },
          ExpressionAttributeValues: { ':run': run, ':submitted': VerificationStatus.Submitted, ':doubleCheck': VerificationStatus.DoubleCheck },
        },
      });
    try {
      await this.db.send(new TransactWriteCommand({ TransactItems: tx.items }));
    } catch (error) {
      const failed = tx.failed(error);
      if (!failed) throw error;
      if (failed.has('run')) throw new StaleRunError();
      throw new ConflictError('The document was changed concurrently');
    }
  }

  async delete(d: DocumentRecord, onlyIfStarted?: { verificationVersion: number }): Promise<void> {
    const tx = new Transaction<'verification'>().addAll([
      {
        Delete: {
          TableName: this.table,
          Key: keys.document(d.verificationId, d.contextType),
          ConditionExpression: 'id = :id',
          ExpressionAttributeValues: { ':id': d.id },
        },
      },
      { Delete: { TableName: this.table, Key: keys.documentRef(d.id) } },
    ]);
    if (onlyIfStarted) {
      tx.add('verification', {
        ConditionCheck: {
          TableName: this.table,
          Key: keys.verification(d.verificationId),
          ConditionExpression: '#status = :started AND #version = :version AND attribute_not_exists(deleted_at)',
          ExpressionAttributeNames: { '#status': 'status', '#version': 'version' },
          ExpressionAttributeValues: { ':started': VerificationStatus.Started, ':version': onlyIfStarted.verificationVersion },
        },
      });
    }
    try {
      await this.db.send(new TransactWriteCommand({ TransactItems: tx.items }));
    } catch (error) {
      const failed = tx.failed(error);
      if (failed?.has('verification')) throw new ConflictError('The verification changed; read it again');
      if (failed) throw new NotFoundError('Document not found');
      throw error;
    }
  }

  /** NotFoundError when the document was deleted (or replaced) since it was read: its report is of nothing. */
  async recordReportHash(d: DocumentRecord, sha256: string): Promise<void> {
    try {
      await this.db.send(
        new UpdateCommand({
          TableName: this.table,
          Key: keys.document(d.verificationId, d.contextType),
          UpdateExpression: 'SET report_sha256 = :h',
          ConditionExpression: 'id = :id',
          ExpressionAttributeValues: { ':h': sha256, ':id': d.id },
        }),
      );
    } catch (error) {
      if ((error as Error).name === 'ConditionalCheckFailedException') throw new NotFoundError('Document not found');
      throw error;
    }
  }
}
