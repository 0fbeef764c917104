import { GetSecretValueCommand, type SecretsManagerClient } from '@aws-sdk/client-secrets-manager';

/** Reads the session-link secret once per container from Secrets Manager. */
export async function loadSessionSecret(client: SecretsManagerClient, secretId: string): Promise<Uint8Array> {
  const out = await client.send(new GetSecretValueCommand({ SecretId: secretId }));
  if (!out.SecretString) throw new Error('session secret is empty');
  return Buffer.from(out.SecretString, 'utf8');
}
