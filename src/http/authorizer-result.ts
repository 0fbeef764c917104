import type { APIGatewayAuthorizerResult } from 'aws-lambda';
import type { Principal } from '../app/authorize';

/**
 * The allow policy for the whole API, the principal as context and, when usage plans meter the API,
 * the token's API key (its id: the token CLI creates the key with that value), so that API Gateway
 * counts the request against that token's quota.
 */
export function authorizerResult(principal: Principal, methodArn: string, usageKeys: boolean): APIGatewayAuthorizerResult {
  const [arn = '', stage = '*'] = methodArn.split('/');
  return {
    principalId: principal.tokenName,
    policyDocument: {
      Version: '2012-10-17',
      Statement: [{ Action: 'execute-api:Invoke', Effect: 'Allow', Resource: `${arn}/${stage}/*` }],
    },
    context: { tokenName: principal.tokenName, tokenId: principal.tokenId, flows: principal.flows, reviewer: principal.reviewer },
    ...(usageKeys && { usageIdentifierKey: principal.tokenId }),
  };
}
