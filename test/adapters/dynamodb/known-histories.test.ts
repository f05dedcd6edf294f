import { describe, expect, it } from 'vitest';
import { compressText } from '../../../shared/adapters/dynamodb/compression';
import { KnownHistories } from '../../../shared/adapters/dynamodb/known-histories';
import type { ChatMessage } from '../../../shared/chat/chat-message';
import { ConversationConflictError } from '../../../shared/ports/conversation-store';
import { conversationRecord, EVERY_ROLE } from './conversation-fixtures';
import { freshConversationId, useStoreTable } from './use-store-table';

const { newStore } = useStoreTable();
const stored = (messages: readonly ChatMessage[]) => compressText(JSON.stringify(messages));

describe('KnownHistories: a history read back without parsing it again', () => {
  it('finds a history by its stored bytes only: its messages, frozen to the last tool call', () => {
    const histories = new KnownHistories();
    const messages: ChatMessage[] = [...EVERY_ROLE];

    histories.remember(stored(messages), messages);
    const found = histories.find(stored(messages));

    expect(found).toEqual(messages);
    expect(found).not.toBe(messages);
    found?.forEach((message, index) => {
      expect(message).toBe(messages[index]);
    });
    expect(histories.find(stored([...messages, { role: 'user', content: 'more' }]))).toBe(
      undefined,
    );
    const assistant = messages.find((message) => message.role === 'assistant');
    // Each request gets a list of its own, never frozen: V8 copies a frozen array slowly.
    expect(Object.isFrozen(found)).toBe(false);
    expect(messages.every((message) => Object.isFrozen(message))).toBe(true);
    expect(assistant?.toolCalls.every((call) => Object.isFrozen(call))).toBe(true);
  });

  it('keeps only the most recently used', () => {
    const histories = new KnownHistories();
    const histories40 = Array.from({ length: 40 }, (_, index): ChatMessage[] => [
      { role: 'user', content: `history ${index}` },
    ]);
    for (const messages of histories40) histories.remember(stored(messages), messages);

    expect(histories.find(stored(histories40[0] ?? []))).toBe(undefined);
    expect(histories.find(stored(histories40[39] ?? []))).toEqual(histories40[39]);
  });
});

describe('DynamoDbConversationStore: the history a container saved is read back as it saved it', () => {
  it('a load after a save returns the saved messages themselves, equal to what is stored', async () => {
    const store = newStore();
    const conversationId = freshConversationId();
    await store.replace(conversationRecord({ conversationId, version: 1 }));
    const next = conversationRecord({ conversationId, version: 2, messages: [...EVERY_ROLE] });

    await store.save(next, 1);
    const loaded = await store.load(next.nodeId, conversationId);

    expect(loaded).toEqual(next);
    loaded?.messages.forEach((message, index) => {
      expect(message).toBe(next.messages[index]);
    });
  });

  it('a save that lost its race is not remembered: the winner’s history is read', async () => {
    const store = newStore();
    const conversationId = freshConversationId();
    await store.replace(conversationRecord({ conversationId, version: 1 }));
    const winner = conversationRecord({
      conversationId,
      messages: [{ role: 'user', content: 'A' }],
    });
    const loser = conversationRecord({
      conversationId,
      messages: [{ role: 'user', content: 'B' }],
    });
    await store.save(winner, 1);

    await expect(store.save(loser, 1)).rejects.toThrow(ConversationConflictError);
    const loaded = await store.load('kitchen-node', conversationId);

    expect(loaded?.messages[0]).toBe(winner.messages[0]);
  });
});
