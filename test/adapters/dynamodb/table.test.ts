import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DescribeTableCommand } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTableIfMissing,
  type DynamoDbClient,
  DynamoDbNodeRegistry,
  TABLE_ATTRIBUTE_DEFINITIONS,
  TABLE_KEY_SCHEMA,
} from '../../../shared/adapters/dynamodb';
import { startDynalite, useDynalite } from '../../support/dynalite';
import { FakeTiming } from '../../support/fake-timing';

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

  it('gives up on a table that never becomes ACTIVE after its timeout, on the clock it is given', async () => {
    // Prepare: a table another process is still creating, and stays so.
    const described: string[] = [];
    const creating = {
      send: async (command: DescribeTableCommand) => {
        described.push(command.input.TableName ?? '');
        return { Table: { TableStatus: 'CREATING' } };
      },
    } as unknown as DynamoDbClient;
    const timing = new FakeTiming();

    // Act
    const created = createTableIfMissing(creating, 'stuck', {
      timeoutMs: 1_000,
      pollIntervalMs: 250,
      timing,
    });

    // Assess: each wait of the poll interval on the fake clock, none on the machine's.
    await expect(created).rejects.toThrow('table stuck did not become ACTIVE in time');
    expect(timing.sleeps).toEqual([250, 250, 250, 250, 250]);
    expect(described).toHaveLength(6);
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
