import type { ConversationRecord, ConversationStore } from '../../ports/conversation-store';
import type { LanguageModel } from '../../ports/language-model';
import { ConversationNotFoundError, ModelNotConfiguredError } from '../errors';

/** The conversation of this node; `ConversationNotFoundError` when absent, expired or another node's. */
export async function loadConversation(
  store: ConversationStore,
  nodeId: string,
  conversationId: string,
): Promise<ConversationRecord> {
  const record = await store.load(nodeId, conversationId);
  if (record === null) throw new ConversationNotFoundError(conversationId);
  return record;
}

/**
 * The model, or `ModelNotConfiguredError`: checked once, first, before a request id is claimed
 * or the conversation read, so a 503 costs nothing and leaves nothing behind.
 */
export function requireModel(model: LanguageModel | null): LanguageModel {
  if (model === null) throw new ModelNotConfiguredError();
  return model;
}
