import { RekognitionClient } from '@aws-sdk/client-rekognition';
import { TextractClient } from '@aws-sdk/client-textract';
import { SDK_LOGGER, translateUnavailable } from '../../clients';
import type { Config } from '../../config';

/**
 * Textract and Rekognition clients, beside the other clients' factory (src/clients.ts) rather than in
 * it: only the extraction functions bundle these packages, and a function whose bundle leaves the
 * extractor port out drops this whole module with its imports, while an unused import in a module
 * the bundle keeps would still require the package (left out of that bundle) on a cold start.
 */
export function extractionClients(config: Config) {
  const textract = new TextractClient({ region: config.AWS_REGION, logger: SDK_LOGGER });
  const rekognition = new RekognitionClient({ region: config.AWS_REGION, logger: SDK_LOGGER });
  // The same translation as every other client: the state machine retries ServiceUnavailableError.
  translateUnavailable(textract as never);
  translateUnavailable(rekognition as never);
  return { textract, rekognition };
}
