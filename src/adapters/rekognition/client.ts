import { RekognitionClient } from '@aws-sdk/client-rekognition';
import { bounded, boundedClientConfig, SDK_LOGGER } from '../../clients';

/**
 * The Rekognition client of Face Liveness, in the region the stack names for it (Face Liveness is
 * offered in some regions only, which need not be the stack's), with the same bounds and failure
 * translation as every other client. Beside the adapter rather than in src/clients.ts: only the
 * widget's liveness functions bundle this package (src/clients.ts OPTIONAL_MODULES).
 */
export function faceLivenessClient(region: string): RekognitionClient {
  return bounded(new RekognitionClient({ region, logger: SDK_LOGGER, ...boundedClientConfig('faceLiveness') }), 'faceLiveness');
}
