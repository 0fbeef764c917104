import { expectMatchesContract, expectRequestMatchesContract } from '../integration/contract';

// The integration tests check every request they send and every answer they get against the served
// contract (test/integration/harness.ts); these show that the checks can fail.
describe('the contract checks of the integration harness', () => {
  it('fails a request body the service accepted but the contract forbids, and passes one it allows', () => {
    expect(() => expectRequestMatchesContract('POST', '/api/v1/default/webhooks', 201, { url: 'https://a.example/h', events: ['Nope'] })).toThrow(/createWebhook accepted \(201\) a request body the document forbids/);
    expect(() => expectRequestMatchesContract('POST', '/api/v1/default/webhooks', 201, { url: 'https://a.example/h', events: ['VerificationFinished'] })).not.toThrow();
    expect(() => expectRequestMatchesContract('PUT', '/api/v1/default/verifications/ver_1/approve', 200, { comment: '' })).toThrow(/forbids/);
  });

  it('leaves refused requests to the error rows: a 4xx answer is not a contract question for the body', () => {
    expect(() => expectRequestMatchesContract('POST', '/api/v1/default/webhooks', 422, { url: 5 })).not.toThrow();
  });

  it('fails an answer with a status or a body the contract does not document', () => {
    expect(() => expectMatchesContract('GET', '/api/v1/default/verifications/ver_1', 418, {})).toThrow(/not documented to answer 418/);
    expect(() => expectMatchesContract('GET', '/api/v1/default/verifications/ver_1', 404, { nope: true })).toThrow(/body does not match/);
  });
});
