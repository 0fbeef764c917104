import * as v from 'valibot';

/**
 * Built on first use: a function that uses no port (the caller, the console's files) never validates
 * a configuration it is not given.
 */
function buildConfigSchema() {
  const Optional = v.optional(v.pipe(v.string(), v.nonEmpty()));
  return v.object({
    /** Only for the functions whose bundle holds the DynamoDB client (lib/service-function.ts), checked when their first table port is built. */
    TABLE_NAME: Optional,
    /** Only for the functions whose bundle holds the S3 client, checked when the image store is first built. */
    BUCKET_NAME: Optional,
    /** `aws` (deployed) or `local` (npm start supplies the in-process workflow runner, bus and queue). */
    RUNTIME: v.optional(v.picklist(['aws', 'local']), 'aws'),
    EVENT_BUS_NAME: Optional,
    DELIVERY_QUEUE_URL: Optional,
    DEAD_LETTER_QUEUE_URL: Optional,
    /** Webhook retries: first delay (doubling per attempt, at most 900 s) and how long to keep trying. */
    WEBHOOK_RETRY_BASE_SECONDS: v.optional(v.pipe(v.string(), v.regex(/^\d+(\.\d+)?$/), v.transform(Number)), '30'),
    WEBHOOK_MAX_AGE_SECONDS: v.optional(v.pipe(v.string(), v.regex(/^\d+(\.\d+)?$/), v.transform(Number)), '93600'),
    /** Only for the functions that start the pipeline (the container asks for it when the workflow port is first used). */
    STATE_MACHINE_ARN: Optional,
    /** Deployed: the Secrets Manager secret holding the session-link secret; only for the functions that mint or check widget links. */
    SESSION_SECRET_ARN: Optional,
    /** Local: the session-link secret itself. */
    SESSION_SECRET: Optional,
    /** Deployed: the KMS key (ECC_NIST_P256) that signs decision receipts; only for the function that signs (FinishRun). */
    RECEIPT_KEY_ID: Optional,
    /** Local: the PEM file of the receipt key (made on first use). */
    RECEIPT_KEY_FILE: Optional,
    /** Deployed: the KMS HMAC key (HMAC_256) that makes duplicate-document fingerprints; only for EvaluateDocument. */
    FINGERPRINT_KEY_ID: Optional,
    /** Local: the file of the fingerprint key (32 random bytes, made on first use). */
    FINGERPRINT_KEY_FILE: Optional,
    /** `aws` (Textract/Rekognition) or `sandbox` (test mode: outcomes carried in the images). */
    EXTRACTOR: v.optional(v.picklist(['aws', 'offline', 'sandbox']), 'aws'),
    /** Further extractors flows may choose (comma-separated: aws, offline); the function must be packaged for them. */
    EXTRACTORS: v.optional(v.pipe(v.string(), v.regex(/^((aws|offline)(,(aws|offline))*)?$/, 'a comma-separated list of aws and offline')), ''),
    /** Base of the widget links `url`/`qr_code`: an http(s) URL, nothing else (no `javascript:`, no credentials, query or fragment). */
    PUBLIC_BASE_URL: v.optional(
      v.pipe(
        v.string(),
        v.url('PUBLIC_BASE_URL must be a URL'),
        v.check((s) => {
          const u = new URL(s);
          return (u.protocol === 'https:' || u.protocol === 'http:') && !u.username && !u.password && !u.search && !u.hash;
        }, 'PUBLIC_BASE_URL must be an http or https URL without credentials, query or fragment'),
      ),
    ),
    /** `true` when the API meters tokens with usage plans: the authorizer names each token's API key (its token id). */
    USAGE_PLAN_KEYS: Optional,
    DELETED_RETENTION_DAYS: v.optional(v.pipe(v.string(), v.regex(/^\d+$/), v.transform(Number)), '30'),
    AWS_REGION: v.optional(v.string(), 'us-east-1'),
    /** The sanctions lists' snapshot bucket: only for the functions that screen or refresh the lists (lib/screening-lists.ts). */
    SCREENING_BUCKET: Optional,
    /** The refresh job's sources (JSON of config/screening-sources.json: each list's files and change band); none: nothing is fetched. */
    SCREENING_SOURCES: Optional,
    /**
     * The region of Amazon Rekognition Face Liveness (offered in some regions only); unset: no flow can
     * use it (a clear 400). A region's name only: the widget page's policy names hosts from it.
     */
    REKOGNITION_LIVENESS_REGION: v.optional(v.pipe(v.string(), v.regex(/^[a-z]{2}(-[a-z]+)+-\d$/, 'REKOGNITION_LIVENESS_REGION must be an AWS region (eu-west-1)'))),
    /**
     * The Cognito identity pool (`<region>:<uuid>`, lib/face-liveness-identity.ts) whose unauthenticated
     * role may only call StartFaceLivenessSession: the widget's capture gets its credentials from it.
     * Unset: a `rekognition` flow's widget says the check cannot start there (fail closed).
     */
    REKOGNITION_LIVENESS_IDENTITY_POOL_ID: v.optional(
      v.pipe(v.string(), v.regex(/^[a-z]{2}(-[a-z]+)+-\d:[0-9a-f-]{36}$/, 'REKOGNITION_LIVENESS_IDENTITY_POOL_ID must be an identity pool id (<region>:<uuid>)')),
    ),
    /** The confidence (0–100) a Face Liveness session needs to pass `selfie.liveness`. */
    REKOGNITION_LIVENESS_MIN_CONFIDENCE: v.optional(v.pipe(v.string(), v.regex(/^\d+(\.\d+)?$/), v.transform(Number), v.maxValue(100)), '90'),
    /** The image bucket's KMS key: Face Liveness writes its reference and audit images into the bucket encrypted with it. */
    IMAGE_KEY_ID: Optional,
    /** Local endpoints; unset on AWS. */
    DYNAMODB_ENDPOINT: Optional,
    S3_ENDPOINT: Optional,
    /** Endpoint written into presigned links when it differs from S3_ENDPOINT (local signature-checking front). */
    S3_PUBLIC_ENDPOINT: Optional,
    /** `true` in the benchmark: count DynamoDB requests (src/clients.ts). */
    IDV_DYNAMODB_METRICS: Optional,
  });
}

export type Config = v.InferOutput<ReturnType<typeof buildConfigSchema>>;
let configSchema: ReturnType<typeof buildConfigSchema> | undefined;

/** Validates the environment once per cold start; a missing setting fails fast with its name. */
export function loadConfig(env: Record<string, string | undefined>): Config {
  const result = v.safeParse((configSchema ??= buildConfigSchema()), env);
  if (!result.success) {
    const problems = result.issues.map((i) => `${v.getDotPath(i) ?? 'env'}: ${i.message}`);
    throw new Error(`Invalid configuration: ${problems.join('; ')}`);
  }
  return result.output;
}

/**
 * A setting only some functions get (the state machine, the bus, the queues, the secret): checked
 * when the port that needs it is first built, so a function is configured with what it uses only.
 */
export function required(value: string | undefined, name: string): string {
  if (!value) throw new Error(`Invalid configuration: ${name} is required by this function`);
  return value;
}
