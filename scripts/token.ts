import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { DynamoTokenRepository } from '../src/adapters/dynamodb/token-repository';
import { SystemClock } from '../src/adapters/ids';
import { hashToken, newApiToken } from '../src/app/tokens';

const USAGE = `Usage:
  npm run token -- create --name NAME [--flow FLOW ...] [--reviewer] [--table TABLE | --local]
  npm run token -- revoke --name NAME [--table TABLE | --local]

  --table   the deployed table (stack output TableName); default: $TABLE_NAME. Uses your AWS credentials.
  --local   the table of a running \`npm start\` (reads $DATA_DIR/runtime.json, default .data).

create prints the new token once; only its SHA-256 hash is stored. Names are unique: create refuses
a name in use. --flow (repeatable) limits the
token to those flows: other flows answer 404 to it, and the all-flows list is not available to it.
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
  const tokens = new DynamoTokenRepository(DynamoDBDocumentClient.from(client), table);
  if (command === 'revoke') {
    const removed = await tokens.deleteByName(name);
    console.log(removed > 0 ? `Revoked ${removed} token(s) named ${name}.` : `No token named ${name}.`);
    return removed > 0 ? 0 : 1;
  }
  const token = newApiToken();
  const flows = values.flow?.map((f) => f.trim()).filter(Boolean);
  const created = await tokens.create({ name, hash: hashToken(token), createdAt: new SystemClock().now(), ...(flows?.length && { flows }), ...(values.reviewer && { reviewer: true }) });
  if (!created) {
    console.error(`A token named ${name} exists already; choose another name, or revoke it first.`);
    return 1;
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
