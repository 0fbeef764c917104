import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import type { TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';

export type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/**
 * The items of one TransactWriteItems call, those whose condition the caller tells apart under a
 * name: a cancelled transaction's failed conditions are reported by name, never by position (an
 * item added in front would otherwise silently change what an index means).
 */
export class Transaction<Name extends string> {
  readonly items: TransactItem[] = [];
  private readonly names: (Name | undefined)[] = [];

  /** An item whose failed condition the caller maps to its own error. */
  add(name: Name, item: TransactItem): this {
    this.items.push(item);
    this.names.push(name);
    return this;
  }

  /** Items whose failure needs no name of its own (outbox rows, counters, history). */
  addAll(items: TransactItem[]): this {
    for (const item of items) {
      this.items.push(item);
      this.names.push(undefined);
    }
    return this;
  }

  /**
   * For a cancelled transaction, the names of the items whose condition failed (an empty set when it
   * was cancelled for another reason, such as a conflicting transaction, or an unnamed item failed);
   * undefined when the error is not a cancelled transaction (the caller rethrows it as is).
   */
  failed(error: unknown): Set<Name> | undefined {
    if (!(error instanceof TransactionCanceledException) && (error as { name?: string })?.name !== 'TransactionCanceledException') {
      return undefined;
    }
    const reasons = (error as TransactionCanceledException).CancellationReasons ?? [];
    const failed = new Set<Name>();
    reasons.forEach((reason, i) => {
      const name = this.names[i];
      if (reason.Code === 'ConditionalCheckFailed' && name !== undefined) failed.add(name);
    });
    return failed;
  }

}
