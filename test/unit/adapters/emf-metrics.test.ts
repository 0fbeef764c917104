import { EmfMetrics } from '../../../src/adapters/cloudwatch/emf-metrics';
import { METRIC, METRICS_NAMESPACE } from '../../../src/ports/metrics';

describe('EMF metrics (Powertools)', () => {
  const saved = process.env.POWERTOOLS_SERVICE_NAME;
  let lines: string[];
  let write: jest.SpyInstance;
  beforeEach(() => {
    process.env.POWERTOOLS_SERVICE_NAME = 'idv-test';
    lines = [];
    write = jest.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => (lines.push(String(chunk)), true));
  });
  afterEach(() => {
    write.mockRestore();
    if (saved === undefined) delete process.env.POWERTOOLS_SERVICE_NAME;
    else process.env.POWERTOOLS_SERVICE_NAME = saved;
  });

  it('writes each data point at once as one EMF line in the service namespace, with the service and its own dimensions', () => {
    const metrics = new EmfMetrics();
    metrics.record(METRIC.webhookDeliveries, 1, 'Count', { outcome: 'delivered' });
    metrics.record(METRIC.outboxOldestAge, 42, 'Seconds');
    const emf = lines.map((l) => JSON.parse(l));
    expect(emf).toHaveLength(2);
    expect(emf[0]._aws.CloudWatchMetrics).toEqual([
      { Namespace: METRICS_NAMESPACE, Dimensions: [expect.arrayContaining(['service', 'outcome'])], Metrics: [{ Name: 'WebhookDeliveries', Unit: 'Count' }] },
    ]);
    expect(emf[0]).toMatchObject({ service: 'idv-test', outcome: 'delivered', WebhookDeliveries: 1 });
    expect(emf[1]).toMatchObject({ service: 'idv-test', OutboxOldestAge: 42 });
    expect(emf[1].outcome).toBeUndefined();
  });
});
