import * as v from 'valibot';

const Optional = v.optional(v.pipe(v.string(), v.nonEmpty()));

const ConfigSchema = v.object({
  TABLE_NAME: v.pipe(v.string('TABLE_NAME is required'), v.nonEmpty()),
  BUCKET_NAME: v.pipe(v.string('BUCKET_NAME is required'), v.nonEmpty()),
  /** `stepfunctions` (API functions), `local` (npm start, in-process runner), `none` (workflow tasks, which start nothing). */
  WORKFLOW: v.optional(v.picklist(['stepfunctions', 'local', 'none']), 'stepfunctions'),
  STATE_MACHINE_ARN: Optional,
  /** Deployed: the Secrets Manager secret holding the session-link secret. */
  SESSION_SECRET_ARN: Optional,
  /** Local: the session-link secret itself. */
  SESSION_SECRET: Optional,
  /** `aws` (Textract/Rekognition) or `sandbox` (test mode: outcomes carried in the images). */
  EXTRACTOR: v.optional(v.picklist(['aws', 'sandbox']), 'aws'),
  PUBLIC_BASE_URL: v.optional(v.pipe(v.string(), v.url('PUBLIC_BASE_URL must be a URL'))),
  DELETED_RETENTION_DAYS: v.optional(v.pipe(v.string(), v.regex(/^\d+$/), v.transform(Number)), '30'),
  AWS_REGION: v.optional(v.string(), 'us-east-1'),
  /** Local endpoints; unset on AWS. */
  DYNAMODB_ENDPOINT: Optional,
  S3_ENDPOINT: Optional,
  /** Endpoint written into presigned links when it differs from S3_ENDPOINT (local signature-checking front). */
  S3_PUBLIC_ENDPOINT: Optional,
});

export type Config = v.InferOutput<typeof ConfigSchema>;

/** Validates the environment once per cold start; a missing setting fails fast with its name. */
export function loadConfig(env: Record<string, string | undefined>): Config {
  const result = v.safeParse(ConfigSchema, env);
  if (!result.success) {
    const problems = result.issues.map((i) => `${v.getDotPath(i) ?? 'env'}: ${i.message}`);
    throw new Error(`Invalid configuration: ${problems.join('; ')}`);
  }
  const config = result.output;
  if (config.WORKFLOW === 'stepfunctions' && !config.STATE_MACHINE_ARN) {
    throw new Error('Invalid configuration: STATE_MACHINE_ARN is required when WORKFLOW=stepfunctions');
  }
  if (!config.SESSION_SECRET_ARN && !config.SESSION_SECRET) {
    throw new Error('Invalid configuration: SESSION_SECRET_ARN (or SESSION_SECRET locally) is required');
  }
  return config;
}
