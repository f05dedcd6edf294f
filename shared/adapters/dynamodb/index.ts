export {
  createDynamoDbClient,
  DYNAMODB_CLIENT_DEFAULTS,
  type DynamoDbClientOptions,
} from './client';
export { ConversationAttribute } from './conversation-item';
export {
  DynamoDbConversationStore,
  type DynamoDbConversationStoreOptions,
  MAX_CONVERSATION_ITEM_BYTES,
} from './conversation-store';
export { conversationKey, nodeKey, requestClaimKey, type TableKey } from './item-keys';
export { NodeAttribute } from './node-item';
export { DynamoDbNodeRateLimiter, type DynamoDbNodeRateLimiterOptions } from './node-rate-limiter';
export { DynamoDbNodeRegistry, type DynamoDbNodeRegistryOptions } from './node-registry';
export { DynamoDbRequestLocks, type DynamoDbRequestLocksOptions } from './request-locks';
export { StoredItemMalformedError } from './stored-item-malformed-error';
export {
  type CreateTableOptions,
  createTableIfMissing,
  TABLE_ATTRIBUTE_DEFINITIONS,
  TABLE_KEY_SCHEMA,
  TABLE_KEYS,
} from './table';
