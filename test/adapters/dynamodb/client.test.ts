import { describe, expect, it } from 'vitest';
import { createDynamoDbClient, DYNAMODB_CLIENT_DEFAULTS } from '../../../shared/adapters/dynamodb';

describe('createDynamoDbClient', () => {
  it('uses static dummy credentials when given a local endpoint', async () => {
    const client = createDynamoDbClient({ region: 'us-east-1', endpoint: 'http://127.0.0.1:1' });

    const credentials = await client.config.credentials();

    expect(credentials).toMatchObject({ accessKeyId: 'local', secretAccessKey: 'local' });
    client.destroy();
  });

  it.each([
    { description: 'with an endpoint', endpoint: 'http://127.0.0.1:1' },
    { description: 'without an endpoint', endpoint: undefined },
  ])('retries at most $description the default number of times', async ({ endpoint }) => {
    const client = createDynamoDbClient({
      region: 'eu-west-1',
      ...(endpoint === undefined ? {} : { endpoint }),
    });

    const maxAttempts = await client.config.maxAttempts();

    expect(maxAttempts).toBe(DYNAMODB_CLIENT_DEFAULTS.maxAttempts);
    expect(await client.config.region()).toBe('eu-west-1');
    client.destroy();
  });
});
