import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { DynamoTokenRepository } from '../src/adapters/dynamodb/token-repository';
import { SystemClock } from '../src/adapters/ids';
import { tokenIdOf } from '../src/app/authorize';
import { hashToken, newApiToken } from '../src/app/tokens';
import { ApiGatewayKeys } from './api-keys';

const USAGE = `Usage:
  npm run token -- create --name NAME [--flow FLOW ...] [--reviewer] [--table TABLE [--usage-plan ID] | --local]
  npm run token -- revoke --name NAME [--table TABLE [--usage-plan ID] | --local]

  --table   the deployed table (stack output TableName); default: $TABLE_NAME. Uses your AWS credentials.
  --local   the table of a running \`npm start\` (reads $DATA_DIR/runtime.json, default .data).

create prints the new token once; only its SHA-256 hash is stored. Names are unique: create refuses
a name in use. --flow (repeatable) limits the
token to those flows: other flows answer 404 to it, and the all-flows list is not available to it.
--usage-plan (stack output UsagePlan<Name>Id, when the stack meters tokens with usage plans) creates
the token's API key in that plan (revoke deletes it); a metered stack answers 403 to a token without one.
--reviewer makes a named reviewer token: NAME must be the reviewer's e-mail address, and it is
recorded as the acting user of every approve, reject, resubmit, cancel and status change made with
the token (a request cannot name anyone else). The review console shows it and needs one to act.`;

/** A reviewer token's name is recorded as the acting e-mail: it must pass the API's e-mail check. */
const REVIEWER_NAME = /^[\w.+-]+@[\w-]+(\.[\w-]+)+$/;

async function main(): Promise<number> {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: {
      name: { type: 'string' },
      table: { type: 'string' },
      local: { type: 'boolean', default: false },
      flow: { type: 'string', multiple: true },
      reviewer: { type: 'boolean', default: false },
      'usage-plan': { type: 'string' },
    },
  });
  const command = positionals[0];
  const name = values.name?.trim();
  if ((command !== 'create' && command !== 'revoke') || !name || !/^[\w.@-]{1,64}$/.test(name)) {
    console.error(USAGE);
    return 2;
  }
  if (values.reviewer && !REVIEWER_NAME.test(name)) {
    console.error('A reviewer token is named by the reviewer\'s e-mail address (it is recorded in history), e.g. --name ada@example.com');
    return 2;
  }
  let client: DynamoDBClient;
  let table: string | undefined;
  if (values.local) {
    const file = join(process.env.DATA_DIR ?? '.data', 'runtime.json');
    if (!existsSync(file)) {
      console.error(`No running local service found (${file}); start it with npm start.`);
      return 1;
    }
    const runtime = JSON.parse(readFileSync(file, 'utf8')) as { dynamodbEndpoint: string; table: string };
    // DynamoDB Local accepts only requests signed with the data folder's credentials (local/credentials.ts).
    const credentials = JSON.parse(readFileSync(join(process.env.DATA_DIR ?? '.data', 'credentials.json'), 'utf8')) as { accessKeyId: string; secretAccessKey: string };
    client = new DynamoDBClient({ region: 'us-east-1', endpoint: runtime.dynamodbEndpoint, credentials });
    table = runtime.table;
  } else {
    client = new DynamoDBClient({});
    table = values.table ?? process.env.TABLE_NAME;
  }
  if (!table) {
    console.error('Name the table with --table (stack output TableName), TABLE_NAME, or use --local.');
    return 2;
  }
  const plan = values['usage-plan'];
  if (plan !== undefined && values.local) {
    console.error('--usage-plan is for a deployed stack (npm start does not meter tokens).');
    return 2;
  }
  const keys = plan === undefined ? undefined : new ApiGatewayKeys({ region: await client.config.region(), credentials: () => client.config.credentials() });
  const tokens = new DynamoTokenRepository(DynamoDBDocumentClient.from(client), table);
  if (command === 'revoke') {
    const removed = await tokens.deleteByName(name);
    const keysRemoved = keys ? await keys.remove(name) : 0;
    console.log(removed > 0 ? `Revoked ${removed} token(s) named ${name}${keys ? ` and ${keysRemoved} API key(s)` : ''}.` : `No token named ${name}.`);
    return removed > 0 ? 0 : 1;
  }
  const token = newApiToken();
  const flows = values.flow?.map((f) => f.trim()).filter(Boolean);
  const created = await tokens.create({ name, hash: hashToken(token), createdAt: new SystemClock().now(), ...(flows?.length && { flows }), ...(values.reviewer && { reviewer: true }) });
  if (!created) {
    console.error(`A token named ${name} exists already; choose another name, or revoke it first.`);
    return 1;
  }
  if (keys && plan) {
    try {
      await keys.create(name, tokenIdOf(hashToken(token)), plan);
    } catch (error) {
      // No token without its key: a metered API would refuse it anyway.
      await tokens.deleteByName(name);
      throw error;
    }
  }
  console.log(`${values.reviewer ? 'Reviewer token' : 'Token'} for ${name}${flows?.length ? ` (flows: ${flows.join(', ')})` : ''} (shown once, store it now):\n${token}`);
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`token: ${(error as Error).message}`);
    process.exit(1);
  },
);
