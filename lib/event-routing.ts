import { Duration, Validations } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { EventBus, Rule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { EVENT_RULES } from '../src/events/events';
import { grantEntryPorts, ServiceFunction, type ServiceFunctionProps } from './service-function';

export interface EventRoutingProps {
  table: ITable;
  sessionSecret: ISecret;
  environment: Record<string, string>;
  /** Extra permissions of a rule's target (e.g. extraction for PreExtract), by rule name. */
  grants?: Record<string, (fn: ServiceFunction) => void>;
  /** Function props of a rule's target (modules it loads, memory, environment additions), by rule name. */
  functions?: Record<string, Partial<Omit<ServiceFunctionProps, 'file'>>>;
}

/**
 * The custom bus, its rules (patterns from src/events, shared with the local bus), the webhook
 * dispatch target, and the delivery queue whose message delays are the retry schedule.
 */
export class EventRouting extends Construct {
  readonly bus: EventBus;
  readonly deliveryQueue: Queue;
  readonly deadLetterQueue: Queue;
  readonly environment: Record<string, string>;

  constructor(scope: Construct, id: string, props: EventRoutingProps) {
    super(scope, id);
    this.bus = new EventBus(this, 'Bus', { description: 'Verification events: DocumentUploaded, VerificationFinished, VerificationCanceled' });

    this.deadLetterQueue = new Queue(this, 'DeadLetters', {
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: Duration.days(14),
    });
    Validations.of(this.deadLetterQueue).acknowledge({ id: 'AwsSolutions-SQS3', reason: 'This is the dead-letter queue.' });
    this.deliveryQueue = new Queue(this, 'Deliveries', {
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      visibilityTimeout: Duration.seconds(90),
      retentionPeriod: Duration.days(4),
      // Messages our consumer keeps failing on (not subscriber failures, which are rescheduled) end here.
      deadLetterQueue: { queue: this.deadLetterQueue, maxReceiveCount: 5 },
    });

    this.environment = {
      ...props.environment,
      EVENT_BUS_NAME: this.bus.eventBusName,
      DELIVERY_QUEUE_URL: this.deliveryQueue.queueUrl,
      DEAD_LETTER_QUEUE_URL: this.deadLetterQueue.queueUrl,
    };

    for (const rule of EVENT_RULES) {
      const extra = props.functions?.[rule.name] ?? {};
      const fn = new ServiceFunction(this, `${rule.name}Function`, {
        ...extra,
        file: rule.target,
        environment: { ...this.environment, ...extra.environment },
      });
      grantEntryPorts(fn, rule.target, { table: props.table, sessionSecret: props.sessionSecret, bus: this.bus });
      this.deliveryQueue.grantSendMessages(fn);
      props.grants?.[rule.name]?.(fn);
      new Rule(this, `${rule.name}Rule`, {
        eventBus: this.bus,
        eventPattern: {
          source: rule.pattern.source as string[],
          detailType: rule.pattern['detail-type'] as string[],
        },
        targets: [new LambdaFunction(fn, { retryAttempts: 185, maxEventAge: Duration.hours(24), deadLetterQueue: this.deadLetterQueue })],
      });
    }

    const deliver = new ServiceFunction(this, 'DeliverWebhookFunction', {
      file: 'events/deliver-webhook',
      environment: this.environment,
      timeout: Duration.seconds(60),
    });
    grantEntryPorts(deliver, 'events/deliver-webhook', { table: props.table, sessionSecret: props.sessionSecret, bus: this.bus });
    this.deliveryQueue.grantSendMessages(deliver);
    this.deadLetterQueue.grantSendMessages(deliver);
    deliver.addEventSource(new SqsEventSource(this.deliveryQueue, { batchSize: 5, reportBatchItemFailures: true }));
  }
}
