import { ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { describe, expect, it } from 'vitest';
import { startEmbeddedDynamoDb } from '../../../infra/local/embedded-dynamodb';
import { readLocalSettings } from '../../../infra/local/local-settings';
import { createDynamoDbClient } from '../../../shared/adapters/dynamodb';

describe('the embedded DynamoDB of npm start', () => {
  it.each([
    { env: {}, host: '127.0.0.1' },
    { env: { DYNAMODB_HOST: '0.0.0.0' }, host: '0.0.0.0' },
    { env: { DYNAMODB_HOST: '  ' }, host: '127.0.0.1' },
  ])('listens on $host for DYNAMODB_HOST=$env.DYNAMODB_HOST', ({ env, host }) => {
    expect(readLocalSettings(env).dynamoDbHost).toBe(host);
  });

  it('on every interface (for containers) still gives an endpoint this machine can dial', async () => {
    // Prepare
    const database = await startEmbeddedDynamoDb({ port: 0, host: '0.0.0.0' });
    const client = createDynamoDbClient({ region: 'us-east-1', endpoint: database.endpoint });

    try {
      // Act
      const tables = await client.send(new ListTablesCommand({}));

      // Assess
      expect(database.endpoint).toBe(`http://127.0.0.1:${database.port}`);
      expect(tables.TableNames).toEqual([]);
    } finally {
      client.destroy();
      await database.close();
    }
  });
});
