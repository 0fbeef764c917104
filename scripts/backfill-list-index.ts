import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { backfillListEntries } from '../src/adapters/dynamodb/list-backfill';

const USAGE = `Usage:
  npx tsx scripts/backfill-list-index.ts [--table TABLE | --local]

Once, after the deploy that adds the status lists and search (GSI4), with the API stopped: gives
every live verification its list entries and sets the per-status counters to what it counts.`;

async function main(): Promise<number> {
  const { values } = parseArgs({ options: { table: { type: 'string' }, local: { type: 'boolean', default: false }, help: { type: 'boolean', default: false } } });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  let client: DynamoDBClient;
  let table: string | undefined;
  if (values.local) {
    const dir = process.env.DATA_DIR ?? '.data';
    const file = join(dir, 'runtime.json');
    if (!existsSync(file)) {
      console.error(`No running local service found (${file}); start it with npm start.`);
      return 1;
    }
    const runtime = JSON.parse(readFileSync(file, 'utf8')) as { dynamodbEndpoint: string; table: string };
    const credentials = JSON.parse(readFileSync(join(dir, 'credentials.json'), 'utf8')) as { accessKeyId: string; secretAccessKey: string };
    client = new DynamoDBClient({ region: 'us-east-1', endpoint: runtime.dynamodbEndpoint, credentials });
    table = runtime.table;
  } else {
    client = new DynamoDBClient({});
    table = values.table ?? process.env.TABLE_NAME;
  }
  if (!table) {
    console.error(USAGE);
    return 2;
  }
  const done = await backfillListEntries(DynamoDBDocumentClient.from(client), table);
  console.log(`Backfilled ${done.verifications} verification(s); ${done.counters} status counter(s) set.`);
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`backfill: ${(error as Error).message}`);
    process.exit(1);
  },
);
