import { randomUUID } from 'node:crypto';
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import type { DeliveryJob, DeliveryQueue } from '../../ports/webhooks';

type Consumer = (event: SQSEvent) => Promise<SQSBatchResponse | void>;

/**
 * The local stand-in for the SQS delivery queue and its dead-letter queue: delays become timers
 * (multiplied by `timeScale`, so tests run the real schedule in milliseconds), and the consumer is
 * the same Lambda handler, called with an SQS event; a reported failure is redelivered.
 */
export class LocalDeliveryQueue implements DeliveryQueue {
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly running = new Set<Promise<void>>();
  readonly deadLetters: (DeliveryJob & { reason: string })[] = [];
  private consumer: Consumer | undefined;

  constructor(private readonly timeScale = 1) {}

  /** Set once the handler module is loaded (it imports the container, which uses this queue). */
  consumeWith(consumer: Consumer): void {
    this.consumer = consumer;
  }

  async enqueue(job: DeliveryJob, delaySeconds: number, receiveCount = 1): Promise<void> {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      const run = this.consume(job, receiveCount);
      this.running.add(run);
      void run.finally(() => this.running.delete(run));
    }, delaySeconds * 1000 * this.timeScale);
    this.timers.add(timer);
  }

  private async consume(job: DeliveryJob, receiveCount: number): Promise<void> {
    const messageId = randomUUID();
    const event = {
      Records: [{ messageId, receiptHandle: messageId, body: JSON.stringify(job), attributes: { ApproximateReceiveCount: String(receiveCount) } }],
    } as unknown as SQSEvent;
    let failed = false;
    try {
      const out = await this.consumer?.(event);
      failed = (out?.batchItemFailures.length ?? 0) > 0;
    } catch {
      failed = true;
    }
    // Like a redrive policy: redelivered after the visibility timeout, at most 5 receives.
    if (failed && receiveCount < 5) await this.enqueue(job, 30, receiveCount + 1);
    else if (failed) await this.deadLetter(job, 'consumer failed 5 times');
  }

  async deadLetter(job: DeliveryJob, reason: string): Promise<void> {
    this.deadLetters.push({ ...job, reason });
  }

  /** Resolves once nothing is queued or running (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.timers.size > 0 || this.running.size > 0) {
      await new Promise((r) => setTimeout(r, 5));
      await Promise.all([...this.running]);
    }
  }

  stop(): void {
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
  }
}
