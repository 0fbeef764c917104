import type { Logger } from '@aws-lambda-powertools/logger';
import {
  type AuditImage,
  CreateFaceLivenessSessionCommand,
  type CreateFaceLivenessSessionCommandInput,
  GetFaceLivenessSessionResultsCommand,
  type RekognitionClient,
} from '@aws-sdk/client-rekognition';
import { isUnavailable } from '../../clients';
import { ServiceUnavailableError } from '../../domain/errors';
import { FACE_LIVENESS, FACE_LIVENESS_STATUSES, type FaceLivenessStatus, FaceLivenessSessionNotFoundError } from '../../domain/liveness/provider';
import type { FaceLivenessImage, FaceLivenessProvider, FaceLivenessResult } from '../../ports/liveness';

/** Where Rekognition keeps a session's images, and with which key. */
export interface FaceLivenessOutput {
  /**
   * The image bucket, when it is in the Face Liveness region (Rekognition writes only to a bucket of
   * the caller's account in its own region): the reference and audit images are written there under
   * the session's prefix. Without it they come back as bytes and the service stores them itself.
   */
  bucket?: string;
  /** The bucket's KMS key, which Rekognition encrypts the images it writes with. */
  kmsKeyId?: string;
  /** Audit images per session, 0–4 (best effort: fewer for a short video). */
  auditImagesLimit?: number;
}

/** Errors that mean the request itself was wrong for this session: it is unknown to Rekognition. (An array: a module-level literal the bundler can drop with the module where the port is left out.) */
const NOT_FOUND: readonly string[] = ['SessionNotFoundException', 'ResourceNotFoundException'];

/**
 * Amazon Rekognition Face Liveness (CreateFaceLivenessSession, GetFaceLivenessSessionResults) behind
 * the FaceLivenessProvider port. The client comes built and bounded (src/adapters/rekognition/client.ts):
 * its own region, since Face Liveness is offered in some regions only. SDK errors become domain
 * errors here, so none reaches src/app: throttling, 5xx and timeouts are ServiceUnavailableError
 * (503, retried by the widget); a session Rekognition does not know is FaceLivenessSessionNotFoundError
 * (400: start a new check); the service's own credentials or setup refused (AccessDenied, a bucket
 * Rekognition may not write) fail closed as ServiceUnavailableError too, with an error log line that
 * names the error and the operation, never a session's images.
 */
export class RekognitionFaceLiveness implements FaceLivenessProvider {
  readonly name = 'rekognition' as const;

  constructor(
    private readonly client: RekognitionClient,
    readonly region: string,
    private readonly output: FaceLivenessOutput,
    private readonly logger: Pick<Logger, 'error'>,
  ) {}

  async createSession(input: { clientRequestToken: string; imageKeyPrefix: string }): Promise<{ sessionId: string }> {
    const command: CreateFaceLivenessSessionCommandInput = {
      ClientRequestToken: input.clientRequestToken,
      ...(this.output.kmsKeyId && this.output.bucket && { KmsKeyId: this.output.kmsKeyId }),
      Settings: {
        AuditImagesLimit: this.output.auditImagesLimit ?? FACE_LIVENESS.auditImagesLimit,
        ...(this.output.bucket && { OutputConfig: { S3Bucket: this.output.bucket, S3KeyPrefix: input.imageKeyPrefix } }),
      },
    };
    const out = await this.send('CreateFaceLivenessSession', () => this.client.send(new CreateFaceLivenessSessionCommand(command)));
    if (!out.SessionId) throw this.refused('CreateFaceLivenessSession', 'NoSessionId');
    return { sessionId: out.SessionId };
  }

  async getResults(sessionId: string): Promise<FaceLivenessResult> {
    const out = await this.send('GetFaceLivenessSessionResults', () => this.client.send(new GetFaceLivenessSessionResultsCommand({ SessionId: sessionId })));
    const status = FACE_LIVENESS_STATUSES.includes(out.Status as FaceLivenessStatus) ? (out.Status as FaceLivenessStatus) : undefined;
    // A status this code does not know (a newer API) cannot be judged: fail closed.
    if (!status) throw this.refused('GetFaceLivenessSessionResults', 'UnknownStatus');
    const confidence = typeof out.Confidence === 'number' && Number.isFinite(out.Confidence) ? out.Confidence : null;
    return {
      sessionId: out.SessionId ?? sessionId,
      status,
      confidence,
      referenceImage: out.ReferenceImage ? this.image(out.ReferenceImage) : null,
      auditImages: (out.AuditImages ?? []).map((i) => this.image(i)).filter((i): i is FaceLivenessImage => i !== null),
    };
  }

  /**
   * An image as bytes, or as a key of the image bucket. An S3 location in any other bucket is not
   * taken (the service reads only its own bucket): the image is then missing, which the use case
   * treats as no picture.
   */
  private image(i: AuditImage): FaceLivenessImage | null {
    if (i.Bytes && i.Bytes.length > 0) return { bytes: i.Bytes };
    if (i.S3Object?.Name && this.output.bucket && i.S3Object.Bucket === this.output.bucket) return { key: i.S3Object.Name };
    return null;
  }

  private async send<T>(operation: string, call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (error) {
      if (error instanceof ServiceUnavailableError) throw error;
      const name = (error as { name?: string })?.name ?? 'Error';
      if (NOT_FOUND.includes(name)) throw new FaceLivenessSessionNotFoundError();
      if (isUnavailable(error)) throw new ServiceUnavailableError();
      // AccessDenied, a bucket Rekognition may not write, anything else: the check cannot be made.
      throw this.refused(operation, name);
    }
  }

  /** Rekognition refused the service itself: logged for the operator, a 503 for the caller, never a pass. */
  private refused(operation: string, error: string): ServiceUnavailableError {
    this.logger.error('Rekognition Face Liveness refused the service', { operation, error });
    return new ServiceUnavailableError();
  }
}
