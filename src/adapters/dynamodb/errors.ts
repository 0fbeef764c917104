import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';

/**
 * For a cancelled transaction, the indexes of the items whose condition failed; undefined when the
 * error is not a cancelled transaction (then it is rethrown as is).
 */
export function failedConditions(error: unknown): number[] | undefined {
  if (!(error instanceof TransactionCanceledException) && (error as { name?: string })?.name !== 'TransactionCanceledException') {
    return undefined;
  }
  const reasons = (error as TransactionCanceledException).CancellationReasons ?? [];
  const failed: number[] = [];
  reasons.forEach((r, i) => {
    if (r.Code === 'ConditionalCheckFailed') failed.push(i);
  });
  return failed;
}
