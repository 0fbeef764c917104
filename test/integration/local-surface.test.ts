import { readFileSync, readdirSync, readlinkSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { GetObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { LOCAL_BUCKET } from '../../local/runtime';
import { useTestRuntime } from './harness';

const t = useTestRuntime();

/** This process and every descendant, from the parent ids in /proc/<pid>/stat. */
function processTree(root: number): number[] {
  const parent = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      parent.set(Number(entry), ppid);
    } catch {
      // the process ended meanwhile
    }
  }
  const tree = [root];
  for (let i = 0; i < tree.length; i++) for (const [pid, ppid] of parent) if (ppid === tree[i]) tree.push(pid);
  return tree;
}

function socketInodes(pids: number[]): Set<string> {
  const inodes = new Set<string>();
  for (const pid of pids) {
    let fds: string[] = [];
    try {
      fds = readdirSync(`/proc/${pid}/fd`);
    } catch {
      continue;
    }
    for (const fd of fds) {
      try {
        const m = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
        if (m?.[1]) inodes.add(m[1]);
      } catch {
        // closed meanwhile
      }
    }
  }
  return inodes;
}

/** /proc/net/tcp{,6} addresses: little-endian 32-bit words in hex. */
function address(hex: string): string {
  const words = hex.match(/.{8}/g) ?? [];
  const bytes = words.flatMap((w) => (w.match(/../g) ?? []).reverse().map((b) => parseInt(b, 16)));
  if (bytes.length === 4) return bytes.join('.');
  if (bytes.slice(0, 10).every((b) => b === 0) && bytes[10] === 0xff && bytes[11] === 0xff) return `::ffff:${bytes.slice(12).join('.')}`;
  const groups: string[] = [];
  for (let i = 0; i < 16; i += 2) groups.push((((bytes[i] ?? 0) << 8) | (bytes[i + 1] ?? 0)).toString(16));
  return groups.join(':').replace(/(^|:)0(:0)+(:|$)/, '::');
}

/** Listening TCP sockets (state 0A) owned by the given processes: `address:port`. */
function listening(pids: number[]): string[] {
  const inodes = socketInodes(pids);
  const out: string[] = [];
  for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
    for (const line of readFileSync(file, 'utf8').split('\n').slice(1)) {
      const cols = line.trim().split(/\s+/);
      if (cols[3] !== '0A' || !inodes.has(cols[9] ?? '')) continue;
      const [addr = '', port = ''] = (cols[1] ?? '').split(':');
      out.push(`${address(addr)}:${parseInt(port, 16)}`);
    }
  }
  return out;
}

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|::ffff:127\.\d+\.\d+\.\d+):\d+$/;

function s3With(credentials: { accessKeyId: string; secretAccessKey: string }, endpoint = t.h.runtime.endpoints.s3) {
  return new S3Client({ region: 'us-east-1', endpoint, forcePathStyle: true, credentials, maxAttempts: 1, requestChecksumCalculation: 'WHEN_REQUIRED' });
}

describe('the local runtime exposes nothing beyond loopback and nothing without credentials', () => {
  it('listens only on loopback addresses, in every process it started (the API, the S3 gate, DynamoDB Local)', () => {
    const tree = processTree(process.pid);
    expect(tree).toContain(t.h.runtime.dynamoPid);
    const sockets = listening(tree);
    const ports = sockets.map((s) => Number(s.split(':').pop()));
    expect(ports).toEqual(expect.arrayContaining([Number(new URL(t.h.runtime.url).port), Number(new URL(t.h.runtime.endpoints.dynamodb).port), Number(new URL(t.h.runtime.endpoints.s3).port)]));
    for (const socket of sockets) expect(socket).toMatch(LOOPBACK);
  });

  it('keeps the data folder private (0700) and its credentials and session secret readable by the owner only (0600)', () => {
    const { dataDir } = t.h;
    expect(statSync(dataDir).mode & 0o777).toBe(0o700);
    expect(statSync(join(dataDir, 'credentials.json')).mode & 0o777).toBe(0o600);
    expect(statSync(join(dataDir, 'session-secret')).mode & 0o777).toBe(0o600);
    const credentials = JSON.parse(readFileSync(join(dataDir, 'credentials.json'), 'utf8'));
    expect(credentials.accessKeyId).toMatch(/^LOCAL[0-9A-F]{16}$/);
    expect(credentials.secretAccessKey.length).toBeGreaterThanOrEqual(40);
    // The service signs with these (handed to it, never written into process.env).
    expect(t.h.runtime.credentials).toEqual(credentials);
    expect(process.env.AWS_SECRET_ACCESS_KEY).not.toBe(credentials.secretAccessKey);
  });

  it('refuses unsigned and wrongly signed DynamoDB requests', async () => {
    const endpoint = t.h.runtime.endpoints.dynamodb;
    const unsigned = await fetch(endpoint, { method: 'POST', body: '{}', headers: { 'X-Amz-Target': 'DynamoDB_20120810.ListTables', 'Content-Type': 'application/x-amz-json-1.0' } });
    expect(unsigned.status).toBe(400);
    expect(await unsigned.text()).toContain('MissingAuthenticationToken');
    const { accessKeyId } = JSON.parse(readFileSync(join(t.h.dataDir, 'credentials.json'), 'utf8'));
    for (const credentials of [{ accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' }, { accessKeyId, secretAccessKey: 'guessed' }]) {
      const error = await new DynamoDBClient({ region: 'us-east-1', endpoint, credentials, maxAttempts: 1 }).send(new ListTablesCommand({})).catch((e: unknown) => e as Error);
      expect((error as Error).name).toMatch(/UnrecognizedClientException|InvalidSignatureException/);
    }
    const good = JSON.parse(readFileSync(join(t.h.dataDir, 'credentials.json'), 'utf8'));
    const ok = await new DynamoDBClient({ region: 'us-east-1', endpoint, credentials: good, maxAttempts: 1 }).send(new ListTablesCommand({}));
    expect(ok.TableNames).toContain('idv-local');
  });

  it('refuses unsigned PUT, DELETE and GET on the S3 server, and requests signed with the old fixed keys', async () => {
    const endpoint = t.h.runtime.endpoints.s3;
    for (const method of ['PUT', 'DELETE', 'GET']) {
      const res = await fetch(`${endpoint}/${LOCAL_BUCKET}/documents/planted.jpg`, { method, body: method === 'PUT' ? 'x' : undefined });
      expect(res.status).toBe(403);
    }
    const error = await s3With({ accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' })
      .send(new PutObjectCommand({ Bucket: LOCAL_BUCKET, Key: 'documents/planted.jpg', Body: 'x' }))
      .catch((e: unknown) => e as Error);
    expect((error as Error).name).toBe('InvalidAccessKeyId');
    const good = JSON.parse(readFileSync(join(t.h.dataDir, 'credentials.json'), 'utf8'));
    await s3With(good).send(new PutObjectCommand({ Bucket: LOCAL_BUCKET, Key: 'documents/probe.txt', Body: 'hello' }));
    const back = await s3With(good).send(new GetObjectCommand({ Bucket: LOCAL_BUCKET, Key: 'documents/probe.txt' }));
    expect(await back.Body?.transformToString()).toBe('hello');
  });

  it('does not serve image links forged with the public fixed key pair', async () => {
    const good = JSON.parse(readFileSync(join(t.h.dataDir, 'credentials.json'), 'utf8'));
    await s3With(good).send(new PutObjectCommand({ Bucket: LOCAL_BUCKET, Key: 'documents/linked.txt', Body: 'secret' }));
    const publicEndpoint = t.h.runtime.endpoints.s3Public;
    const forged = await getSignedUrl(s3With({ accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' }, publicEndpoint), new GetObjectCommand({ Bucket: LOCAL_BUCKET, Key: 'documents/linked.txt' }), { expiresIn: 60 });
    expect((await fetch(forged)).status).toBe(403);
    const genuine = await getSignedUrl(s3With(good, publicEndpoint), new GetObjectCommand({ Bucket: LOCAL_BUCKET, Key: 'documents/linked.txt' }), { expiresIn: 60 });
    const res = await fetch(genuine);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('secret');
  });
});
