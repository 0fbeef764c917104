import { SendMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';
import type { DeliveryJob, DeliveryQueue } from '../../ports/webhooks';

/** SQS delivery queue: the retry schedule is the message delay (at most 900 s, SQS's limit). */
export class SqsDeliveryQueue implements DeliveryQueue {
  constructor(
    private readonly client: SQSClient,
    private readonly queueUrl: string,
    private readonly deadLetterUrl: string,
  ) {}

  async enqueue(job: DeliveryJob, delaySeconds: number): Promise<void> {
    await this.client.send(
      new SendMessageCommand({ QueueUrl: this.queueUrl, MessageBody: JSON.stringify(job), DelaySeconds: Math.min(900, Math.max(0, Math.round(delaySeconds))) }),
    );
  }

  async deadLetter(job: DeliveryJob, reason: string): Promise<void> {
    await this.client.send(new SendMessageCommand({ QueueUrl: this.deadLetterUrl, MessageBody: JSON.stringify({ ...job, reason }) }));
  }
}
