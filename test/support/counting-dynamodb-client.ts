import { performance } from 'node:perf_hooks';
import { createDynamoDbClient, type DynamoDbClient } from '../../shared/adapters/dynamodb';
import type { DynamoDbClientOptions } from '../../shared/adapters/dynamodb/client';

/** One DynamoDB request as the client sent it: its operation and the key it named, if one. */
export interface CountedRequest {
  /** `GetItem`, `PutItem`, `UpdateItem`, `Query`, … (the SDK's command name without `Command`). */
  readonly operation: string;
  /** The item's partition and sort key (`NODE#a CONVERSATION#c`); empty for a Query or a scan. */
  readonly key: string;
}

export interface CountingClient {
  readonly client: DynamoDbClient;
  /** The requests sent since the last call, in order, then counting starts afresh. */
  take(): CountedRequest[];
  /**
   * Milliseconds spent in the client's `send` since the last call (the client's work on the
   * request and the reply, retries and round trips included), then timing starts afresh.
   */
  takeMilliseconds(): number;
}

/**
 * The real DynamoDB client (createDynamoDbClient) with every request it sends counted, each
 * attempt (retries included) once, as the client reports its attempts: one count is one round
 * trip to the database. `options` choose the client (the AWS SDK's, a fake clock's backoff).
 */
export function countingDynamoDbClient(
  endpoint: string,
  options: Pick<DynamoDbClientOptions, 'implementation' | 'timing'> = {},
): CountingClient {
  let requests: CountedRequest[] = [];
  let milliseconds = 0;
  const counted = createDynamoDbClient({
    region: 'us-east-1',
    endpoint,
    ...options,
    onAttempt: (operation, input) => {
      requests.push({ operation, key: keyOf(input) });
    },
  });
  const client: DynamoDbClient = {
    send: async (command, options) => {
      const startedAt = performance.now();
      try {
        return await counted.send(command, options);
      } finally {
        milliseconds += performance.now() - startedAt;
      }
    },
    destroy: () => counted.destroy(),
  };
  return {
    client,
    take: () => {
      const taken = requests;
      requests = [];
      return taken;
    },
    takeMilliseconds: () => {
      const taken = milliseconds;
      milliseconds = 0;
      return taken;
    },
  };
}

function keyOf(input: unknown): string {
  const { Key, Item } = input as Partial<Record<'Key' | 'Item', Record<string, { S?: string }>>>;
  const key = Key ?? Item;
  return key === undefined ? '' : `${key.pk?.S ?? ''} ${key.sk?.S ?? ''}`.trim();
}
