import { CfnOutput, Stack, type StackProps } from 'aws-cdk-lib';
import { Certificate } from 'aws-cdk-lib/aws-certificatemanager';
import { Topic } from 'aws-cdk-lib/aws-sns';
import type { Construct } from 'constructs';
import { IdentityVerificationService, type IdentityVerificationServiceProps } from './identity-verification-service';

/**
 * Stack props and the service's; `tags` (the stack's) reach every resource of the stack. The custom
 * domain's certificate and the alarm topic are given by ARN (config in cdk.json is data).
 */
export interface IdvStackProps extends StackProps, Omit<IdentityVerificationServiceProps, 'tags' | 'domain' | 'alarmTopic'> {
  /** Custom domain: its name and the ARN of its ACM certificate. */
  domainName?: string;
  certificateArn?: string;
  /** An SNS topic of yours for the alarms (its key policy must let CloudWatch publish). */
  alarmTopicArn?: string;
}

/** The project's own deployment: one IdentityVerificationService and its outputs. */
export class IdvStack extends Stack {
  readonly service: IdentityVerificationService;

  constructor(scope: Construct, id: string, props: IdvStackProps = {}) {
    super(scope, id, props);
    const { tags: _stackTags, domainName, certificateArn, alarmTopicArn, ...rest } = props;
    if ((domainName === undefined) !== (certificateArn === undefined)) throw new Error('a custom domain needs both domainName and certificateArn');
    const serviceProps: IdentityVerificationServiceProps = {
      ...rest,
      ...(domainName && certificateArn && { domain: { domainName, certificate: Certificate.fromCertificateArn(this, 'Certificate', certificateArn) } }),
      ...(alarmTopicArn && { alarmTopic: Topic.fromTopicArn(this, 'AlarmTopic', alarmTopicArn) }),
    };
    // Id `Default` is left out of logical ids: the resources keep the ids they had before the construct existed
    // (a new logical id would replace the retained table, bucket, keys and secret with empty ones).
    const service = new IdentityVerificationService(this, 'Default', serviceProps);
    this.service = service;
    new CfnOutput(this, 'AlarmTopicArn', { value: service.operations.alarmTopic.topicArn, description: "Subscribe to receive the service's alarms" });
    new CfnOutput(this, 'ApiUrl', { value: service.apiUrl });
    if (service.domainTarget) new CfnOutput(this, 'DomainTarget', { value: service.domainTarget, description: 'Point a DNS alias (CNAME) of the custom domain here' });
    new CfnOutput(this, 'TableName', { value: service.data.table.tableName });
    new CfnOutput(this, 'BucketName', { value: service.data.bucket.bucketName });
    new CfnOutput(this, 'EventBusName', { value: service.events.bus.eventBusName });
    new CfnOutput(this, 'StateMachineArn', { value: service.workflow.stateMachine.stateMachineArn });
    for (const [name, plan] of service.api.usagePlans) new CfnOutput(this, `UsagePlan${name}Id`, { value: plan.usagePlanId, description: `npm run token -- create --usage-plan <this id>: tokens metered by plan ${name}` });
    new CfnOutput(this, 'DashboardName', { value: service.operations.dashboard.dashboardName });
    new CfnOutput(this, 'Extractor', {
      value: service.extractor,
      description: {
        sandbox: 'TEST MODE: outcomes come from sandbox payloads in the images',
        aws: 'Amazon Textract and Rekognition',
        offline: 'Offline engines in the extraction functions (no document leaves the account)',
      }[service.extractor],
    });
  }
}
