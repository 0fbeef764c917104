import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { ExecutionAlreadyExists, SFNClient, StartExecutionCommand } from '@aws-sdk/client-sfn';
import { DeleteObjectsCommand, GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { DynamoDBDocumentClient, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { EventBridgeClient, PutEventsCommand } from '@aws-sdk/client-eventbridge';
import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { EventBridgePublisher } from '../../../src/adapters/eventbridge/event-publisher';
import { SqsDeliveryQueue } from '../../../src/adapters/sqs/delivery-queue';
import { DynamoDocumentRepository } from '../../../src/adapters/dynamodb/document-repository';
import { DynamoVerificationRepository } from '../../../src/adapters/dynamodb/verification-repository';
import { Transaction } from '../../../src/adapters/dynamodb/transaction';
import { S3BlobStore } from '../../../src/adapters/s3/blob-store';
import { SfnWorkflowStarter, executionName } from '../../../src/adapters/sfn/workflow-starter';
import type { DocumentRecord, VerificationChange } from '../../../src/domain/entities';
import { emptyExpectedData } from '../../../src/domain/expected-data';
import { BadRequestError, ConflictError, InvalidStateError } from '../../../src/domain/errors';

const cancelled = (codes: string[]) =>
  new TransactionCanceledException({ message: 'cancelled', $metadata: {}, CancellationReasons: codes.map((Code) => ({ Code })) });

describe('SfnWorkflowStarter', () => {
  const sfn = mockClient(SFNClient);
  beforeEach(() => sfn.reset());

  it('names the execution after the verification and run, and passes them as input', async () => {
    sfn.on(StartExecutionCommand).resolves({ executionArn: 'arn' });
    await new SfnWorkflowStarter(new SFNClient({}), 'arn:sm').start({ verificationId: 'ver_1', run: 2 });
    expect(sfn.commandCalls(StartExecutionCommand)[0]!.args[0].input).toEqual({
      stateMachineArn: 'arn:sm',
      name: 'ver_1-run-2',
      input: JSON.stringify({ verificationId: 'ver_1', run: 2 }),
    });
    expect(executionName('ver_1', 2)).toBe('ver_1-run-2');
  });

  it('treats ExecutionAlreadyExists as success and rethrows other errors', async () => {
    sfn.on(StartExecutionCommand).rejectsOnce(new ExecutionAlreadyExists({ message: 'exists', $metadata: {} })).rejectsOnce(new Error('boom'));
    const starter = new SfnWorkflowStarter(new SFNClient({}), 'arn:sm');
    await expect(starter.start({ verificationId: 'v', run: 1 })).resolves.toBeUndefined();
    await expect(starter.start({ verificationId: 'v', run: 1 })).rejects.toThrow('boom');
  });
});

describe('DynamoDB adapters translate conditional failures into domain errors', () => {
  const ddb = mockClient(DynamoDBDocumentClient);
  const doc = DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'us-east-1' }));
  beforeEach(() => ddb.reset());

  const document: DocumentRecord = {
    id: 'doc_1', verificationId: 'ver_1', flow: 'default', contextType: 'PHOTO_ID', typeId: 1, country: 'FRA', status: 1,
    front: { key: 'documents/ver_1/doc_1/f', contentType: 'image/png' }, back: null, extractedData: null, extractionConfidence: null, rules: null,
    decisions: [], reportSha256: null, createdAt: 'c', updatedAt: 'c', version: 1,
  };

  it('document create: existing context → 400, verification no longer Started → 400 invalid state', async () => {
    const repo = new DynamoDocumentRepository(doc, 'T');
    ddb.on(TransactWriteCommand).rejectsOnce(cancelled(['ConditionalCheckFailed', 'None', 'None'])).rejectsOnce(cancelled(['None', 'None', 'ConditionalCheckFailed']));
    await expect(repo.create(document)).rejects.toBeInstanceOf(BadRequestError);
    await expect(repo.create(document)).rejects.toBeInstanceOf(InvalidStateError);
    const items = ddb.commandCalls(TransactWriteCommand)[0]!.args[0].input.TransactItems!;
    expect(items[0]!.Put!.Item).toMatchObject({ PK: 'VER#ver_1', SK: 'DOC#PHOTO_ID', entity: 'document' });
    expect(items[1]!.Put!.Item).toMatchObject({ PK: 'DOCREF#doc_1', verification_id: 'ver_1' });
    expect(items[2]!.ConditionCheck!.Key).toEqual({ PK: 'VER#ver_1', SK: 'VER' });
  });

  it('document update: failures are told apart by item, whatever outbox rows sit in between', async () => {
    const repo = new DynamoDocumentRepository(doc, 'T');
    const moved: DocumentRecord = { ...document, contextType: 'PROOF_OF_ADDRESS', version: 2 };
    // Moved to another context: delete the old item, put the new one and its ref, two outbox rows, the verification check.
    ddb.on(TransactWriteCommand)
      .rejectsOnce(cancelled(['None', 'None', 'None', 'None', 'None', 'ConditionalCheckFailed']))
      .rejectsOnce(cancelled(['None', 'ConditionalCheckFailed', 'None', 'None', 'None', 'None']))
      .rejectsOnce(cancelled(['ConditionalCheckFailed', 'None', 'None', 'None', 'None', 'None']));
    const twoEvents = [1, 2].map((n) => ({ type: 'DocumentUpdated', detail: { id: `e${n}`, created_at: 'c' } })) as unknown as NonNullable<Parameters<typeof repo.update>[2]>;
    await expect(repo.update(document, moved, twoEvents)).rejects.toBeInstanceOf(InvalidStateError);
    await expect(repo.update(document, moved, twoEvents)).rejects.toThrow('A PROOF_OF_ADDRESS document already exists');
    await expect(repo.update(document, moved, twoEvents)).rejects.toBeInstanceOf(ConflictError);
    expect(ddb.commandCalls(TransactWriteCommand)[0]!.args[0].input.TransactItems).toHaveLength(6);
  });

  it('verification save: a lost version race is a ConflictError; other errors pass through', async () => {
    const repo = new DynamoVerificationRepository(doc, 'T');
    const change: VerificationChange = {
      verification: {
        id: 'ver_1', flow: 'default', vendorReference: null, vendorState: null, expectedData: emptyExpectedData(), status: 3,
        submittedAt: null, createdAt: 'c', updatedAt: 'u', version: 5, run: 0, processedRun: 0, comments: [], expiresAt: 'e',
      },
      previous: {
        id: 'ver_1', flow: 'default', vendorReference: null, vendorState: null, expectedData: emptyExpectedData(), status: 3,
        submittedAt: null, createdAt: 'c', updatedAt: 'u', version: 4, run: 0, processedRun: 0, comments: [], expiresAt: 'e',
      },
      expectedVersion: 4,
      documents: [{ ...document, version: 2 }],
      requiredDocuments: [],
      history: [],
      startWorkflow: false,
    };
    ddb.on(TransactWriteCommand).rejectsOnce(cancelled(['ConditionalCheckFailed', 'None'])).rejectsOnce(new Error('throttled'));
    await expect(repo.save(change)).rejects.toBeInstanceOf(ConflictError);
    await expect(repo.save(change)).rejects.toThrow('throttled');
    const input = ddb.commandCalls(TransactWriteCommand)[0]!.args[0].input;
    expect(input.TransactItems![0]!.Put!.ExpressionAttributeValues).toEqual({ ':expected': 4, ':before': 3 });
    expect(input.TransactItems![1]!.Put!.ExpressionAttributeValues).toEqual({ ':id': 'doc_1', ':prev': 1 });
  });
});

describe('S3BlobStore', () => {
  const s3 = mockClient(S3Client);
  beforeEach(() => s3.reset());

  it('logs instead of throwing when a cleanup delete fails, and never logs more than keys', async () => {
    s3.on(DeleteObjectsCommand).rejects(new Error('denied'));
    const errors: unknown[][] = [];
    const client = new S3Client({ region: 'us-east-1' });
    const store = new S3BlobStore(client, client, 'bucket', { error: (...args: unknown[]) => errors.push(args) } as never);
    await expect(store.delete(['documents/a'])).resolves.toBeUndefined();
    expect(errors).toEqual([['S3 delete failed', { keys: ['documents/a'], error: 'Error' }]]);
  });

  it.each([
    ['AWS (virtual-hosted)', { region: 'eu-west-1' }],
    ['a local endpoint with a path prefix', { region: 'us-east-1', endpoint: 'http://127.0.0.1:3000/s3', forcePathStyle: true }],
  ])('signs exactly the URL the SDK would, for %s', async (_label, options) => {
    const client = new S3Client({ ...options, credentials: { accessKeyId: 'AKID', secretAccessKey: 'secret' }, requestChecksumCalculation: 'WHEN_REQUIRED', responseChecksumValidation: 'WHEN_REQUIRED' });
    const store = new S3BlobStore(client, client, 'images', { error: () => {} } as never);
    const signingDate = new Date('2026-03-04T05:06:07Z');
    for (const key of ['documents/ver_1/doc_1/img_1-front', "odd key/with spaces+plus(1)*'!"]) {
      const sdk = await getSignedUrl(client, new GetObjectCommand({ Bucket: 'images', Key: key }), { expiresIn: 1800, signingDate });
      expect(await store.signedGetUrl(key, 1800, signingDate)).toBe(sdk);
    }
  });

  it('signs GET links with the requested lifetime', async () => {
    const client = new S3Client({ region: 'eu-west-1', credentials: { accessKeyId: 'AKID', secretAccessKey: 'secret' } });
    const store = new S3BlobStore(client, client, 'bucket', { error: () => {} } as never);
    const url = new URL(await store.signedGetUrl('documents/x', 1800));
    expect(url.searchParams.get('X-Amz-Expires')).toBe('1800');
    expect(url.pathname).toBe('/documents/x');
    expect(url.hostname).toBe('bucket.s3.eu-west-1.amazonaws.com');
  });
});

describe('EventBridgePublisher and SqsDeliveryQueue', () => {
  const eb = mockClient(EventBridgeClient);
  const sqs = mockClient(SQSClient);
  beforeEach(() => {
    eb.reset();
    sqs.reset();
  });
  const event = (i: number) => ({ type: 'VerificationFinished' as const, detail: { id: `evt_${i}`, type: 'VerificationFinished' as const, created_at: 't', flow: 'default', data: {} } });

  it('puts events on the named bus in batches of 10 and throws on a partial failure', async () => {
    eb.on(PutEventsCommand).resolvesOnce({ FailedEntryCount: 0 }).resolvesOnce({ FailedEntryCount: 0 }).resolves({ FailedEntryCount: 1, Entries: [{ ErrorCode: 'InternalFailure' }] });
    const publisher = new EventBridgePublisher(new EventBridgeClient({}), 'idv-bus');
    await publisher.publish(Array.from({ length: 11 }, (_, i) => event(i)));
    const calls = eb.commandCalls(PutEventsCommand);
    expect(calls.map((c) => c.args[0].input.Entries!.length)).toEqual([10, 1]);
    expect(calls[0]!.args[0].input.Entries![0]).toEqual({ EventBusName: 'idv-bus', Source: 'idv.verifications', DetailType: 'VerificationFinished', Detail: JSON.stringify(event(0).detail) });
    await expect(publisher.publish([event(1)])).rejects.toThrow('InternalFailure');
  });

  it('turns retry delays into SQS message delays (whole seconds, at most 900) and dead-letters with a reason', async () => {
    sqs.on(SendMessageCommand).resolves({});
    const queue = new SqsDeliveryQueue(new SQSClient({}), 'q-url', 'dlq-url');
    const job = { flow: 'default', webhookId: 'whk_1', deliveryId: 'dlv_1' };
    await queue.enqueue(job, 44.6);
    await queue.enqueue(job, 5000);
    await queue.deadLetter(job, 'gave up');
    expect(sqs.commandCalls(SendMessageCommand).map((c) => [c.args[0].input.QueueUrl, c.args[0].input.DelaySeconds, c.args[0].input.MessageBody])).toEqual([
      ['q-url', 45, JSON.stringify(job)],
      ['q-url', 900, JSON.stringify(job)],
      ['dlq-url', undefined, JSON.stringify({ ...job, reason: 'gave up' })],
    ]);
  });
});

describe('Transaction', () => {
  it('reports failed conditions by the names of their items, unnamed items and other errors apart', () => {
    const put = (pk: string) => ({ Put: { TableName: 'T', Item: { PK: pk, SK: pk } } });
    const tx = new Transaction<'head' | 'guard'>().add('head', put('a')).addAll([put('b'), put('c')]).add('guard', put('d'));
    expect(tx.items.map((i) => i.Put?.Item?.PK)).toEqual(['a', 'b', 'c', 'd']);
    expect(tx.failed(cancelled(['None', 'None', 'None', 'ConditionalCheckFailed']))).toEqual(new Set(['guard']));
    expect(tx.failed(cancelled(['ConditionalCheckFailed', 'ConditionalCheckFailed', 'None', 'None']))).toEqual(new Set(['head']));
    expect(tx.failed(cancelled(['None', 'TransactionConflict', 'None', 'None']))).toEqual(new Set());
    expect(tx.failed(new Error('throttled'))).toBeUndefined();
  });
});
