import { GetItemCommand } from '@aws-sdk/client-dynamodb';
import { createClients, dynamoMetrics } from '../../../src/clients';
import { loadConfig } from '../../../src/config';

/** The benchmark's request counter (IDV_DYNAMODB_METRICS=true), answered before the wire. */
async function send(): Promise<{ consumedCapacity: string | undefined }> {
  const { dynamo } = createClients(loadConfig({ TABLE_NAME: 't', BUCKET_NAME: 'b', AWS_REGION: 'eu-west-1', IDV_DYNAMODB_METRICS: 'true' }), { accessKeyId: 'a', secretAccessKey: 'b' });
  let consumedCapacity: string | undefined;
  dynamo.middlewareStack.add(
    () => async (args) => {
      consumedCapacity = (args.input as { ReturnConsumedCapacity?: string }).ReturnConsumedCapacity;
      return { output: { $metadata: {}, Item: { PK: { S: 'x' } }, ConsumedCapacity: { CapacityUnits: 0.5 } }, response: {} };
    },
    { step: 'serialize', name: 'answer', priority: 'high' },
  );
  await dynamo.send(new GetItemCommand({ TableName: 't', Key: { PK: { S: 'x' } } }));
  return { consumedCapacity };
}

describe("the benchmark's DynamoDB request counter", () => {
  afterEach(() => {
    dynamoMetrics.counting = true;
    dynamoMetrics.reset();
  });

  it('counts requests and asks for their capacity while counting', async () => {
    dynamoMetrics.reset();
    expect(await send()).toEqual({ consumedCapacity: 'TOTAL' });
    expect([dynamoMetrics.requests, dynamoMetrics.itemsRead, dynamoMetrics.capacityUnits]).toEqual([1, 1, 0.5]);
  });

  it('leaves requests as the service sends them while the throughput is measured', async () => {
    dynamoMetrics.reset();
    dynamoMetrics.counting = false;
    expect(await send()).toEqual({ consumedCapacity: undefined });
    expect(dynamoMetrics.requests).toBe(0);
  });
});
