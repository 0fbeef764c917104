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
import { handlerFiles, routes } from '../src/http/routes';
import type { OptionalModule } from '../src/clients';
import type { DataStore } from './data-store';
import { constructName, ServiceFunction } from './service-function';


export interface VerificationsApiProps {
  table: ITable;
  /** Image access grants (bucket objects and the KMS key). */
  images: Pick<DataStore, 'grantImageRead' | 'grantImageWrite'>;
  stateMachine: IStateMachine;
  sessionSecret: ISecret;
  /** The service configuration every function gets (see lib/stack.ts). */
  environment: Record<string, string>;
  /** Document, approve, reject and cancel operations publish events. */
  bus: IEventBus;
}

/** Handlers that only read. */
const READ_ONLY = new Set([
  'api/health',
  'api/get-openapi',
  'api/get-flow-configuration',
  'api/list-verifications',
  'api/get-verification',
  'api/get-document',
  'widget/page',
  'widget/qr',
  'widget/get-session',
  'widget/asset',
  'widget/console',
  'api/list-flows',
]);
/** Handlers that (re)start the pipeline. */
const STARTS_WORKFLOW = new Set(['api/submit-verification', 'api/resubmit-verification', 'api/update-verification', 'widget/submit']);
/** Handlers that write or delete images. */
const WRITES_IMAGES = new Set(['api/create-document', 'api/update-document', 'api/delete-document', 'widget/upload-document', 'widget/delete-document']);

/**
 * The REST API built from THE route table (src/http/routes.ts): one Lambda per handler file, a
 * cached TOKEN authorizer on every route but /health, and JSON bodies for API Gateway's own errors.
 */
export class VerificationsApi extends Construct {
  readonly api: RestApi;
  readonly functions = new Map<string, ServiceFunction>();

  constructor(scope: Construct, id: string, props: VerificationsApiProps) {
    super(scope, id);
    const makeFunction = (file: string, memorySize: number, loads: OptionalModule[] = [], reportEngines = false) => {
      const fn = new ServiceFunction(this, `${constructName(file)}Function`, { file, environment: props.environment, memorySize, loads, reportEngines });
      props.sessionSecret.grantRead(fn);
      props.bus.grantPutEventsTo(fn);
      return fn;
    };

    for (const file of handlerFiles()) {
      // The report draws uploads as pictures (sharp, pdf.js): more memory, and those packages beside the bundle.
      const pdf = file === 'api/download-document-pdf';
      const fn = makeFunction(file, pdf ? 1024 : 512, pdf ? ['pdf-lib'] : [], pdf);
      if (READ_ONLY.has(file)) props.table.grantReadData(fn);
      else props.table.grantReadWriteData(fn);
      // Every function signs image links, which requires s3:GetObject (and decrypt) on the role.
      if (WRITES_IMAGES.has(file)) props.images.grantImageWrite(fn);
      else props.images.grantImageRead(fn);
      if (STARTS_WORKFLOW.has(file)) props.stateMachine.grantStartExecution(fn);
      this.functions.set(file, fn);
    }

    const authorizerFn = makeFunction('authorizer', 256);
    props.table.grantReadData(authorizerFn);
    const authorizer = new TokenAuthorizer(this, 'Authorizer', {
      handler: authorizerFn,
      resultsCacheTtl: Duration.minutes(5),
      validationRegex: '^[Bb]earer [^ ]+$',
    });

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
