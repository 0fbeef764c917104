import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { deliverWebhook } from '../../src/app/webhooks';
import { getDeps } from '../../src/container';
import { logger, withLambdaContext } from '../../src/logger';
import type { DeliveryJob } from '../../src/ports/webhooks';
import { ENTRY_PORTS } from '../../src/entries';

/** Consumer of the delivery queue: one attempt per message; failures of our own are retried by SQS. */
export const handler = withLambdaContext(async (event: SQSEvent): Promise<SQSBatchResponse> => {
  const deps = await getDeps(ENTRY_PORTS['events/deliver-webhook']);
  const batchItemFailures: { itemIdentifier: string }[] = [];
  for (const record of event.Records) {
    try {
      await deliverWebhook(deps, JSON.parse(record.body) as DeliveryJob);
    } catch (error) {
      logger.error('webhook delivery failed', { messageId: record.messageId, errorName: (error as Error).name });
      batchItemFailures.push({ itemIdentifier: record.messageId });
    }
  }
  return { batchItemFailures };
});
