import type { HistoryEntry, Verification } from '../domain/entities';
import type { Flow } from '../domain/flow';
import { buildExpectedData, type ExpectedDataInput, validateCreate, validateMerged } from '../domain/expected-data';
import { VerificationStatus } from '../domain/status';
import { formatTimestamp } from '../domain/time';
import { SYSTEM_USER } from '../domain/transitions';
import type { Deps, RequestInfo } from './deps';
import { loadVerification, requireFlow } from './load';
import { presentVerification } from './present';
import { METRIC } from '../ports/metrics';
import { hashToken, sessionToken } from './tokens';

export interface CreateVerificationInput extends ExpectedDataInput {
  vendor_reference?: string | undefined;
  vendor_state?: string | undefined;
}

/** When a verification that is Started at `now` expires. */
export function expiryFrom(now: string, flow: Flow): string {
  return formatTimestamp((Date.parse(now) + flow.expire_after_days * 86_400_000) * 1000);
}

/** Creates a Started verification with its expected data; one transaction writes it, its history and the list counters. */
export async function createVerification(deps: Pick<Deps, 'flows' | 'verifications' | 'clock' | 'ids' | 'sessionSecret' | 'publicBaseUrl' | 'metrics'>, req: RequestInfo, flowPath: string, input: CreateVerificationInput) {
  const flow = await requireFlow(deps, flowPath);
  const errors = validateCreate(flow, input);
  const expectedData = buildExpectedData(input);
  validateMerged(flow, expectedData, errors);

  const now = deps.clock.now();
  const verification: Verification = {
    id: deps.ids.next('ver'),
    flow: flow.path,
    vendorReference: input.vendor_reference ?? null,
    vendorState: input.vendor_state ?? null,
    expectedData,
    status: VerificationStatus.Started,
    submittedAt: null,
    createdAt: now,
    updatedAt: now,
    version: 1,
    run: 0,
    processedRun: 0,
    comments: [],
    expiresAt: expiryFrom(now, flow),
  };
  const history: HistoryEntry = {
    changedFields: [],
    id: deps.ids.next('hist'),
    fromStatus: null,
    toStatus: VerificationStatus.Started,
    user: SYSTEM_USER,
    comment: null,
    createdAt: now,
  };
  await deps.verifications.create(verification, history, hashToken(sessionToken(deps.sessionSecret, verification.id)));
  deps.metrics.record(METRIC.verificationsCreated, 1, 'Count');
  return presentVerification(deps, req, verification, flow.name);
}

/** A repeat of a create whose verification committed but whose response was lost: the created verification, as Create shows it. */
export async function presentCreated(deps: Pick<Deps, 'flows' | 'verifications' | 'sessionSecret' | 'publicBaseUrl'>, req: RequestInfo, flowPath: string, id: string) {
  const { flow, aggregate } = await loadVerification(deps, flowPath, id);
  return presentVerification(deps, req, aggregate.verification, flow.name);
}
