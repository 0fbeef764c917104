import { DynamoDBClient, GetItemCommand } from '@aws-sdk/client-dynamodb';
import { translateUnavailable } from '../../../src/clients';
import { ServiceUnavailableError } from '../../../src/domain/errors';
import { toErrorResponse } from '../../../src/http/errors';

function failingClient(name: string): DynamoDBClient {
  const client = new DynamoDBClient({ region: 'us-east-1', maxAttempts: 1, credentials: { accessKeyId: 'a', secretAccessKey: 'b' } });
  translateUnavailable(client);
  client.middlewareStack.add(
    () => async () => {
      throw Object.assign(new Error(name), { name, $metadata: {} });
    },
    { step: 'finalizeRequest', name: 'fail' },
  );
  return client;
}

describe('faults of the backing services', () => {
  it('turn DynamoDB throttling, after retries, into a clear 503', async () => {
    const error = await failingClient('ProvisionedThroughputExceededException').send(new GetItemCommand({ TableName: 't', Key: { PK: { S: 'x' } } })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServiceUnavailableError);
    expect(toErrorResponse(error)).toMatchObject({ statusCode: 503, body: { message: 'The service is busy; retry in a moment' } });
  });

  it('leave other errors as they are', async () => {
    const error = await failingClient('ValidationException').send(new GetItemCommand({ TableName: 't', Key: { PK: { S: 'x' } } })).catch((e: unknown) => e);
    expect((error as Error).name).toBe('ValidationException');
  });
});

describe('an unreachable backing service', () => {
  it('answers 503, not 500, when nothing listens on the endpoint (DynamoDB stopped)', async () => {
    const { freePort } = await import('../../../local/ports');
    const port = await freePort();
    const client = new DynamoDBClient({ region: 'us-east-1', endpoint: `http://127.0.0.1:${port}`, maxAttempts: 1, credentials: { accessKeyId: 'a', secretAccessKey: 'b' } });
    translateUnavailable(client);
    const error = await client.send(new GetItemCommand({ TableName: 't', Key: { PK: { S: 'x' } } })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServiceUnavailableError);
    expect(toErrorResponse(error)).toMatchObject({ statusCode: 503, body: { message: 'The service is busy; retry in a moment' } });
  });
});
