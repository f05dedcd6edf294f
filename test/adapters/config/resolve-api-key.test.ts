import { describe, expect, it } from 'vitest';
import { ApiKeySecretError, resolveApiKey } from '../../../shared/adapters/config/resolve-api-key';
import { useFakeSecretsManager } from '../../support/fake-secrets-manager';

useFakeSecretsManager({
  'jcc/bare': { secretString: ' sk-bare \n' },
  'jcc/json': { secretString: '{"apiKey": "sk-json"}' },
  'jcc/json-without-key': { secretString: '{"token": "sk-hidden"}' },
  'jcc/empty': { secretString: '' },
  'jcc/denied': { error: 'AccessDeniedException', message: 'not authorized' },
});

const fromSecret = (secretId: string) => resolveApiKey({ kind: 'secret', secretId }, 'eu-west-1');

describe('resolveApiKey', () => {
  it.each([
    ['jcc/bare', 'sk-bare'],
    ['jcc/json', 'sk-json'],
  ])('reads the key of %s', async (secretId, expected) => {
    // Prepare / Act / Assess
    await expect(fromSecret(secretId)).resolves.toBe(expected);
  });

  it.each([
    ['jcc/missing', /"jcc\/missing" in eu-west-1: ResourceNotFoundException/],
    ['jcc/denied', /"jcc\/denied" in eu-west-1: AccessDeniedException/],
    ['jcc/json-without-key', /"jcc\/json-without-key" in eu-west-1: .*without an apiKey/],
    ['jcc/empty', /"jcc\/empty" in eu-west-1: it is empty/],
  ])('names the secret %s and the region when it cannot read it', async (secretId, message) => {
    // Prepare / Act
    const failed = await fromSecret(secretId).catch((error: unknown) => error);

    // Assess
    expect(failed).toBeInstanceOf(ApiKeySecretError);
    expect(String((failed as Error).message)).toMatch(message);
    expect(String((failed as Error).message)).not.toContain('sk-hidden');
  });
});
