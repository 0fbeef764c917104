import flowsFile from '../../config/flows.json';
import { LOCAL_TABLE } from '../../local/runtime';
import { DynamoFlowRepository } from '../../src/adapters/dynamodb/flow-repository';
import { type Flow, resolveFlows } from '../../src/domain/flow';
import { type ApiResponse, client, startTestRuntime } from './harness';

/** The identity pool and region a deployment with Face Liveness sets (lib/face-liveness-identity.ts), made up. */
export const FACE_LIVENESS_POOL = 'eu-west-1:0f1e2d3c-4b5a-6978-8a9b-0c1d2e3f4a5b';
export const FACE_LIVENESS_TARGET = { region: 'eu-west-1', identityPoolId: FACE_LIVENESS_POOL };
/** A flow whose liveness is Rekognition's: the shipped live-selfie flow with `liveness_provider: rekognition`. */
export const REKOGNITION_FLOW = 'rekognition-selfie';

/**
 * One local runtime per test file given the Rekognition-mode capture's settings as the stack gives
 * them (local/runtime.ts `faceLivenessCapture`), with a `rekognition` flow beside the shipped ones:
 * the widget page and the served bundle are the service's own; only Rekognition itself is absent
 * (the challenge of that flow answers that it is not available).
 */
export function useFaceLivenessRuntime() {
  const state = {} as { h: Awaited<ReturnType<typeof startTestRuntime>>; api: (method: string, path: string, body?: unknown) => Promise<ApiResponse> };
  beforeAll(async () => {
    state.h = await startTestRuntime({ faceLivenessCapture: FACE_LIVENESS_TARGET });
    state.api = client(state.h.runtime);
    const base = resolveFlows(flowsFile).find((f) => f.path === 'id-and-live-selfie')!;
    await new DynamoFlowRepository(state.h.runtime.doc, LOCAL_TABLE).putAll([{ ...base, path: REKOGNITION_FLOW, name: 'Photo ID and Rekognition selfie', checks: { ...base.checks, liveness_provider: 'rekognition' } } as Flow]);
  });
  afterAll(async () => {
    await state.h?.stop();
  });
  return state;
}
