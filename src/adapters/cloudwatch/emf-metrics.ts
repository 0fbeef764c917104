import { Metrics } from '@aws-lambda-powertools/metrics';
import { METRICS_NAMESPACE, type BusinessMetrics, type MetricName, type MetricUnit } from '../../ports/metrics';

/**
 * Powertools Metrics: each data point is written at once as one EMF line with its own dimensions
 * (plus `service`, POWERTOOLS_SERVICE_NAME), so nothing is buffered and nothing is lost when an
 * invocation fails after recording.
 */
export class EmfMetrics implements BusinessMetrics {
  private readonly metrics: Metrics;

  /** The `service` dimension comes from POWERTOOLS_SERVICE_NAME, as for the logger. */
  constructor() {
    this.metrics = new Metrics({ namespace: METRICS_NAMESPACE });
  }

  record(name: MetricName, value: number, unit: MetricUnit, dimensions: Readonly<Record<string, string>> = {}): void {
    const single = this.metrics.singleMetric();
    for (const [key, dimension] of Object.entries(dimensions)) single.addDimension(key, dimension);
    single.addMetric(name, unit, value);
  }
}
