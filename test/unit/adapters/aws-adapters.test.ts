import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { ExecutionAlreadyExists, SFNClient, StartExecutionCommand } from '@aws-sdk/client-sfn';
import { DeleteObjectsCommand, S3Client } from '@aws-sdk/client-s3';
import { DynamoDBDocumentClient, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { DynamoDocumentRepository } from '../../../src/adapters/dynamodb/document-repository';
import { DynamoVerificationRepository } from '../../../src/adapters/dynamodb/verification-repository';
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

  it('verification save: a lost version race is a ConflictError; other errors pass through', async () => {
    const repo = new DynamoVerificationRepository(doc, 'T');
    const change: VerificationChange = {
      verification: {
        id: 'ver_1', flow: 'default', vendorReference: null, vendorState: null, expectedData: emptyExpectedData(), status: 3,
        submittedAt: null, createdAt: 'c', updatedAt: 'u', version: 5, run: 0, comments: [],
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
    expect(input.TransactItems![0]!.Put!.ExpressionAttributeValues).toEqual({ ':expected': 4 });
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

  it('signs GET links with the requested lifetime', async () => {
    const client = new S3Client({ region: 'eu-west-1', credentials: { accessKeyId: 'AKID', secretAccessKey: 'secret' } });
    const store = new S3BlobStore(client, client, 'bucket', { error: () => {} } as never);
    const url = new URL(await store.signedGetUrl('documents/x', 1800));
    expect(url.searchParams.get('X-Amz-Expires')).toBe('1800');
    expect(url.pathname).toBe('/documents/x');
    expect(url.hostname).toBe('bucket.s3.eu-west-1.amazonaws.com');
  });
});
