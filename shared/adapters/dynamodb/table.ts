import {
  CreateTableCommand,
  DescribeTableCommand,
  ResourceInUseException,
  ResourceNotFoundException,
  type TableStatus,
} from '@aws-sdk/client-dynamodb';
import { systemTiming, type Timing } from '../system/timing';
import type { DynamoDbClient } from './client';

/**
 * The table's shape in one place, so the CDK stack can be checked against it: string `pk` and
 * `sk` (single-table design, see item-keys.ts) and the TTL attribute. `type` uses DynamoDB's
 * codes, which are also the values of CDK's `AttributeType`.
 */
export const TABLE_KEYS = {
  partitionKey: { name: 'pk', type: 'S' },
  sortKey: { name: 'sk', type: 'S' },
  /** Epoch seconds. Real TTL deletes late and emulators never do, so loads filter on it too. */
  timeToLiveAttribute: 'expires_at',
} as const;

export const TABLE_KEY_SCHEMA = [
  { AttributeName: TABLE_KEYS.partitionKey.name, KeyType: 'HASH' },
  { AttributeName: TABLE_KEYS.sortKey.name, KeyType: 'RANGE' },
] as const;

export const TABLE_ATTRIBUTE_DEFINITIONS = [
  { AttributeName: TABLE_KEYS.partitionKey.name, AttributeType: TABLE_KEYS.partitionKey.type },
  { AttributeName: TABLE_KEYS.sortKey.name, AttributeType: TABLE_KEYS.sortKey.type },
] as const;

export interface CreateTableOptions {
  /** How long to wait for the table to become ACTIVE. */
  readonly timeoutMs?: number;
  readonly pollIntervalMs?: number;
  /** What waits between polls; the system's unless a test gives a fake. */
  readonly timing?: Pick<Timing, 'sleep'>;
}

/**
 * Creates the table (on demand) unless it exists, then waits until it is ACTIVE. Idempotent and
 * safe when two processes race to create it. Used by the local server and the tests; in AWS the
 * CDK stack owns the table (and its TTL setting, which the emulator does not support).
 */
export async function createTableIfMissing(
  client: DynamoDbClient,
  tableName: string,
  options: CreateTableOptions = {},
): Promise<void> {
  if ((await describeStatus(client, tableName)) === null) {
    try {
      await client.send(
        new CreateTableCommand({
          TableName: tableName,
          KeySchema: [...TABLE_KEY_SCHEMA],
          AttributeDefinitions: [...TABLE_ATTRIBUTE_DEFINITIONS],
          BillingMode: 'PAY_PER_REQUEST',
        }),
      );
    } catch (error) {
      // Another process created it between our describe and our create: just wait for it.
      if (!(error instanceof ResourceInUseException)) throw error;
    }
  }
  await waitUntilActive(client, tableName, options);
}

async function waitUntilActive(
  client: DynamoDbClient,
  tableName: string,
  options: CreateTableOptions,
): Promise<void> {
  const { timeoutMs = 60_000, pollIntervalMs = 250, timing = systemTiming } = options;
  const attempts = Math.ceil(timeoutMs / pollIntervalMs);
  for (let attempt = 0; attempt <= attempts; attempt += 1) {
    if ((await describeStatus(client, tableName)) === 'ACTIVE') return;
    await timing.sleep(pollIntervalMs);
  }
  throw new Error(`table ${tableName} did not become ACTIVE in time`);
}

async function describeStatus(
  client: DynamoDbClient,
  tableName: string,
): Promise<TableStatus | null> {
  try {
    const described = await client.send(new DescribeTableCommand({ TableName: tableName }));
    return described.Table?.TableStatus ?? null;
  } catch (error) {
    if (error instanceof ResourceNotFoundException) return null;
    throw error;
  }
}
