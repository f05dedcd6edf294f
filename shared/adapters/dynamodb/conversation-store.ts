import { randomUUID } from 'node:crypto';
import {
  ConditionalCheckFailedException,
  GetItemCommand,
  PutItemCommand,
  UpdateItemCommand,
  type UpdateItemCommandInput,
} from '@aws-sdk/client-dynamodb';
import type { Clock } from '../../ports/clock';
import {
  type ClaimedConversation,
  ConversationConflictError,
  type ConversationRecord,
  type ConversationStore,
  ConversationTooLargeError,
  type RecordedResponse,
  type TurnClaim,
} from '../../ports/conversation-store';
import { type Item, numberValue, readAttribute } from './attribute-values';
import type { DynamoDbClient } from './client';
import {
  ClaimAttribute,
  ConversationAttribute,
  conversationToItem,
  itemToConversation,
  recentResponsesAttribute,
  rememberWrittenHistory,
} from './conversation-item';
import { conversationKey, keyAttributes } from './item-keys';
import { itemSizeBytes } from './item-size';
import { toStorageError } from './storage-error';
import { TABLE_KEYS } from './table';

/** A claim released or lapsed between our failed update and our read: try again, but not forever. */
const MAX_CLAIM_ATTEMPTS = 3;

/** The adapter's cap on a conversation item: DynamoDB's limit is 400 KB; this leaves headroom. */
export const MAX_CONVERSATION_ITEM_BYTES = 350 * 1024;

export interface DynamoDbConversationStoreOptions {
  readonly client: DynamoDbClient;
  readonly tableName: string;
  /** For the expiry filter: DynamoDB's TTL deletes late, emulators never. */
  readonly clock: Clock;
  /** Defaults to `MAX_CONVERSATION_ITEM_BYTES`. */
  readonly maxItemBytes?: number;
}

/**
 * `ConversationStore` on one DynamoDB item per conversation (layout in conversation-item.ts).
 * Throws `ConversationConflictError` on a lost race, `ConversationTooLargeError` before writing
 * an oversized item, and `StorageUnavailableError` when the database fails.
 */
export class DynamoDbConversationStore implements ConversationStore {
  readonly #client: DynamoDbClient;
  readonly #tableName: string;
  readonly #clock: Clock;
  readonly #maxItemBytes: number;

  constructor(options: DynamoDbConversationStoreOptions) {
    this.#client = options.client;
    this.#tableName = options.tableName;
    this.#clock = options.clock;
    this.#maxItemBytes = options.maxItemBytes ?? MAX_CONVERSATION_ITEM_BYTES;
  }

  async load(nodeId: string, conversationId: string): Promise<ConversationRecord | null> {
    const item = await this.#read(nodeId, conversationId);
    return item === null ? null : itemToConversation(item);
  }

  /**
   * One conditional UpdateItem that sets the claim attributes and returns the whole item: the
   * claim and the read in one round trip. A failed condition (a live claim, or no item) is
   * followed by a consistent read, because `ReturnValuesOnConditionCheckFailure` is not supported
   * everywhere. The client retries an update whose answer was lost; if the lost attempt was
   * written, the retry fails against our own claim, which the read recognizes by its token.
   */
  async claim(
    nodeId: string,
    conversationId: string,
    claim: TurnClaim,
  ): Promise<ClaimedConversation> {
    const token = randomUUID();
    for (let attempt = 1; ; attempt += 1) {
      const claimed = await this.#setClaim(nodeId, conversationId, claim, token);
      if (claimed !== null) {
        // An expired conversation (the TTL deletes late) or one that cannot be read is not held.
        const release = () => this.release(nodeId, conversationId, token);
        if (this.#expired(claimed)) {
          await release();
          return { claimed: false, holder: null, record: null };
        }
        try {
          return { claimed: true, token, record: itemToConversation(claimed) };
        } catch (error) {
          await release();
          throw error;
        }
      }
      const item = await this.#read(nodeId, conversationId);
      if (item === null) return { claimed: false, holder: null, record: null };
      const holder = liveClaim(item, this.#clock.now());
      if (holder?.token === token)
        return { claimed: true, token, record: itemToConversation(item) };
      if (holder !== null || attempt >= MAX_CLAIM_ATTEMPTS) {
        const { requestId, fingerprint } = holder ?? claim;
        return {
          claimed: false,
          holder: { requestId, fingerprint },
          record: itemToConversation(item),
        };
      }
    }
  }

  async release(
    nodeId: string,
    conversationId: string,
    token: string,
    recentResponses?: readonly RecordedResponse[],
  ): Promise<void> {
    const remove = 'REMOVE #claimToken, #claimRequestId, #claimFingerprint, #claimHeldUntil';
    const recent =
      recentResponses === undefined ? null : recentResponsesAttribute({ recentResponses });
    const command = new UpdateItemCommand({
      TableName: this.#tableName,
      Key: keyAttributes(conversationKey(nodeId, conversationId)),
      UpdateExpression: recent === null ? remove : `SET #recent = :recent ${remove}`,
      // Only our own claim: a later request may hold the conversation by now.
      ConditionExpression: '#claimToken = :claimToken',
      ExpressionAttributeNames:
        recent === null
          ? CLAIM_NAMES
          : { ...CLAIM_NAMES, '#recent': ConversationAttribute.recentResponses },
      ExpressionAttributeValues:
        recent === null
          ? { ':claimToken': { S: token } }
          : { ':claimToken': { S: token }, ':recent': recent },
    });
    await this.#client.send(command).catch((error: unknown) => {
      if (error instanceof ConditionalCheckFailedException) return;
      throw toStorageError(error, 'UpdateItem');
    });
  }

  /** The claimed item, or null when the condition failed (a live claim, or no conversation). */
  async #setClaim(
    nodeId: string,
    conversationId: string,
    claim: TurnClaim,
    token: string,
  ): Promise<Item | null> {
    const command = new UpdateItemCommand({
      TableName: this.#tableName,
      Key: keyAttributes(conversationKey(nodeId, conversationId)),
      UpdateExpression:
        'SET #claimToken = :claimToken, #claimRequestId = :claimRequestId, #claimFingerprint = :claimFingerprint, #claimHeldUntil = :claimHeldUntil',
      // A conversation with no live claim: v ∧ (¬held ∨ expired), written out as (v ∧ ¬held) ∨
      // (v ∧ expired). The same condition, without parentheses: dynalite (npm start's database)
      // parses a parenthesized one in 0.56 ms and this one in 0.11 ms, on every claim.
      ConditionExpression:
        'attribute_exists(#version) AND attribute_not_exists(#claimHeldUntil) OR attribute_exists(#version) AND #claimHeldUntil < :now',
      ExpressionAttributeNames: { ...CLAIM_NAMES, '#version': ConversationAttribute.version },
      ExpressionAttributeValues: {
        ':claimToken': { S: token },
        ':claimRequestId': { S: claim.requestId },
        ':claimFingerprint': { S: claim.fingerprint },
        ':claimHeldUntil': numberValue(claim.heldUntil),
        ':now': numberValue(this.#clock.now()),
      },
      ReturnValues: 'ALL_NEW',
    });
    try {
      const output = await this.#client.send(command);
      return output.Attributes ?? null;
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return null;
      throw toStorageError(error, 'UpdateItem');
    }
  }

  /** The conversation item, or null when there is none or it has expired. */
  async #read(nodeId: string, conversationId: string): Promise<Item | null> {
    const command = new GetItemCommand({
      TableName: this.#tableName,
      Key: keyAttributes(conversationKey(nodeId, conversationId)),
      // A stale read would turn the next save into a needless conflict.
      ConsistentRead: true,
    });
    const output = await this.#client.send(command).catch((error: unknown) => {
      throw toStorageError(error, 'GetItem');
    });
    if (output.Item === undefined || this.#expired(output.Item)) return null;
    return output.Item;
  }

  #expired(item: Item): boolean {
    const expiresAtSeconds = readAttribute.number(item, ConversationAttribute.expiresAt);
    return expiresAtSeconds * 1000 <= this.#clock.now();
  }

  /**
   * Unconditional, but the version keeps counting up from the replaced conversation's: a request
   * still holding the old conversation's version can then never overwrite the new one. A new
   * conversation is stored with `record.version`.
   */
  async replace(record: ConversationRecord): Promise<void> {
    const item = this.#checkedItem(record, record.version, randomUUID());
    const command = new UpdateItemCommand({
      TableName: this.#tableName,
      Key: keyAttributes(conversationKey(record.nodeId, record.conversationId)),
      ...replaceExpression(item, record.version),
    });
    await this.#client.send(command).catch((error: unknown) => {
      throw toStorageError(error, 'UpdateItem');
    });
    rememberWrittenHistory(item, record);
  }

  /**
   * Stores `record` as version `expectedVersion + 1`, whatever `record.version` says. The client
   * retries a write whose answer was lost; if the lost attempt was written, the retry fails the
   * version check against our own write. The write token tells that case from a real conflict.
   */
  async save(record: ConversationRecord, expectedVersion: number): Promise<void> {
    const writeToken = randomUUID();
    const item = this.#checkedItem(record, expectedVersion + 1, writeToken);
    const command = new PutItemCommand({
      TableName: this.#tableName,
      Item: item,
      ConditionExpression: '#version = :expectedVersion',
      ExpressionAttributeNames: { '#version': ConversationAttribute.version },
      ExpressionAttributeValues: { ':expectedVersion': numberValue(expectedVersion) },
    });
    try {
      await this.#client.send(command);
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) {
        throw toStorageError(error, 'PutItem');
      }
      if (!(await this.#holdsWrite(record, writeToken))) {
        throw new ConversationConflictError(record.nodeId, record.conversationId, expectedVersion, {
          cause: error,
        });
      }
    }
    rememberWrittenHistory(item, record);
  }

  async #holdsWrite(record: ConversationRecord, writeToken: string): Promise<boolean> {
    const command = new GetItemCommand({
      TableName: this.#tableName,
      Key: keyAttributes(conversationKey(record.nodeId, record.conversationId)),
      ConsistentRead: true,
      ProjectionExpression: '#writeToken',
      ExpressionAttributeNames: { '#writeToken': ConversationAttribute.writeToken },
    });
    const output = await this.#client.send(command).catch((error: unknown) => {
      throw toStorageError(error, 'GetItem');
    });
    return output.Item?.[ConversationAttribute.writeToken]?.S === writeToken;
  }

  #checkedItem(record: ConversationRecord, version: number, writeToken: string): Item {
    const item = conversationToItem(record, version, writeToken);
    const sizeBytes = itemSizeBytes(item);
    if (sizeBytes > this.#maxItemBytes) {
      throw new ConversationTooLargeError(
        record.conversationId,
        'item',
        sizeBytes,
        this.#maxItemBytes,
      );
    }
    return item;
  }
}

type ReplaceExpression = Pick<
  UpdateItemCommandInput,
  'UpdateExpression' | 'ExpressionAttributeNames' | 'ExpressionAttributeValues'
>;

/** SET of every attribute but the key, with the version counting on from the stored one. */
function replaceExpression(item: Item, firstVersion: number): ReplaceExpression {
  const names: Record<string, string> = { '#version': ConversationAttribute.version };
  const values: Item = {
    ':versionBeforeFirst': numberValue(firstVersion - 1),
    ':one': numberValue(1),
  };
  const assignments = ['#version = if_not_exists(#version, :versionBeforeFirst) + :one'];
  const skipped = new Set<string>([
    TABLE_KEYS.partitionKey.name,
    TABLE_KEYS.sortKey.name,
    ConversationAttribute.version,
  ]);
  for (const [index, [name, value]] of Object.entries(item).entries()) {
    if (skipped.has(name)) continue;
    names[`#attribute${index}`] = name;
    values[`:attribute${index}`] = value;
    assignments.push(`#attribute${index} = :attribute${index}`);
  }
  // A new conversation starts unclaimed: a claim of the replaced one must not hold it.
  Object.assign(names, CLAIM_NAMES);
  return {
    UpdateExpression: `SET ${assignments.join(', ')} REMOVE #claimToken, #claimRequestId, #claimFingerprint, #claimHeldUntil`,
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
  };
}

const CLAIM_NAMES = {
  '#claimToken': ClaimAttribute.token,
  '#claimRequestId': ClaimAttribute.requestId,
  '#claimFingerprint': ClaimAttribute.fingerprint,
  '#claimHeldUntil': ClaimAttribute.heldUntil,
} as const;

/** The item's claim if one is live at `now`: its token, its request and what that asked. */
function liveClaim(
  item: Item,
  now: number,
): { readonly token: string; readonly requestId: string; readonly fingerprint: string } | null {
  const token = item[ClaimAttribute.token]?.S;
  const requestId = item[ClaimAttribute.requestId]?.S;
  const fingerprint = item[ClaimAttribute.fingerprint]?.S;
  const heldUntil = Number(item[ClaimAttribute.heldUntil]?.N);
  if (token === undefined || requestId === undefined || fingerprint === undefined) return null;
  return heldUntil >= now ? { token, requestId, fingerprint } : null;
}
