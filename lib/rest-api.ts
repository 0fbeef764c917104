import { Duration, RemovalPolicy, Validations } from 'aws-cdk-lib';
import {
  AccessLogFormat,
  ApiKeySourceType,
  AuthorizationType,
  EndpointType,
  LambdaIntegration,
  LogGroupLogDestination,
  MethodLoggingLevel,
  Period,
  ResponseType,
  SecurityPolicy,
  RestApi,
  TokenAuthorizer,
  type UsagePlan,
} from 'aws-cdk-lib/aws-apigateway';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import type { IEventBus } from 'aws-cdk-lib/aws-events';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import type { IStateMachine } from 'aws-cdk-lib/aws-stepfunctions';
import { Construct } from 'constructs';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { ICertificate } from 'aws-cdk-lib/aws-certificatemanager';
import { keys } from '../src/adapters/dynamodb/keys';
import { callBudgetMs, REQUEST_BUDGET_MS } from '../src/clients';
import { functionNeeds, handlerFiles, type ItemKind, routes } from '../src/http/routes';
import type { DataStore } from './data-store';
import { constructName, ServiceFunction, TABLE_ACTIONS } from './service-function';


export interface VerificationsApiProps {
  table: ITable;
  /** Image access grants (bucket objects and the KMS key). */
  images: Pick<DataStore, 'grantImageRead' | 'grantImageWrite'>;
  stateMachine: IStateMachine;
  sessionSecret: ISecret;
  /**
   * The service configuration (see lib/stack.ts). Each function is told only what its routes use
   * (lib/service-function.ts `toldWhatItUses`); the state machine's ARN only when they declare the workflow.
   */
  environment: Record<string, string>;
  /** Document, approve, reject and cancel operations publish events. */
  bus: IEventBus;
  /** Amazon Rekognition Face Liveness is enabled: the functions that name its port may create sessions and read their results. */
  faceLiveness?: boolean;
  /** Requests per second (steady, burst) for the whole stage, and for each public widget write (uploads start paid extraction). */
  throttling?: ApiThrottling;
  /** The stage name (the environment: `prod`, `staging`); without a custom domain it is the first segment of every URL. Default `prod`. */
  stageName?: string;
  /** EDGE (default: CloudFront in front) or REGIONAL (clients in the API's region, or your own CDN). */
  endpointType?: EndpointType;
  /** A custom domain mapped at its root: URLs become `https://<domain>/api/v1/…` (no stage segment). */
  domain?: ApiDomain;
  /**
   * Usage plans by name: each API token is metered against the plan its API key was added to by the
   * token CLI (`npm run token -- create --usage-plan <id>`). With plans, every authenticated route
   * requires an API key, which the authorizer supplies (the token's id): a token without a key gets 403.
   */
  usagePlans?: Record<string, UsagePlanLimits>;
}

/** Per-token limits of one usage plan. */
export interface UsagePlanLimits {
  /** Requests per period per token; beyond it API Gateway answers 429 until the period ends. */
  quota?: { limit: number; period: 'DAY' | 'WEEK' | 'MONTH' };
  /** Requests per second per token (steady, burst). */
  rateLimit?: number;
  burstLimit?: number;
}

export interface ApiDomain {
  domainName: string;
  /** ACM certificate for the name: in us-east-1 for an EDGE endpoint, in the stack's region for REGIONAL. */
  certificate: ICertificate;
}

export interface ApiThrottling {
  rateLimit: number;
  burstLimit: number;
  widgetWriteRateLimit: number;
  widgetWriteBurstLimit: number;
}

/** Defaults: a stage far above what one tenant's integration needs, and a public upload path that cannot run up an extraction bill. */
export const DEFAULT_THROTTLING: ApiThrottling = { rateLimit: 100, burstLimit: 200, widgetWriteRateLimit: 5, widgetWriteBurstLimit: 10 };

/**
 * An API function's timeout: above the request's budget for SDK calls (src/clients.ts
 * REQUEST_BUDGET_MS, 20 s), so that a stalled backing service is answered with a 503 by the
 * function rather than cut off by Lambda (a 502 "Internal error"), with room for what a request does
 * besides its calls (a PDF drawn, a body checked); and below API Gateway's 29 s, so that the
 * function never works on for a client that was already answered 504.
 */
export const API_FUNCTION_TIMEOUT = Duration.seconds(Math.ceil(REQUEST_BUDGET_MS / 1000) + 8);

/**
 * The authorizer's timeout: above its one table read's budget (src/clients.ts callBudgetMs, 4.8 s),
 * so that a token that cannot be looked up fails closed with 503 (AUTHORIZER_FAILURE) in seconds.
 */
export const AUTHORIZER_TIMEOUT = Duration.seconds(Math.ceil(callBudgetMs('dynamodb') / 1000) + 5);

/**
 * The partition keys of each item kind, as IAM `StringLike` patterns built by the key module itself
 * (src/adapters/dynamodb/keys.ts), so that a renamed prefix cannot leave a stale grant behind.
 */
export const ITEM_PATTERNS: Record<ItemKind, string[]> = {
  verification: [keys.verificationPartition('*')],
  session: [keys.session('*').PK],
  flow: [keys.flow('*').PK, keys.flowsPartition],
  documentRef: [keys.documentRef('*').PK],
  extraction: [keys.extraction('*').PK],
  // Outbox events and run tickets (OUTBOX#RUN#…) alike.
  outbox: [keys.outbox('*').PK],
  counter: [keys.flowCounter('*').PK, keys.allCounter().PK, keys.statusCounter('*').PK],
};

/**
 * Grants one function exactly what its routes declare (src/http/routes.ts `needs`): table actions
 * (limited to some item kinds by a `dynamodb:LeadingKeys` condition when declared), image access,
 * starting the workflow, publishing events and reading the session secret.
 */
function grantNeeds(fn: ServiceFunction, needs: ReturnType<typeof functionNeeds>, props: VerificationsApiProps): void {
  if (needs.table) {
    const actions = [...TABLE_ACTIONS[needs.table]];
    if (needs.items) {
      // Item-limited functions address items by key only: no index, and only their own partitions.
      fn.addToRolePolicy(
        new PolicyStatement({
          actions,
          resources: [props.table.tableArn],
          conditions: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': needs.items.flatMap((k) => ITEM_PATTERNS[k]) } },
        }),
      );
    } else {
      props.table.grant(fn, ...actions);
    }
  }
  if (needs.images === 'write') props.images.grantImageWrite(fn);
  else if (needs.images === 'read') props.images.grantImageRead(fn);
  if (needs.ports.includes('workflow')) props.stateMachine.grantStartExecution(fn);
  if (needs.ports.includes('events')) props.bus.grantPutEventsTo(fn);
  if (needs.ports.includes('sessionSecret')) props.sessionSecret.grantRead(fn);
  if (props.faceLiveness && needs.ports.includes('faceLiveness')) {
    fn.addToRolePolicy(new PolicyStatement({ actions: ['rekognition:CreateFaceLivenessSession', 'rekognition:GetFaceLivenessSessionResults'], resources: ['*'] }));
    Validations.of(fn).acknowledge({ id: 'AwsSolutions-IAM5[Resource::*]', reason: 'Rekognition Face Liveness has no resource-level permissions.' });
  }
}

/**
 * The REST API built from THE route table (src/http/routes.ts): one Lambda per handler file, a
 * cached TOKEN authorizer on every route but /health, and JSON bodies for API Gateway's own errors.
 */
export class VerificationsApi extends Construct {
  readonly api: RestApi;
  readonly functions = new Map<string, ServiceFunction>();
  readonly authorizerFunction: ServiceFunction;
  readonly usagePlans = new Map<string, UsagePlan>();

  constructor(scope: Construct, id: string, props: VerificationsApiProps) {
    super(scope, id);
    for (const file of handlerFiles()) {
      const needs = functionNeeds(file);
      const environment = { ...props.environment, ...(needs.ports.includes('workflow') && { STATE_MACHINE_ARN: props.stateMachine.stateMachineArn }) };
      const fn = new ServiceFunction(this, `${constructName(file)}Function`, { file, environment, memorySize: needs.memory, timeout: API_FUNCTION_TIMEOUT, loads: needs.loads ? [...needs.loads] : [], reportEngines: needs.reportEngines === true, files: needs.files });
      grantNeeds(fn, needs, props);
      this.functions.set(file, fn);
    }

    // The authorizer reads API token items (GetItem on a cache miss) and nothing else.
    const metered = props.usagePlans !== undefined && Object.keys(props.usagePlans).length > 0;
    const authorizerFn = new ServiceFunction(this, 'AuthorizerFunction', { file: 'authorizer', environment: { ...props.environment, ...(metered && { USAGE_PLAN_KEYS: 'true' }) }, memorySize: 256, timeout: AUTHORIZER_TIMEOUT });
    authorizerFn.addToRolePolicy(
      new PolicyStatement({
        actions: ['dynamodb:GetItem'],
        resources: [props.table.tableArn],
        conditions: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [keys.token('*').PK] } },
      }),
    );
    this.authorizerFunction = authorizerFn;
    const authorizer = new TokenAuthorizer(this, 'Authorizer', {
      handler: authorizerFn,
      resultsCacheTtl: Duration.minutes(5),
      validationRegex: '^[Bb]earer [^ ]+$',
    });

    const throttling = props.throttling ?? DEFAULT_THROTTLING;
    const accessLogs = new LogGroup(this, 'AccessLogs', { retention: RetentionDays.ONE_YEAR, removalPolicy: RemovalPolicy.RETAIN });
    this.api = new RestApi(this, 'Api', {
      restApiName: 'idv-verifications',
      description: 'Identity verification API (spec: verifications-api.md)',
      cloudWatchRole: true,
      // Metered: the key comes from the authorizer (a client cannot pick one with x-api-key).
      ...(metered && { apiKeySourceType: ApiKeySourceType.AUTHORIZER }),
      endpointTypes: [props.endpointType ?? EndpointType.EDGE],
      ...(props.domain && {
        domainName: { domainName: props.domain.domainName, certificate: props.domain.certificate, endpointType: props.endpointType ?? EndpointType.EDGE, securityPolicy: SecurityPolicy.TLS_1_2 },
      }),
      deployOptions: {
        stageName: props.stageName ?? 'prod',
        accessLogDestination: new LogGroupLogDestination(accessLogs),
        accessLogFormat: AccessLogFormat.jsonWithStandardFields(),
        loggingLevel: MethodLoggingLevel.ERROR,
        dataTraceEnabled: false,
        tracingEnabled: true,
        throttlingRateLimit: throttling.rateLimit,
        throttlingBurstLimit: throttling.burstLimit,
        // The widget's writes are public (the session token is the credential): each gets its own, low limit.
        methodOptions: Object.fromEntries(
          routes
            .filter((r) => !r.auth && r.method !== 'GET')
            .map((r) => [`${r.path}/${r.method}`, { throttlingRateLimit: throttling.widgetWriteRateLimit, throttlingBurstLimit: throttling.widgetWriteBurstLimit }]),
        ),
      },
    });

    const jsonError = (message: string) => ({ 'application/json': JSON.stringify({ message }).replace('"MSG"', '$context.error.messageString') });
    this.api.addGatewayResponse('Unauthorized', { type: ResponseType.UNAUTHORIZED, statusCode: '401', templates: jsonError('Unauthorized') });
    // The authorizer throws anything but "Unauthorized" only when it cannot read the token store: fail closed, retryable.
    const unavailable = { statusCode: '503', responseHeaders: { 'Retry-After': "'1'" }, templates: jsonError('The service is busy; retry in a moment') };
    this.api.addGatewayResponse('AuthorizerFailure', { type: ResponseType.AUTHORIZER_FAILURE, ...unavailable });
    this.api.addGatewayResponse('AuthorizerConfigurationError', { type: ResponseType.AUTHORIZER_CONFIGURATION_ERROR, ...unavailable });
    this.api.addGatewayResponse('NotFound', { type: ResponseType.MISSING_AUTHENTICATION_TOKEN, statusCode: '404', templates: jsonError('Not found') });
    this.api.addGatewayResponse('TooLarge', {
      type: ResponseType.REQUEST_TOO_LARGE,
      statusCode: '400',
      templates: jsonError('Request body exceeds the size limit'),
    });
    this.api.addGatewayResponse('Default4xx', { type: ResponseType.DEFAULT_4XX, templates: { 'application/json': '{"message":$context.error.messageString}' } });
    this.api.addGatewayResponse('Default5xx', { type: ResponseType.DEFAULT_5XX, templates: { 'application/json': '{"message":"Internal error"}' } });

    for (const [name, limits] of Object.entries(props.usagePlans ?? {})) {
      const plan = this.api.addUsagePlan(`UsagePlan${name}`, {
        name: `idv-${name}`,
        description: `Per-token limits of API tokens in plan ${name}`,
        ...(limits.quota && { quota: { limit: limits.quota.limit, period: Period[limits.quota.period] } }),
        ...((limits.rateLimit !== undefined || limits.burstLimit !== undefined) && { throttle: { rateLimit: limits.rateLimit, burstLimit: limits.burstLimit } }),
        apiStages: [{ api: this.api, stage: this.api.deploymentStage }],
      });
      this.usagePlans.set(name, plan);
    }

    for (const route of routes) {
      const fn = this.functions.get(route.handler);
      if (!fn) throw new Error(`no function for ${route.handler}`);
      const method = this.api.root.resourceForPath(route.path).addMethod(route.method, new LambdaIntegration(fn, { allowTestInvoke: false }), {
        operationName: route.operation,
        ...(route.auth ? { authorizer, authorizationType: AuthorizationType.CUSTOM, ...(metered && { apiKeyRequired: true }) } : { authorizationType: AuthorizationType.NONE }),
      });
      if (!route.auth) {
        const reason = route.path.startsWith('/v/')
          ? `${route.path} is the end-user widget: its credential is the verification's session token in the path, checked by the function.`
          : `${route.path} is public by design: health, the widget's static assets, or the API's own OpenAPI document.`;
        Validations.of(method).acknowledge({ id: 'AwsSolutions-APIG4', reason });
        Validations.of(method).acknowledge({ id: 'AwsSolutions-COG4', reason });
      }
    }
  }
}
