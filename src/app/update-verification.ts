import { FieldErrorCollector } from '../domain/errors';
import { changedFields, mergeExpectedData, validateMerged, validateUpdateInput } from '../domain/expected-data';
import { VerificationStatus } from '../domain/status';
import { expiryFrom } from './create-verification';
import { setStatus, updateData } from '../domain/transitions';
import type { CreateVerificationInput } from './create-verification';
import type { Deps, RequestInfo } from './deps';
import { presentVerification } from './present';
import { actedBy, applyVerificationChange, type ChangeDeps } from './verification-actions';
import type { EventType } from '../events/events';

/** The event of each final status, as Approve, Reject and Cancel publish them. */
const FINAL_EVENTS: Partial<Record<VerificationStatus, EventType>> = {
  [VerificationStatus.Approved]: 'VerificationFinished',
  [VerificationStatus.Rejected]: 'VerificationFinished',
  [VerificationStatus.Canceled]: 'VerificationCanceled',
};

export interface UpdateVerificationInput extends CreateVerificationInput {
  status?: VerificationStatus | undefined;
  comment?: string | undefined;
  email?: string | undefined;
}

/**
 * Merges the given fields into the verification. With `status` (plus comment and e-mail) it also
 * changes status with a history entry naming the expected-data fields changed; Double Check (5)
 * re-runs the pipeline. Once checked (Submitted, Approved, Rejected, Double Check), expected data
 * changes only with a status (400 otherwise), so no decision is left standing on data it never saw.
 */
export async function updateVerification(deps: ChangeDeps & Pick<Deps, 'sessionSecret' | 'publicBaseUrl'>, req: RequestInfo, flowPath: string, id: string, input: UpdateVerificationInput) {
  // Every move into a final status publishes its event, whatever route made it.
  const event = input.status === undefined ? undefined : FINAL_EVENTS[input.status];
  const { flow, aggregate } = await applyVerificationChange(deps, flowPath, id, (agg, flow, ctx) => {
    const errors: FieldErrorCollector = validateUpdateInput(flow, input);
    const expectedData = mergeExpectedData(agg.verification.expectedData, input);
    validateMerged(flow, expectedData, errors);
    const patch = {
      expectedData,
      ...(input.vendor_reference !== undefined && { vendorReference: input.vendor_reference }),
      ...(input.vendor_state !== undefined && { vendorState: input.vendor_state }),
    };
    if (input.status === VerificationStatus.Started) {
      // Back to Started by hand: the person gets the flow's full time again.
      Object.assign(patch, { expiresAt: expiryFrom(ctx.now, flow) });
    }
    const changed = changedFields(agg.verification.expectedData, expectedData);
    if (input.status !== undefined && input.comment && input.email) {
      return setStatus(agg, input.status, actedBy(req, { comment: input.comment, email: input.email }), ctx, patch, changed);
    }
    return updateData(agg, ctx, patch, changed);
  }, event);
  return presentVerification(deps, req, aggregate.verification, flow.name);
}
