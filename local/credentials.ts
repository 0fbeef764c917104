import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface LocalCredentials {
  accessKeyId: string;
  secretAccessKey: string;
}

/** The file, inside the data folder, that holds its credentials (mode 0600). */
export const CREDENTIALS_FILE = 'credentials.json';

/**
 * Makes the data folder private (0700, also when it already existed) and returns the credentials
 * DynamoDB Local and the S3 server accept for it, generated on first use and kept in
 * `<dataDir>/credentials.json` with mode 0600. Nothing else on the machine knows them, so nothing
 * else can read the personal data the local services hold or mint an API token.
 */
export function dataFolderCredentials(dataDir: string): { credentials: LocalCredentials; file: string } {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  chmodSync(dataDir, 0o700);
  const file = join(dataDir, CREDENTIALS_FILE);
  if (existsSync(file)) {
    chmodSync(file, 0o600);
    const stored = JSON.parse(readFileSync(file, 'utf8')) as Partial<LocalCredentials>;
    if (typeof stored.accessKeyId === 'string' && typeof stored.secretAccessKey === 'string') {
      return { credentials: { accessKeyId: stored.accessKeyId, secretAccessKey: stored.secretAccessKey }, file };
    }
  }
  const credentials = {
    accessKeyId: `LOCAL${randomBytes(8).toString('hex').toUpperCase()}`,
    secretAccessKey: randomBytes(30).toString('base64url'),
  };
  writeFileSync(file, JSON.stringify(credentials), { mode: 0o600 });
  chmodSync(file, 0o600);
  return { credentials, file };
}
