import {
  AccessDeniedException,
  CreateFaceLivenessSessionCommand,
  GetFaceLivenessSessionResultsCommand,
  InternalServerError,
  InvalidParameterException,
  ProvisionedThroughputExceededException,
  RekognitionClient,
  SessionNotFoundException,
  ThrottlingException,
} from '@aws-sdk/client-rekognition';
import { mockClient } from 'aws-sdk-client-mock';
import { faceLivenessClient } from '../../../src/adapters/rekognition/client';
import { RekognitionFaceLiveness } from '../../../src/adapters/rekognition/face-liveness';
import { ServiceUnavailableError } from '../../../src/domain/errors';
import { FaceLivenessSessionNotFoundError } from '../../../src/domain/liveness/provider';
import { STATUS_BY_CODE } from '../../../src/http/errors';

const SESSION = '0f8fad5b-d9cb-469f-a165-70867728950e';
const NONCE = '0mhx3k2a1bq3Zk9rT1vYp0Wc7dLs2Ue8XfAa';
const PREFIX = 'documents/ver_1/liveness-0mhx3k2a1bq3Zk9rT1vYp0Wc7dLs2Ue8XfAa';
const meta = { $metadata: {} };

describe('RekognitionFaceLiveness', () => {
  const rekognition = mockClient(RekognitionClient);
  const errors: unknown[][] = [];
  const logger = { error: (...args: unknown[]) => void errors.push(args) };
  const adapter = (output = { bucket: 'images', kmsKeyId: 'key-1' }) => new RekognitionFaceLiveness(new RekognitionClient({ region: 'eu-west-1' }), 'eu-west-1', output, logger);
  beforeEach(() => {
    rekognition.reset();
    errors.length = 0;
  });

  it('creates a session idempotent on the nonce, its images written under the verification in the image bucket with its key', async () => {
    rekognition.on(CreateFaceLivenessSessionCommand).resolves({ SessionId: SESSION });
    expect(await adapter().createSession({ clientRequestToken: NONCE, imageKeyPrefix: PREFIX })).toEqual({ sessionId: SESSION });
    expect(rekognition.commandCalls(CreateFaceLivenessSessionCommand)[0]?.args[0].input).toEqual({
      ClientRequestToken: NONCE,
      KmsKeyId: 'key-1',
      Settings: { AuditImagesLimit: 4, OutputConfig: { S3Bucket: 'images', S3KeyPrefix: PREFIX } },
    });
    // The nonce fits Rekognition's ClientRequestToken: 1–64 characters of [a-zA-Z0-9-_].
    expect(NONCE).toMatch(/^[a-zA-Z0-9-_]{1,64}$/);
  });

  it('asks for the images as bytes when the bucket is not in the Face Liveness region', async () => {
    rekognition.on(CreateFaceLivenessSessionCommand).resolves({ SessionId: SESSION });
    await new RekognitionFaceLiveness(new RekognitionClient({ region: 'us-east-1' }), 'us-east-1', { auditImagesLimit: 2 }, logger).createSession({ clientRequestToken: NONCE, imageKeyPrefix: PREFIX });
    expect(rekognition.commandCalls(CreateFaceLivenessSessionCommand)[0]?.args[0].input).toEqual({ ClientRequestToken: NONCE, Settings: { AuditImagesLimit: 2 } });
  });

  it('reads the status, the confidence and where the images are: keys in its own bucket only, or bytes', async () => {
    const jpeg = new Uint8Array([0xff, 0xd8, 0xff, 1]);
    rekognition.on(GetFaceLivenessSessionResultsCommand).resolves({
      SessionId: SESSION,
      Status: 'SUCCEEDED',
      Confidence: 97.25,
      ReferenceImage: { S3Object: { Bucket: 'images', Name: `${PREFIX}/${SESSION}/reference.jpg` }, BoundingBox: { Width: 0.5, Height: 0.5, Left: 0.2, Top: 0.2 } },
      AuditImages: [{ S3Object: { Bucket: 'images', Name: `${PREFIX}/${SESSION}/audit_images/1.jpg` } }, { S3Object: { Bucket: 'someone-elses', Name: 'x.jpg' } }, { Bytes: jpeg }],
    });
    expect(await adapter().getResults(SESSION)).toEqual({
      sessionId: SESSION,
      status: 'SUCCEEDED',
      confidence: 97.25,
      referenceImage: { key: `${PREFIX}/${SESSION}/reference.jpg` },
      auditImages: [{ key: `${PREFIX}/${SESSION}/audit_images/1.jpg` }, { bytes: jpeg }],
    });
    expect(rekognition.commandCalls(GetFaceLivenessSessionResultsCommand)[0]?.args[0].input).toEqual({ SessionId: SESSION });
  });

  it('reads a session without a confidence or images (expired, not finished) as such', async () => {
    rekognition.on(GetFaceLivenessSessionResultsCommand).resolves({ SessionId: SESSION, Status: 'EXPIRED' });
    expect(await adapter().getResults(SESSION)).toEqual({ sessionId: SESSION, status: 'EXPIRED', confidence: null, referenceImage: null, auditImages: [] });
  });

  it('fails closed on a status it does not know', async () => {
    rekognition.on(GetFaceLivenessSessionResultsCommand).resolves({ SessionId: SESSION, Status: 'PARTIALLY_LIVE' as never, Confidence: 99 });
    await expect(adapter().getResults(SESSION)).rejects.toBeInstanceOf(ServiceUnavailableError);
    expect(errors).toEqual([['Rekognition Face Liveness refused the service', { operation: 'GetFaceLivenessSessionResults', error: 'UnknownStatus' }]]);
  });

  it.each([
    ['ThrottlingException', new ThrottlingException({ message: 'slow down', ...meta })],
    ['ProvisionedThroughputExceededException', new ProvisionedThroughputExceededException({ message: 'over', ...meta })],
    ['InternalServerError', new InternalServerError({ message: 'oops', ...meta })],
    ['a timeout', Object.assign(new Error('the attempt took longer than 3000 ms'), { name: 'TimeoutError' })],
    ['a refused connection', Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' })],
  ])('answers 503 when Rekognition cannot answer (%s), on both calls', async (_, error) => {
    rekognition.on(CreateFaceLivenessSessionCommand).rejects(error).on(GetFaceLivenessSessionResultsCommand).rejects(error);
    await expect(adapter().createSession({ clientRequestToken: NONCE, imageKeyPrefix: PREFIX })).rejects.toBeInstanceOf(ServiceUnavailableError);
    await expect(adapter().getResults(SESSION)).rejects.toBeInstanceOf(ServiceUnavailableError);
    expect(errors).toEqual([]);
  });

  it('answers 400 "start a new check" for a session Rekognition does not know (never created, or past its 3 minutes)', async () => {
    rekognition.on(GetFaceLivenessSessionResultsCommand).rejects(new SessionNotFoundException({ message: 'not found', ...meta }));
    const error = await adapter().getResults(SESSION).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FaceLivenessSessionNotFoundError);
    expect(STATUS_BY_CODE[(error as FaceLivenessSessionNotFoundError).code]).toBe(400);
    expect((error as Error).message).toBe('This liveness session is unknown or has expired: start a new check');
  });

  it('fails closed, logged for the operator, when Rekognition refuses the service itself (AccessDenied, a bucket it may not write)', async () => {
    rekognition
      .on(CreateFaceLivenessSessionCommand)
      .rejects(new AccessDeniedException({ message: 'not authorized', ...meta }))
      .on(GetFaceLivenessSessionResultsCommand)
      .rejects(new InvalidParameterException({ message: 'bad', ...meta }));
    await expect(adapter().createSession({ clientRequestToken: NONCE, imageKeyPrefix: PREFIX })).rejects.toBeInstanceOf(ServiceUnavailableError);
    await expect(adapter().getResults(SESSION)).rejects.toBeInstanceOf(ServiceUnavailableError);
    expect(errors).toEqual([
      ['Rekognition Face Liveness refused the service', { operation: 'CreateFaceLivenessSession', error: 'AccessDeniedException' }],
      ['Rekognition Face Liveness refused the service', { operation: 'GetFaceLivenessSessionResults', error: 'InvalidParameterException' }],
    ]);
    // The log line names the operation and the error, never the session's images or the message text.
    expect(JSON.stringify(errors)).not.toContain('not authorized');
  });

  it('passes on the 503 the bounded client already made of an outage', async () => {
    rekognition.on(GetFaceLivenessSessionResultsCommand).rejects(new ServiceUnavailableError());
    await expect(adapter().getResults(SESSION)).rejects.toBeInstanceOf(ServiceUnavailableError);
    expect(errors).toEqual([]);
  });
});

describe('the Face Liveness client', () => {
  it('is built for the region it is given, which need not be the stack\'s', async () => {
    expect(await faceLivenessClient('eu-west-1').config.region()).toBe('eu-west-1');
  });
});
