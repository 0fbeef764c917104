import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { DynamoTokenRepository } from '../src/adapters/dynamodb/token-repository';
import { SystemClock } from '../src/adapters/ids';
import { hashToken, newApiToken } from '../src/app/tokens';

/**
 * The name of the reviewer token `npm start` issues for the local console. A reviewer token's name is
 * the acting e-mail recorded in history (it must pass the API's e-mail check), so it reads as one.
 */
export const LOCAL_REVIEWER = 'local-reviewer@example.com';

/**
 * Issues a fresh named reviewer token for the local console, replacing the one a previous start
 * issued (only its hash is stored, so the old one cannot be shown again). The API token `npm start`
 * prints opens the console read-only: approving, rejecting and changing a status need a reviewer
 * token, and a new user should not have to find `npm run token -- create --reviewer` first.
 */
export async function issueLocalReviewerToken(doc: DynamoDBDocumentClient, table: string): Promise<{ name: string; token: string }> {
  const tokens = new DynamoTokenRepository(doc, table);
  const token = newApiToken();
  await tokens.deleteByName(LOCAL_REVIEWER);
  await tokens.put({ name: LOCAL_REVIEWER, hash: hashToken(token), createdAt: new SystemClock().now(), reviewer: true });
  return { name: LOCAL_REVIEWER, token };
}
