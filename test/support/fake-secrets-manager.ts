import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, vi } from 'vitest';
import { listenOnFreePort } from './free-port';

/** What the fake answers to GetSecretValue: a value, or an AWS error type and message. */
export type SecretAnswer =
  | { readonly secretString: string }
  | { readonly error: string; readonly message: string };

/**
 * A Secrets Manager endpoint on loopback for the tests of this file, answering GetSecretValue from
 * `secrets` (an unknown id: ResourceNotFoundException, as AWS does). The SDK finds it through
 * AWS_ENDPOINT_URL_SECRETS_MANAGER, with dummy credentials.
 */
export function useFakeSecretsManager(secrets: Readonly<Record<string, SecretAnswer>>): {
  /** The SecretId of every GetSecretValue received, in order. */
  readonly reads: string[];
} {
  const reads: string[] = [];
  let server: Server | undefined;
  beforeAll(async () => {
    server = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk) => {
        body += chunk;
      });
      request.on('end', () => {
        const { SecretId } = JSON.parse(body) as { SecretId: string };
        reads.push(SecretId);
        const answer = secrets[SecretId] ?? {
          error: 'ResourceNotFoundException',
          message: "Secrets Manager can't find the specified secret.",
        };
        response.setHeader('Content-Type', 'application/x-amz-json-1.1');
        if ('error' in answer) {
          response.statusCode = 400;
          response.end(JSON.stringify({ __type: answer.error, message: answer.message }));
        } else {
          response.end(JSON.stringify({ Name: SecretId, SecretString: answer.secretString }));
        }
      });
    });
    const port = await listenOnFreePort(server);
    vi.stubEnv('AWS_ENDPOINT_URL_SECRETS_MANAGER', `http://127.0.0.1:${port}`);
    vi.stubEnv('AWS_ACCESS_KEY_ID', 'local');
    vi.stubEnv('AWS_SECRET_ACCESS_KEY', 'local');
  });
  afterAll(async () => {
    vi.unstubAllEnvs();
    await new Promise((resolve) => server?.close(resolve));
  });
  return { reads };
}
