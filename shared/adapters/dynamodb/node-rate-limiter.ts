import {
  ConditionalCheckFailedException,
  type DynamoDBClient,
  UpdateItemCommand,
} from '@aws-sdk/client-dynamodb';
import type { Clock } from '../../ports/clock';
import type { NodeRateLimiter, RateDecision } from '../../ports/node-rate-limiter';
import { numberValue } from './attribute-values';
import { keyAttributes, rateWindowKey } from './item-keys';
import { toStorageError } from './storage-error';
import { TABLE_KEYS } from './table';

/**
 * The counter item of one node and one fixed window. TTL sweeps it a window after it ends.
 *
 * | attribute   | type | content                                   |
 * |-------------|------|-------------------------------------------|
 * | pk, sk      | S    | `NODE#<nodeId>`, `RATE#<window start>`    |
 * | record_type | S    | `rate_window`                             |
 * | requests    | N    | requests admitted in the window           |
 * | expires_at  | N    | epoch seconds, one window after its end   |
 */
const Attribute = {
  recordType: 'record_type',
  requests: 'requests',
  expiresAt: TABLE_KEYS.timeToLiveAttribute,
} as const;

export interface DynamoDbNodeRateLimiterOptions {
  readonly client: DynamoDBClient;
  readonly tableName: string;
  readonly clock: Clock;
  /** Requests a node may make per window. */
  readonly requests: number;
  readonly windowSeconds: number;
}

/**
 * A fixed-window counter per node: one conditional `UpdateItem` per request (`ADD` below the
 * limit), so every container sees the same count, on dynalite as on DynamoDB. A refused request
 * is not counted, so a node that waits as told gets in.
 */
export class DynamoDbNodeRateLimiter implements NodeRateLimiter {
  readonly limit: NodeRateLimiter['limit'];
  readonly #options: DynamoDbNodeRateLimiterOptions;

  constructor(options: DynamoDbNodeRateLimiterOptions) {
    this.#options = options;
    this.limit = { requests: options.requests, windowSeconds: options.windowSeconds };
  }

  async admit(nodeId: string): Promise<RateDecision> {
    const { client, tableName, clock, requests, windowSeconds } = this.#options;
    const now = clock.now() / 1000;
    const windowStart = Math.floor(now / windowSeconds) * windowSeconds;
    const command = new UpdateItemCommand({
      TableName: tableName,
      Key: keyAttributes(rateWindowKey(nodeId, windowStart)),
      UpdateExpression: 'ADD #requests :one SET #recordType = :recordType, #expiresAt = :expiresAt',
      ConditionExpression: 'attribute_not_exists(#requests) OR #requests < :limit',
      ExpressionAttributeNames: {
        '#requests': Attribute.requests,
        '#recordType': Attribute.recordType,
        '#expiresAt': Attribute.expiresAt,
      },
      ExpressionAttributeValues: {
        ':one': numberValue(1),
        ':limit': numberValue(requests),
        ':recordType': { S: 'rate_window' },
        ':expiresAt': numberValue(windowStart + 2 * windowSeconds),
      },
    });
    try {
      await client.send(command);
      return { admitted: true };
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) {
        throw toStorageError(error, 'UpdateItem');
      }
      return {
        admitted: false,
        retryAfterSeconds: Math.max(1, Math.ceil(windowStart + windowSeconds - now)),
      };
    }
  }
}
