import { Duration } from 'aws-cdk-lib';
import { EndpointType } from 'aws-cdk-lib/aws-apigateway';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import * as v from 'valibot';
import type { IdvStackProps } from './stack';

const positive = v.pipe(v.number(), v.integer(), v.minValue(1));
/** Log retentions CloudWatch accepts (RetentionDays), in days. */
const RETENTIONS = Object.values(RetentionDays).filter((d): d is number => typeof d === 'number');

/**
 * One environment's settings, as written under `context.stages.<stage>` in cdk.json (data, not code).
 * Every field is optional: an empty object deploys the defaults of IdentityVerificationService.
 */
export const StageSchema = v.strictObject({
  extractor: v.optional(v.picklist(['aws', 'offline', 'sandbox'])),
  publicBaseUrl: v.optional(v.pipe(v.string(), v.url())),
  deletedRetentionDays: v.optional(positive),
  logRetentionDays: v.optional(v.picklist(RETENTIONS)),
  endpointType: v.optional(v.picklist(['EDGE', 'REGIONAL'])),
  domain: v.optional(v.strictObject({ domainName: v.string(), certificateArn: v.pipe(v.string(), v.startsWith('arn:')) })),
  alarmTopicArn: v.optional(v.pipe(v.string(), v.startsWith('arn:'))),
  waf: v.optional(
    v.union([
      v.strictObject({ webAclArn: v.pipe(v.string(), v.startsWith('arn:')) }),
      v.strictObject({ limits: v.optional(v.strictObject({ perIp: v.optional(positive), widgetWritesPerIp: v.optional(positive), widgetWritesPerSession: v.optional(positive) })) }),
    ]),
  ),
  extractionConcurrency: v.optional(positive),
  usagePlans: v.optional(
    v.record(
      v.pipe(v.string(), v.regex(/^[A-Za-z0-9]{1,32}$/)),
      v.strictObject({
        quota: v.optional(v.strictObject({ limit: positive, period: v.picklist(['DAY', 'WEEK', 'MONTH']) })),
        rateLimit: v.optional(positive),
        burstLimit: v.optional(positive),
      }),
    ),
  ),
  backup: v.optional(v.strictObject({ deleteAfterDays: v.optional(positive), images: v.optional(v.boolean()) })),
  serviceName: v.optional(v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{1,64}$/))),
  tags: v.optional(v.record(v.string(), v.string())),
});

/** The stack id of a stage: `IdvStack` for prod (the id it always had), `IdvStack-<stage>` otherwise. */
export const stackIdOf = (stage: string) => (stage === 'prod' ? 'IdvStack' : `IdvStack-${stage}`);

/**
 * The stack props of the stage chosen with `-c stage=<name>` (default `prod`) from cdk.json's
 * `stages`; `-c extractor=…` and `-c publicBaseUrl=…` still override it. An unknown stage or an invalid
 * setting fails the synth with the path of the setting.
 */
export function stageProps(context: (key: string) => unknown): { stackId: string; props: IdvStackProps } {
  const stage = String(context('stage') ?? 'prod');
  const stages = (context('stages') ?? {}) as Record<string, unknown>;
  if (!Object.hasOwn(stages, stage)) throw new Error(`cdk.json has no stage '${stage}' under context.stages (known: ${Object.keys(stages).join(', ') || 'none'})`);
  const parsed = v.safeParse(StageSchema, stages[stage]);
  if (!parsed.success) throw new Error(`cdk.json stages.${stage}: ${parsed.issues.map((i) => `${v.getDotPath(i) ?? '(root)'}: ${i.message}`).join('; ')}`);
  const s = parsed.output;
  const extractor = context('extractor') ?? s.extractor;
  const publicBaseUrl = context('publicBaseUrl') ?? s.publicBaseUrl;
  if (extractor !== undefined && !['aws', 'offline', 'sandbox'].includes(String(extractor))) throw new Error(`-c extractor must be aws, offline or sandbox (got ${String(extractor)})`);
  return {
    stackId: stackIdOf(stage),
    props: {
      stage,
      ...(extractor !== undefined && { extractor: extractor as 'aws' | 'offline' | 'sandbox' }),
      ...(publicBaseUrl !== undefined && { publicBaseUrl: String(publicBaseUrl) }),
      ...(s.deletedRetentionDays !== undefined && { deletedRetentionDays: s.deletedRetentionDays }),
      ...(s.logRetentionDays !== undefined && { logRetention: s.logRetentionDays as RetentionDays }),
      ...(s.endpointType && { endpointType: s.endpointType === 'REGIONAL' ? EndpointType.REGIONAL : EndpointType.EDGE }),
      ...(s.domain && { domainName: s.domain.domainName, certificateArn: s.domain.certificateArn }),
      ...(s.alarmTopicArn && { alarmTopicArn: s.alarmTopicArn }),
      ...(s.waf && { waf: s.waf }),
      ...(s.extractionConcurrency !== undefined && { extractionConcurrency: s.extractionConcurrency }),
      ...(s.usagePlans && { usagePlans: s.usagePlans }),
      ...(s.backup && { backup: { images: s.backup.images ?? false, ...(s.backup.deleteAfterDays !== undefined && { deleteAfter: Duration.days(s.backup.deleteAfterDays) }) } }),
      ...(s.serviceName && { serviceName: s.serviceName }),
      ...(s.tags && { tags: s.tags }),
    },
  };
}
