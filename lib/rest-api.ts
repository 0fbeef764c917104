import { Duration, RemovalPolicy, Validations } from 'aws-cdk-lib';
import {
  AccessLogFormat,
  AuthorizationType,
  LambdaIntegration,
  LogGroupLogDestination,
  MethodLoggingLevel,
  ResponseType,
  RestApi,
  TokenAuthorizer,
} from 'aws-cdk-lib/aws-apigateway';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import type { IEventBus } from 'aws-cdk-lib/aws-events';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import type { IStateMachine } from 'aws-cdk-lib/aws-stepfunctions';
import { Construct } from 'constructs';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { keys } from '../src/adapters/dynamodb/keys';
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
   * The service configuration (see lib/stack.ts). A function gets SESSION_SECRET_ARN only when its
   * routes declare the secret, and the state machine's ARN only when they declare the workflow.
   */
  environment: Record<string, string>;
  /** Document, approve, reject and cancel operations publish events. */
  bus: IEventBus;
  /** Requests per second (steady, burst) for the whole stage, and for each public widget write (uploads start paid extraction). */
  throttling?: ApiThrottling;
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
  counter: [keys.flowCounter('*').PK, keys.allCounter.PK, keys.statusCounter('*').PK],
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
}

/**
 * The REST API built from THE route table (src/http/routes.ts): one Lambda per handler file, a
 * cached TOKEN authorizer on every route but /health, and JSON bodies for API Gateway's own errors.
 */
export class VerificationsApi extends Construct {
  readonly api: RestApi;
  readonly functions = new Map<string, ServiceFunction>();
  readonly authorizerFunction: ServiceFunction;

  constructor(scope: Construct, id: string, props: VerificationsApiProps) {
    super(scope, id);
    const { SESSION_SECRET_ARN: secretArn, ...base } = props.environment;
    for (const file of handlerFiles()) {
      const needs = functionNeeds(file);
      const environment = {
        ...base,
        ...(needs.ports.includes('sessionSecret') && secretArn !== undefined && { SESSION_SECRET_ARN: secretArn }),
        ...(needs.ports.includes('workflow') && { STATE_MACHINE_ARN: props.stateMachine.stateMachineArn }),
      };
      const fn = new ServiceFunction(this, `${constructName(file)}Function`, { file, environment, memorySize: needs.memory, loads: needs.loads ? [...needs.loads] : [], reportEngines: needs.reportEngines === true });
      grantNeeds(fn, needs, props);
      this.functions.set(file, fn);
    }

    // The authorizer reads API token items (GetItem on a cache miss) and nothing else.
    const authorizerFn = new ServiceFunction(this, 'AuthorizerFunction', { file: 'authorizer', environment: base, memorySize: 256 });
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
      deployOptions: {
        stageName: 'v1',
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

    for (const route of routes) {
      const fn = this.functions.get(route.handler);
      if (!fn) throw new Error(`no function for ${route.handler}`);
      const method = this.api.root.resourceForPath(route.path).addMethod(route.method, new LambdaIntegration(fn), {
        operationName: route.operation,
        ...(route.auth ? { authorizer, authorizationType: AuthorizationType.CUSTOM } : { authorizationType: AuthorizationType.NONE }),
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
