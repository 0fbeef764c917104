import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { IdvStack } from '../../lib/stack';
import { constructName } from '../../lib/service-function';
import { callBudgetMs, REQUEST_BUDGET_MS } from '../../src/clients';
import { handlerFiles } from '../../src/http/routes';

// Asset bundling is skipped (no esbuild run), as in stack.test.ts.
const app = new App({ context: { ...JSON.parse(readFileSync(join(__dirname, '..', '..', 'cdk.json'), 'utf8')).context, 'aws:cdk:bundling-stacks': [] } });
const template = Template.fromStack(new IdvStack(app, 'TestStack', { env: { account: '123456789012', region: 'eu-west-1' } }));

/** API Gateway's integration timeout: after it the client has been answered 504 whatever the function does. */
const API_GATEWAY_SECONDS = 29;

/** The Timeout (seconds) of the one function whose logical id is the construct id plus CDK's hash. */
function timeoutOf(constructId: string): number {
  const fns = Object.entries(template.findResources('AWS::Lambda::Function')).filter(([id]) => id.startsWith(constructId) && /^[0-9A-F]{8}$/.test(id.slice(constructId.length)));
  expect(fns).toHaveLength(1);
  return fns[0]![1].Properties.Timeout as number;
}

describe('time budgets of the API functions', () => {
  it('keeps the request budget inside API Gateway, and one stalled table call far inside the request budget', () => {
    expect(REQUEST_BUDGET_MS / 1000).toBeLessThan(API_GATEWAY_SECONDS);
    // A stalled table fails a request at its first call: within one call budget, twice with an idempotency release after it.
    expect(2 * callBudgetMs('dynamodb')).toBeLessThan(REQUEST_BUDGET_MS);
  });

  it.each(handlerFiles())('gives %s a timeout above the request budget and below API Gateway\'s', (file) => {
    const seconds = timeoutOf(`Api${constructName(file)}Function`);
    expect(seconds).toBeGreaterThan(REQUEST_BUDGET_MS / 1000);
    expect(seconds).toBeLessThan(API_GATEWAY_SECONDS);
  });

  it('gives the authorizer a timeout above its one table read\'s budget, so a token that cannot be looked up is answered 503', () => {
    const seconds = timeoutOf('ApiAuthorizerFunction');
    expect(seconds).toBeGreaterThan(callBudgetMs('dynamodb') / 1000);
    expect(seconds).toBeLessThan(API_GATEWAY_SECONDS);
  });
});
