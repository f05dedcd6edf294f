import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DescribeTableCommand } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTableIfMissing,
  DynamoDbNodeRegistry,
  TABLE_ATTRIBUTE_DEFINITIONS,
  TABLE_KEY_SCHEMA,
} from '../../../shared/adapters/dynamodb';
import { startDynalite, useDynalite } from '../../support/dynalite';

const dynalite = useDynalite();

const KEY_HASH = 'a'.repeat(64);

describe('createTableIfMissing', () => {
  it('creates an on-demand table with the documented keys, ACTIVE on return', async () => {
    const tableName = 'created-by-test';

    await createTableIfMissing(dynalite().client, tableName);

    const { Table: table } = await dynalite().client.send(
      new DescribeTableCommand({ TableName: tableName }),
    );
    expect(table?.TableStatus).toBe('ACTIVE');
    expect(table?.KeySchema).toEqual(TABLE_KEY_SCHEMA);
    expect(table?.AttributeDefinitions).toEqual(TABLE_ATTRIBUTE_DEFINITIONS);
    expect(table?.BillingModeSummary?.BillingMode).toBe('PAY_PER_REQUEST');
  });

  it('leaves an existing table and its items alone', async () => {
    const registry = new DynamoDbNodeRegistry({
      client: dynalite().client,
      tableName: dynalite().tableName,
    });
    const node = {
      nodeId: 'kept',
      keyHash: KEY_HASH,
      timezone: null,
      room: null,
      name: null,
      enabled: true,
    };
    await registry.put(node);

    await createTableIfMissing(dynalite().client, dynalite().tableName);

    expect(await registry.find('kept')).toEqual(node);
  });

  it('survives several processes creating the same table at once', async () => {
    const tableName = 'raced-by-test';

    const creations = Array.from({ length: 4 }, () =>
      createTableIfMissing(dynalite().client, tableName),
    );

    await expect(Promise.all(creations)).resolves.toHaveLength(4);
  });
});

describe('startDynalite with a data directory', () => {
  let directory = '';
  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), 'jcc-dynalite-'));
  });
  afterAll(async () => {
    await rm(directory, { recursive: true, force: true });
  });

  it('keeps items across a restart', async () => {
    const node = {
      nodeId: 'persisted',
      keyHash: KEY_HASH,
      timezone: 'Europe/Paris',
      room: null,
      name: null,
      enabled: true,
    };
    const first = await startDynalite({ path: directory });
    await new DynamoDbNodeRegistry({ client: first.client, tableName: first.tableName }).put(node);
    await first.close();

    const second = await startDynalite({ path: directory });
    await createTableIfMissing(second.client, first.tableName);
    const found = await new DynamoDbNodeRegistry({
      client: second.client,
      tableName: first.tableName,
    }).find('persisted');
    await second.close();

    expect(found).toEqual(node);
  });
});
