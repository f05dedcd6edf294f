import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import type { ApiKeySource } from './api-key-source';

/**
 * The model's key could not be read from its secret: missing in this region, not readable by the
 * role, empty, or JSON without a key. The message names the secret and the region, never a value.
 */
export class ApiKeySecretError extends Error {
  override readonly name = 'ApiKeySecretError';
  constructor(
    readonly secretId: string,
    readonly region: string,
    readonly reason: string,
    options?: { cause?: unknown },
  ) {
    super(`cannot read the OpenAI key secret "${secretId}" in ${region}: ${reason}`, options);
  }
}

/**
 * The model's API key, fetched from Secrets Manager once per container (callers keep the result).
 * A secret may hold the bare key or JSON with an `apiKey`/`OPENAI_API_KEY` field. Throws
 * `ApiKeySecretError` when it cannot.
 */
export async function resolveApiKey(source: ApiKeySource, region: string): Promise<string> {
  if (source.kind === 'value') return source.value;
  const fail = (reason: string, cause?: unknown): never => {
    throw new ApiKeySecretError(source.secretId, region, reason, { cause });
  };
  const client = new SecretsManagerClient({ region });
  try {
    const secret = await client
      .send(new GetSecretValueCommand({ SecretId: source.secretId }))
      .catch((error: unknown) =>
        fail(error instanceof Error ? `${error.name}: ${error.message}` : String(error), error),
      );
    const value = secret.SecretString?.trim() ?? '';
    if (value.startsWith('{')) {
      let parsed: Record<string, unknown> = {};
      try {
        parsed = JSON.parse(value) as Record<string, unknown>;
      } catch {
        fail('it starts with "{" but is not JSON');
      }
      const key = parsed.apiKey ?? parsed.OPENAI_API_KEY ?? parsed.api_key;
      if (typeof key === 'string' && key !== '') return key;
      fail('it holds JSON without an apiKey field');
    }
    if (value === '') fail('it is empty');
    return value;
  } finally {
    client.destroy();
  }
}
