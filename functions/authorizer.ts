import type { APIGatewayAuthorizerResult, APIGatewayTokenAuthorizerEvent } from 'aws-lambda';
import { authorizerResult } from '../src/http/authorizer-result';
import { authorize, type Principal } from '../src/app/authorize';
import { getDeps } from '../src/container';
import { UnauthorizedError } from '../src/domain/errors';
import { ENTRY_PORTS } from '../src/entries';
import { logger, withLambdaContext } from '../src/logger';

/** Thrown when the token could not be checked: API Gateway answers it through the AUTHORIZER_* gateway responses (503). */
export const CANNOT_CHECK = 'Token could not be checked';

/**
 * TOKEN authorizer. The policy allows the whole API (`<api>/<stage>/*`) so that API Gateway's
 * result cache, keyed by token, serves every route. Throwing "Unauthorized" makes API Gateway answer
 * 401; only a token that is missing, malformed or unknown gets it. When the token store cannot be
 * read, any other error fails the request closed: API Gateway does not cache it and answers 503
 * (lib/rest-api.ts maps AUTHORIZER_FAILURE and AUTHORIZER_CONFIGURATION_ERROR), so a reviewer is
 * never signed out by an outage.
 */
export const handler = withLambdaContext(async (event: APIGatewayTokenAuthorizerEvent): Promise<APIGatewayAuthorizerResult> => {
  let principal: Principal;
  let usageKeys: boolean;
  try {
    const deps = await getDeps(ENTRY_PORTS.authorizer);
    principal = await authorize(deps, event.authorizationToken);
    usageKeys = deps.usageKeys;
  } catch (error) {
    if (error instanceof UnauthorizedError) throw new Error('Unauthorized');
    logger.error('authorizer could not check the token', { errorName: (error as Error).name });
    throw new Error(CANNOT_CHECK);
  }
  return authorizerResult(principal, event.methodArn, usageKeys);
});
