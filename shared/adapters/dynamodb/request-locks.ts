import { randomUUID } from 'node:crypto';
import {
  ConditionalCheckFailedException,
  DeleteItemCommand,
  type DynamoDBClient,
  GetItemCommand,
  PutItemCommand,
} from '@aws-sdk/client-dynamodb';
import type { Clock } from '../../ports/clock';
import type { ClaimResult, RequestClaim, RequestLocks } from '../../ports/request-locks';
import { type Item, numberValue, readAttribute } from './attribute-values';
import { keyAttributes, requestClaimKey } from './item-keys';
import { toStorageError } from './storage-error';
import { TABLE_KEYS } from './table';

/**
 * The claim item. `expires_at` lets DynamoDB's TTL sweep claims whose release failed; until it
 * does, `held_until` is what counts.
 *
 * | attribute   | type | content                                         |
 * |-------------|------|-------------------------------------------------|
 * | pk, sk      | S    | `NODE#<nodeId>`, `REQUEST#<conversation>#<id>`  |
 * | record_type | S    | `request_claim`                                 |
 * | fingerprint | S    | hash of what the claiming request asked         |
 * | claim_token | S    | random per claim: whose it is                   |
 * | held_until  | N    | epoch milliseconds                              |
 * | expires_at  | N    | epoch seconds, one hour after `held_until`      |
 */
const Attribute = {
  recordType: 'record_type',
  fingerprint: 'fingerprint',
  claimToken: 'claim_token',
  heldUntil: 'held_until',
  expiresAt: TABLE_KEYS.timeToLiveAttribute,
} as const;

const CLAIM_RECORD_TYPE = 'request_claim';
const SWEEP_AFTER_SECONDS = 3600;
/** A claim released or lapsed between our failed put and our read: try again, but not forever. */
const MAX_ATTEMPTS = 3;

export interface DynamoDbRequestLocksOptions {
  readonly client: DynamoDBClient;
  readonly tableName: string;
  /** Whose `now` decides whether a claim has lapsed. */
  readonly clock: Clock;
}

/**
 * `RequestLocks` as one item per claim beside the conversation, taken with a conditional put
 * (no transactions, so it runs on dynalite too). A failed condition is followed by a consistent
 * read of the claim, because `ReturnValuesOnConditionCheckFailure` is not supported everywhere.
 * The client retries a put whose answer was lost; if the lost attempt was written, the retry
 * fails against our own claim, which the read recognizes by its token.
 */
export class DynamoDbRequestLocks implements RequestLocks {
  readonly #client: DynamoDBClient;
  readonly #tableName: string;
  readonly #clock: Clock;

  constructor(options: DynamoDbRequestLocksOptions) {
    this.#client = options.client;
    this.#tableName = options.tableName;
    this.#clock = options.clock;
  }

  async acquire(claim: RequestClaim): Promise<ClaimResult> {
    const token = randomUUID();
    for (let attempt = 1; ; attempt += 1) {
      if (await this.#put(claim, token)) return { acquired: true, token };
      const holder = await this.#read(claim);
      if (holder?.token === token) return { acquired: true, token };
      if (holder !== null) return { acquired: false, fingerprint: holder.fingerprint };
      if (attempt >= MAX_ATTEMPTS) return { acquired: false, fingerprint: claim.fingerprint };
    }
  }

  async release(claim: RequestClaim, token: string): Promise<void> {
    const command = new DeleteItemCommand({
      TableName: this.#tableName,
      Key: this.#key(claim),
      // Only our own claim: a later request may hold the id by now.
      ConditionExpression: '#claimToken = :claimToken',
      ExpressionAttributeNames: { '#claimToken': Attribute.claimToken },
      ExpressionAttributeValues: { ':claimToken': { S: token } },
    });
    await this.#client.send(command).catch((error: unknown) => {
      if (error instanceof ConditionalCheckFailedException) return;
      throw toStorageError(error, 'DeleteItem');
    });
  }

  /** True when the claim was written: no claim existed, or the existing one had lapsed. */
  async #put(claim: RequestClaim, token: string): Promise<boolean> {
    const command = new PutItemCommand({
      TableName: this.#tableName,
      Item: {
        ...this.#key(claim),
        [Attribute.recordType]: { S: CLAIM_RECORD_TYPE },
        [Attribute.fingerprint]: { S: claim.fingerprint },
        [Attribute.claimToken]: { S: token },
        [Attribute.heldUntil]: numberValue(claim.heldUntil),
        [Attribute.expiresAt]: numberValue(Math.ceil(claim.heldUntil / 1000) + SWEEP_AFTER_SECONDS),
      },
      ConditionExpression: 'attribute_not_exists(#heldUntil) OR #heldUntil < :now',
      ExpressionAttributeNames: { '#heldUntil': Attribute.heldUntil },
      ExpressionAttributeValues: { ':now': numberValue(this.#clock.now()) },
    });
    try {
      await this.#client.send(command);
      return true;
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return false;
      throw toStorageError(error, 'PutItem');
    }
  }

  /** The live claim's fingerprint and token, or null when there is none (any more). */
  async #read(
    claim: RequestClaim,
  ): Promise<{ readonly fingerprint: string; readonly token: string } | null> {
    const command = new GetItemCommand({
      TableName: this.#tableName,
      Key: this.#key(claim),
      ConsistentRead: true,
    });
    const output = await this.#client.send(command).catch((error: unknown) => {
      throw toStorageError(error, 'GetItem');
    });
    const item: Item | undefined = output.Item;
    if (item === undefined) return null;
    if (readAttribute.number(item, Attribute.heldUntil) < this.#clock.now()) return null;
    return {
      fingerprint: readAttribute.string(item, Attribute.fingerprint),
      token: readAttribute.string(item, Attribute.claimToken),
    };
  }

  #key(claim: RequestClaim): Item {
    return keyAttributes(requestClaimKey(claim.nodeId, claim.conversationId, claim.requestId));
  }
}
