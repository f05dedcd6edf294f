import { ConditionalCheckFailedException, UpdateItemCommand } from '@aws-sdk/client-dynamodb';
import type { Clock } from '../../ports/clock';
import type { NodeRateLimiter, RateDecision } from '../../ports/node-rate-limiter';
import { LruMap } from '../system/lru-map';
import { numberValue } from './attribute-values';
import type { DynamoDbClient } from './client';
import { keyAttributes, rateWindowKey } from './item-keys';
import { toStorageError } from './storage-error';
import { TABLE_KEYS } from './table';

/**
 * The counter item of one node and one fixed window. TTL sweeps it a window after it ends.
 *
 * | attribute   | type | content                                            |
 * |-------------|------|----------------------------------------------------|
 * | pk, sk      | S    | `NODE#<nodeId>`, `RATE#<window start>`             |
 * | record_type | S    | `rate_window`                                      |
 * | requests    | N    | requests admitted or reserved by a container       |
 * | expires_at  | N    | epoch seconds, one window after its end            |
 */
const Attribute = {
  recordType: 'record_type',
  requests: 'requests',
  expiresAt: TABLE_KEYS.timeToLiveAttribute,
} as const;

/**
 * A container reserves this share of a node's limit at a time (rounded down; one at a time below
 * 40 requests a window). docs/decisions/2026-11-26-rate-limit-blocks.md gives the bound it sets.
 */
export const RESERVED_SHARE_OF_LIMIT = 1 / 20;

/** Nodes whose reservation a container remembers, least recently used first out. */
const REMEMBERED_NODES = 1_000;

export interface DynamoDbNodeRateLimiterOptions {
  readonly client: DynamoDbClient;
  readonly tableName: string;
  readonly clock: Clock;
  /** Requests a node may make per window. */
  readonly requests: number;
  readonly windowSeconds: number;
}

/** What this container reserved of a node's window and has not admitted yet. */
interface Reservation {
  readonly windowStart: number;
  left: number;
  /** A block no longer fits in this window: the rest is counted one request at a time. */
  full: boolean;
}

/**
 * A fixed-window counter per node, shared by every container through one item, on dynalite as
 * on DynamoDB. A container counts a block of `blockSize` requests with one conditional
 * `UpdateItem` (`ADD`, only if the whole block fits under the limit) and admits the next ones
 * from it without a write; once a block no longer fits, each request is counted alone (`ADD 1`
 * below the limit), so one container alone is admitted exactly the limit. The count never passes
 * the limit; what other containers reserved and did not use can refuse a node early (the bound
 * is in the decision note). A refused request writes nothing, so a node that waits as told gets in.
 */
export class DynamoDbNodeRateLimiter implements NodeRateLimiter {
  readonly limit: NodeRateLimiter['limit'];
  /** Requests one write reserves; 1 turns blocks off. */
  readonly blockSize: number;
  readonly #options: DynamoDbNodeRateLimiterOptions;
  readonly #reservations = new LruMap<string, Reservation>(REMEMBERED_NODES);

  constructor(options: DynamoDbNodeRateLimiterOptions) {
    this.#options = options;
    this.limit = { requests: options.requests, windowSeconds: options.windowSeconds };
    this.blockSize = Math.max(1, Math.floor(options.requests * RESERVED_SHARE_OF_LIMIT));
  }

  async admit(nodeId: string): Promise<RateDecision> {
    const { clock, windowSeconds } = this.#options;
    const now = clock.now() / 1000;
    const windowStart = Math.floor(now / windowSeconds) * windowSeconds;
    const reservation = this.#reservationOf(nodeId, windowStart);
    if (reservation.left > 0) {
      reservation.left -= 1;
      return { admitted: true };
    }
    if (this.blockSize > 1 && !reservation.full) {
      if (await this.#count(nodeId, windowStart, this.blockSize)) {
        // Another request of this container may have reserved too while this one waited.
        reservation.left += this.blockSize - 1;
        return { admitted: true };
      }
      reservation.full = true;
    }
    if (await this.#count(nodeId, windowStart, 1)) return { admitted: true };
    return {
      admitted: false,
      retryAfterSeconds: Math.max(1, Math.ceil(windowStart + windowSeconds - now)),
    };
  }

  /** This container's reservation for the node's current window (a fresh one for a new window). */
  #reservationOf(nodeId: string, windowStart: number): Reservation {
    const known = this.#reservations.get(nodeId);
    const reservation =
      known !== undefined && known.windowStart === windowStart
        ? known
        : { windowStart, left: 0, full: false };
    // Forgetting a reservation (the least recently used node's) only gives up its requests left:
    // never admits more.
    this.#reservations.set(nodeId, reservation);
    return reservation;
  }

  /** Adds `requests` to the window's count if they all fit under the limit; false if not. */
  async #count(nodeId: string, windowStart: number, requests: number): Promise<boolean> {
    const { client, tableName, windowSeconds } = this.#options;
    const command = new UpdateItemCommand({
      TableName: tableName,
      Key: keyAttributes(rateWindowKey(nodeId, windowStart)),
      UpdateExpression:
        'ADD #requests :requests SET #recordType = :recordType, #expiresAt = :expiresAt',
      ConditionExpression: 'attribute_not_exists(#requests) OR #requests <= :lastFitting',
      ExpressionAttributeNames: {
        '#requests': Attribute.requests,
        '#recordType': Attribute.recordType,
        '#expiresAt': Attribute.expiresAt,
      },
      ExpressionAttributeValues: {
        ':requests': numberValue(requests),
        ':lastFitting': numberValue(this.limit.requests - requests),
        ':recordType': { S: 'rate_window' },
        ':expiresAt': numberValue(windowStart + 2 * windowSeconds),
      },
    });
    try {
      await client.send(command);
      return true;
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return false;
      throw toStorageError(error, 'UpdateItem');
    }
  }
}
