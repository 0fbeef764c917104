import { DynamoDBClient, GetItemCommand } from '@aws-sdk/client-dynamodb';
import { createClients, SDK_LOGGER } from '../../../src/clients';
import { extractionClients } from '../../../src/adapters/textract/aws-clients';
import { loadConfig } from '../../../src/config';

/** Sends a GetItem whose response is answered before the wire, counting reads of the item's attributes. */
async function readsOfOutput(logger: DynamoDBClient['config']['logger'] | undefined): Promise<number> {
  const client = new DynamoDBClient({ region: 'us-east-1', credentials: { accessKeyId: 'a', secretAccessKey: 'b' }, ...(logger && { logger }) });
  let reads = 0;
  const item = Object.defineProperty({}, 'PK', { enumerable: true, get: () => ((reads += 1), { S: 'x' }) });
  client.middlewareStack.add(() => async () => ({ output: { $metadata: {}, Item: item }, response: {} }), { step: 'serialize', name: 'answer', priority: 'high' });
  await client.send(new GetItemCommand({ TableName: 't', Key: { PK: { S: 'x' } } }));
  return reads;
}

describe("the SDK clients' logger", () => {
  it("is the service's on every client it builds: no info, so nothing is formatted for a log line nobody writes", () => {
    const config = loadConfig({ TABLE_NAME: 't', BUCKET_NAME: 'b', AWS_REGION: 'eu-west-1' });
    const clients = createClients(config);
    const { textract, rekognition } = extractionClients(config);
    for (const client of [clients.dynamo, clients.s3, clients.sfn, clients.eventBridge, clients.sqs, clients.secrets, textract, rekognition]) {
      expect(client.config.logger).toBe(SDK_LOGGER);
    }
    expect('info' in SDK_LOGGER).toBe(false);
  });

  it('keeps the SDK from walking every response to mask it for the log (the default logger does)', async () => {
    expect(await readsOfOutput(undefined)).toBeGreaterThan(0);
    expect(await readsOfOutput(SDK_LOGGER)).toBe(0);
  });
});
