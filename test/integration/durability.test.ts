import { GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { LOCAL_TABLE } from '../../local/runtime';
import { b64, png } from '../fixtures/images';
import { client, defaultBody, startTestRuntime } from './harness';

/** Kills of DynamoDB Local; each costs its restart (a JVM start, 5-8 s here). */
const KILLS = 8;
const passport = { person: { given_names: 'Ada', surname: 'Lovelace', date_of_birth: '1990-12-10' }, document: { number: 'P123', country_code: 'GBR', expiration_date: '2031-01-01', type: 'P' } };

async function until(what: string, check: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check().catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('kill -9 of DynamoDB Local right after a burst of acknowledged writes (data on disk, as npm start keeps it)', () => {
  jest.setTimeout(170_000);
  let h: Awaited<ReturnType<typeof startTestRuntime>>;

  beforeAll(async () => {
    h = await startTestRuntime({ inMemory: false, serviceRestartDelayMs: 100 });
  });
  afterAll(async () => {
    await h?.stop();
  });

  it(`finds every acknowledged write after each of ${KILLS} restarts: transactions, created verifications and uploaded documents`, async () => {
    const { runtime } = h;
    const api = client(runtime);
    const lost: string[] = [];
    let acknowledged = 0;
    let n = 0;
    for (let kill = 0; kill < KILLS; kill++) {
      const pid = runtime.dynamoPid;
      const written: string[] = [];
      const verifications: string[] = [];
      const documents: string[] = [];
      // DynamoDB Local is killed the moment a transaction is acknowledged, the 3rd to the 10th of the burst:
      // the answer a client acts on, with uploads through the API going on beside it.
      const killAt = 3 + (kill % 8);
      let stop = false;
      const transactions = Array.from({ length: 4 }, async () => {
        while (!stop) {
          const pk = `durability#${n++}`;
          try {
            await runtime.doc.send(
              new TransactWriteCommand({
                TransactItems: [
                  { Put: { TableName: LOCAL_TABLE, Item: { PK: pk, SK: 'a' }, ConditionExpression: 'attribute_not_exists(PK)' } },
                  { Put: { TableName: LOCAL_TABLE, Item: { PK: pk, SK: 'b' } } },
                ],
              }),
            );
          } catch {
            return;
          }
          written.push(pk);
          if (written.length === killAt && !stop) {
            stop = true;
            process.kill(pid ?? 0, 'SIGKILL');
          }
        }
      });
      const uploads = Array.from({ length: 2 }, async (_, w) => {
        while (!stop) {
          const created = await api('POST', '/api/v1/default/verifications', defaultBody(), { skipContract: true });
          if (created.status !== 201) return;
          verifications.push(created.body.data.id);
          const document = { context_type: 'PHOTO_ID', type: 1, country: 'GBR', front_side_data: b64(png(8, 8, kill * 100 + w, passport)) };
          const uploaded = await api('POST', '/api/v1/default/documents', { verification: created.body.data.id, document }, { skipContract: true });
          if (uploaded.status !== 201) return;
          documents.push(uploaded.body.data.id);
        }
      });
      await Promise.all(transactions);
      await until('DynamoDB Local to be restarted', async () => runtime.dynamoPid !== pid && (await api('GET', '/health')).status === 200, 60_000);
      await Promise.all(uploads);

      for (const pk of written) {
        const item = await runtime.doc.send(new GetCommand({ TableName: LOCAL_TABLE, Key: { PK: pk, SK: 'b' }, ConsistentRead: true }));
        if (!item.Item) lost.push(`kill ${kill}: transaction ${pk}`);
      }
      for (const id of verifications) {
        if ((await api('GET', `/api/v1/default/verifications/${id}`)).status !== 200) lost.push(`kill ${kill}: verification ${id}`);
      }
      for (const id of documents) {
        if ((await api('GET', `/api/v1/default/documents/${id}`)).status !== 200) lost.push(`kill ${kill}: document ${id}`);
      }
      acknowledged += written.length + verifications.length + documents.length;
    }
    expect(acknowledged).toBeGreaterThan(KILLS * 3);
    expect(lost).toEqual([]);
  });
});
