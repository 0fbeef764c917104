/**
 * Replays stored verifications with the rules and thresholds of this checkout, and prints which
 * decisions would change (docs/explanation/fraud-signals.md). Reads only; writes nothing.
 *
 *   npm run replay -- --verification ver_… [--local | --table TABLE] [--rules config/rules.json] [--flows config/flows.json]
 *   npm run replay -- --flow default [--limit 1000] …
 *
 * --local reads the table of a running `npm start` ($DATA_DIR/runtime.json, default .data); --table (or
 * $TABLE_NAME) a deployed one with your AWS credentials. --rules / --flows: the thresholds and flow
 * checks to try (default: the checked-in files). Exit 0, or 3 when some decision would change.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import * as v from 'valibot';
import { DynamoVerificationRepository } from '../src/adapters/dynamodb/verification-repository';
import { SystemClock } from '../src/adapters/ids';
import { type ReplayResult, replayFlow, replayVerification } from '../src/app/replay';
import { resolveFlows } from '../src/domain/flow';
import { type RuleThresholds } from '../src/domain/rules';
import { RuleThresholdsSchema } from '../src/domain/rule-thresholds';

const ROOT = join(__dirname, '..');

/** What a replay reads: the stored verifications, and the flows and thresholds to try. */
export function replayDeps(doc: DynamoDBDocumentClient, table: string, thresholds: RuleThresholds, flowsFile: unknown) {
  const flows = resolveFlows(flowsFile);
  return {
    verifications: new DynamoVerificationRepository(doc, table),
    flows: { get: async (path: string) => flows.find((f) => f.path === path), list: async () => flows },
    ruleThresholds: thresholds,
    clock: new SystemClock(),
  };
}

/** One line per verification, then the rules that changed under each changed one. */
export function formatReplay(results: ReplayResult[]): string {
  const lines: string[] = [];
  for (const r of results) {
    lines.push(`${r.changed ? 'CHANGED' : 'same   '} ${r.verificationId}: ${r.recorded}${r.changed ? ` -> ${r.replayed}` : ''}`);
    for (const c of r.rules) lines.push(`          ${c.document} ${c.rule}: ${c.before ?? '(none)'} -> ${c.after ?? '(none)'}`);
  }
  const changed = results.filter((r) => r.changed).length;
  lines.push(`${results.length} replayed, ${changed} decision(s) would change`);
  return lines.join('\n');
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      verification: { type: 'string' },
      flow: { type: 'string' },
      limit: { type: 'string', default: '1000' },
      local: { type: 'boolean', default: false },
      table: { type: 'string' },
      rules: { type: 'string', default: join(ROOT, 'config', 'rules.json') },
      flows: { type: 'string', default: join(ROOT, 'config', 'flows.json') },
    },
  });
  if (!values.verification === !values.flow) {
    console.error('Usage: npm run replay -- (--verification ID | --flow FLOW) [--local | --table TABLE] [--rules FILE] [--flows FILE]');
    return 2;
  }
  let client: DynamoDBClient;
  let table = values.table ?? process.env.TABLE_NAME;
  if (values.local) {
    const dir = process.env.DATA_DIR ?? '.data';
    if (!existsSync(join(dir, 'runtime.json'))) {
      console.error(`No running local service found (${join(dir, 'runtime.json')}); start it with npm start.`);
      return 1;
    }
    const runtime = JSON.parse(readFileSync(join(dir, 'runtime.json'), 'utf8')) as { dynamodbEndpoint: string; table: string };
    const credentials = JSON.parse(readFileSync(join(dir, 'credentials.json'), 'utf8')) as { accessKeyId: string; secretAccessKey: string };
    client = new DynamoDBClient({ region: 'us-east-1', endpoint: runtime.dynamodbEndpoint, credentials });
    table = runtime.table;
  } else {
    client = new DynamoDBClient({});
  }
  if (!table) {
    console.error('Name the table with --table (stack output TableName), TABLE_NAME, or use --local.');
    return 2;
  }
  const thresholds = v.parse(RuleThresholdsSchema, JSON.parse(readFileSync(values.rules, 'utf8')));
  const deps = replayDeps(DynamoDBDocumentClient.from(client), table, thresholds, JSON.parse(readFileSync(values.flows, 'utf8')));
  const results = values.verification
    ? [await replayVerification(deps, values.verification)].filter((r): r is ReplayResult => r !== undefined)
    : await replayFlow(deps, values.flow as string, Number(values.limit));
  if (values.verification && results.length === 0) {
    console.error(`${values.verification}: not found, or no automatic decision to compare with.`);
    return 1;
  }
  console.log(formatReplay(results));
  return results.some((r) => r.changed) ? 3 : 0;
}

if (require.main === module) {
  main().then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error((error as Error).message);
      process.exit(1);
    },
  );
}
