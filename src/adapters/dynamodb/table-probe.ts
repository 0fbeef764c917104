import { type DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import type { DependencyProbe } from '../../ports/readiness';
import { keys } from './keys';

/**
 * The table answers a read: one eventually consistent GetItem of a key that never exists (half a
 * read unit), so the check needs only the read permission every function already has.
 */
export class DynamoTableProbe implements DependencyProbe {
  readonly name = 'dynamodb';

  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  async check(): Promise<void> {
    await this.db.send(new GetCommand({ TableName: this.table, Key: keys.healthProbe, ProjectionExpression: 'PK' }));
  }
}
