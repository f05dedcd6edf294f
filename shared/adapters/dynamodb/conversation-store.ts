import { randomUUID } from 'node:crypto';
import {
  ConditionalCheckFailedException,
  type DynamoDBClient,
  GetItemCommand,
  PutItemCommand,
  UpdateItemCommand,
  type UpdateItemCommandInput,
} from '@aws-sdk/client-dynamodb';
import type { Clock } from '../../ports/clock';
import {
  ConversationConflictError,
  type ConversationRecord,
  type ConversationStore,
  ConversationTooLargeError,
} from '../../ports/conversation-store';
import { type Item, numberValue, readAttribute } from './attribute-values';
import { ConversationAttribute, conversationToItem, itemToConversation } from './conversation-item';
import { conversationKey, keyAttributes } from './item-keys';
import { itemSizeBytes } from './item-size';
import { toStorageError } from './storage-error';
import { TABLE_KEYS } from './table';

/** The adapter's cap on a conversation item: DynamoDB's limit is 400 KB; this leaves headroom. */
export const MAX_CONVERSATION_ITEM_BYTES = 350 * 1024;

export interface DynamoDbConversationStoreOptions {
  readonly client: DynamoDBClient;
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
  readonly #client: DynamoDBClient;
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
    const command = new GetItemCommand({
      TableName: this.#tableName,
      Key: keyAttributes(conversationKey(nodeId, conversationId)),
      // A stale read would turn the next save into a needless conflict.
      ConsistentRead: true,
    });
    const output = await this.#client.send(command).catch((error: unknown) => {
      throw toStorageError(error, 'GetItem');
    });
    if (output.Item === undefined) return null;
    const expiresAtSeconds = readAttribute.number(output.Item, ConversationAttribute.expiresAt);
    if (expiresAtSeconds * 1000 <= this.#clock.now()) return null;
    return itemToConversation(output.Item);
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
      if (await this.#holdsWrite(record, writeToken)) return;
      throw new ConversationConflictError(record.nodeId, record.conversationId, expectedVersion, {
        cause: error,
      });
    }
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
  return {
    UpdateExpression: `SET ${assignments.join(', ')}`,
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
  };
}
