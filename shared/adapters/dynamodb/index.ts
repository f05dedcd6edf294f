export { createDynamoDbClient, DYNAMODB_CLIENT_DEFAULTS, type DynamoDbClient } from './client';
export { ClaimAttribute, ConversationAttribute } from './conversation-item';
export { DynamoDbConversationStore, MAX_CONVERSATION_ITEM_BYTES } from './conversation-store';
export { conversationKey } from './item-keys';
export { DynamoDbNodeRateLimiter } from './node-rate-limiter';
export { DynamoDbNodeRegistry } from './node-registry';
export { StoredItemMalformedError } from './stored-item-malformed-error';
export { createTableIfMissing, TABLE_ATTRIBUTE_DEFINITIONS, TABLE_KEY_SCHEMA } from './table';
