import { RekognitionClient } from '@aws-sdk/client-rekognition';
import { TextractClient } from '@aws-sdk/client-textract';
import { bounded, boundedClientConfig, SDK_LOGGER } from '../../clients';
import type { Config } from '../../config';

/**
 * Textract and Rekognition clients, beside the other clients' factory (src/clients.ts) rather than in
 * it: only the extraction functions bundle these packages, and a function whose bundle leaves the
 * extractor port out drops this whole module with its imports, while an unused import in a module
 * the bundle keeps would still require the package (left out of that bundle) on a cold start.
 */
export function extractionClients(config: Config) {
  // The same bounds and translation as every other client: each attempt timed, a bounded retry, and
  // ServiceUnavailableError (which the state machine retries) for a service that does not answer.
  const textract = bounded(new TextractClient({ region: config.AWS_REGION, logger: SDK_LOGGER, ...boundedClientConfig('textract') }), 'textract');
  const rekognition = bounded(new RekognitionClient({ region: config.AWS_REGION, logger: SDK_LOGGER, ...boundedClientConfig('rekognition') }), 'rekognition');
  return { textract, rekognition };
}
