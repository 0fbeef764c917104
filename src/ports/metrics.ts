/**
 * CloudWatch namespace of the service's business metrics. lib/operations.ts alarms on them and draws
 * them from here, so that the names written and the names alarmed on cannot drift apart.
 */
export const METRICS_NAMESPACE = 'IdentityVerification';

/** The business metrics, each emitted only by the function where its event happens. */
export const METRIC = {
  /** Create Verification (Count). */
  verificationsCreated: 'VerificationsCreated',
  /** A run's automatic outcome (Count; dimension `outcome`: Approved, Rejected, Double Check). */
  verificationsDecided: 'VerificationsDecided',
  /** One call of an extractor, cache hits excluded (Milliseconds; dimensions `extractor`, `context`). */
  extractionLatency: 'ExtractionLatency',
  /** Mean confidence of the fields one extraction read (Percent; dimensions `extractor`, `context`). */
  extractionConfidence: 'ExtractionConfidence',
  /** One webhook delivery attempt's outcome (Count; dimension `outcome`: delivered, retrying, failed). */
  webhookDeliveries: 'WebhookDeliveries',
  /** Age of the oldest event the outbox job found unpublished (Seconds; 0 when none). */
  outboxOldestAge: 'OutboxOldestAge',
  /** Events the outbox job set aside because they can never be published (Count; recorded only when some were). */
  outboxSetAside: 'OutboxEventsSetAside',
  /** Age of the oldest run the sweeper looked at: how long its verification has been Submitted (Seconds; 0 when none). */
  submittedOldestAge: 'SubmittedOldestAge',
  /**
   * Age in days of the oldest newest-snapshot among the configured sanctions lists, after each list
   * refresh (Count; 9999 when a list has none): alarmed at the flows' max_age_days and when missing.
   */
  screeningSnapshotAge: 'ScreeningSnapshotAge',
} as const;

export type MetricName = (typeof METRIC)[keyof typeof METRIC];
export type MetricUnit = 'Count' | 'Milliseconds' | 'Seconds' | 'Percent';

/**
 * Business metrics (deployed: CloudWatch embedded metric format, written with the function's logs,
 * so recording costs no request). Dimensions hold only small fixed sets (outcomes, extractor and
 * context names), never ids or personal data: each combination is a metric of its own.
 */
export interface BusinessMetrics {
  record(name: MetricName, value: number, unit: MetricUnit, dimensions?: Readonly<Record<string, string>>): void;
}
