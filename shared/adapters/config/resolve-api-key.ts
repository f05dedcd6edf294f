import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import type { ApiKeySource } from './service-config';

/**
 * The model's API key, fetched from Secrets Manager once per container (callers keep the result).
 * A secret may hold the bare key or JSON with an `apiKey`/`OPENAI_API_KEY` field.
 */
export async function resolveApiKey(source: ApiKeySource, region: string): Promise<string> {
  if (source.kind === 'value') return source.value;
  const client = new SecretsManagerClient({ region });
  try {
    const secret = await client.send(new GetSecretValueCommand({ SecretId: source.secretId }));
    const value = secret.SecretString?.trim() ?? '';
    if (value.startsWith('{')) {
      const parsed = JSON.parse(value) as Record<string, unknown>;
      const key = parsed.apiKey ?? parsed.OPENAI_API_KEY ?? parsed.api_key;
      if (typeof key === 'string' && key !== '') return key;
      throw new Error(`secret ${source.secretId} holds JSON without an apiKey field`);
    }
    if (value === '') throw new Error(`secret ${source.secretId} is empty`);
    return value;
  } finally {
    client.destroy();
  }
}
