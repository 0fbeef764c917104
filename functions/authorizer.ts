import type { APIGatewayAuthorizerResult, APIGatewayTokenAuthorizerEvent } from 'aws-lambda';
import { authorize, type Principal } from '../src/app/authorize';
import { getDeps } from '../src/container';
import { UnauthorizedError } from '../src/domain/errors';
import { logger } from '../src/logger';

/**
 * TOKEN authorizer. The policy allows the whole API (`<api>/<stage>/*`) so that API Gateway's
 * result cache, keyed by token, serves every route. Throwing "Unauthorized" makes API Gateway answer 401.
 */
export async function handler(event: APIGatewayTokenAuthorizerEvent): Promise<APIGatewayAuthorizerResult> {
  let principal: Principal;
  try {
    principal = await authorize(await getDeps(), event.authorizationToken);
  } catch (error) {
    if (!(error instanceof UnauthorizedError)) logger.error('authorizer failed', { errorName: (error as Error).name });
    throw new Error('Unauthorized');
  }
  const [arn = '', stage = '*'] = event.methodArn.split('/');
  return {
    principalId: principal.tokenName,
    policyDocument: {
      Version: '2012-10-17',
      Statement: [{ Action: 'execute-api:Invoke', Effect: 'Allow', Resource: `${arn}/${stage}/*` }],
    },
    context: { tokenName: principal.tokenName, tokenId: principal.tokenId, flows: principal.flows },
  };
}
