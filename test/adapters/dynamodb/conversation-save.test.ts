import { describe, expect, it } from 'vitest';
import { ConversationConflictError } from '../../../shared/ports/conversation-store';
import { conversationRecord, EVERY_ROLE } from './conversation-fixtures';
import { freshConversationId, useStoreTable } from './use-store-table';

const { newStore } = useStoreTable();

describe('DynamoDbConversationStore save', () => {
  it('stores the record as version expectedVersion + 1', async () => {
    const store = newStore();
    const conversationId = freshConversationId();
    await store.replace(conversationRecord({ conversationId, version: 1 }));
    const next = conversationRecord({ conversationId, version: 2, messages: EVERY_ROLE });

    await store.save(next, 1);

    expect(await store.load(next.nodeId, conversationId)).toEqual(next);
  });

  it('lets one of two writers of the same version win and gives the other a conflict', async () => {
    const store = newStore();
    const conversationId = freshConversationId();
    await store.replace(conversationRecord({ conversationId, version: 1 }));
    const first = await store.load('kitchen-node', conversationId);
    const second = await store.load('kitchen-node', conversationId);
    const winner = conversationRecord({
      conversationId,
      messages: [{ role: 'user', content: 'A' }],
    });
    const loser = conversationRecord({
      conversationId,
      messages: [{ role: 'user', content: 'B' }],
    });
    await store.save(winner, first?.version ?? -1);

    const losing = store.save(loser, second?.version ?? -1);

    await expect(losing).rejects.toThrow(ConversationConflictError);
    await expect(losing).rejects.toMatchObject({
      nodeId: 'kitchen-node',
      conversationId,
      expectedVersion: 1,
    });
    expect(await store.load('kitchen-node', conversationId)).toEqual({ ...winner, version: 2 });
  });

  it('settles concurrent saves of the same version with exactly one winner', async () => {
    const store = newStore();
    const conversationId = freshConversationId();
    await store.replace(conversationRecord({ conversationId, version: 7 }));
    const writers = ['A', 'B', 'C', 'D'].map((content) =>
      conversationRecord({ conversationId, messages: [{ role: 'user', content }] }),
    );

    const outcomes = await Promise.allSettled(writers.map((writer) => store.save(writer, 7)));

    const winners = outcomes.flatMap((outcome, index) =>
      outcome.status === 'fulfilled' ? [writers[index]] : [],
    );
    const losers = outcomes.filter((outcome) => outcome.status === 'rejected');
    expect(winners).toHaveLength(1);
    expect(losers.map((outcome) => outcome.reason instanceof ConversationConflictError)).toEqual([
      true,
      true,
      true,
    ]);
    const stored = await store.load('kitchen-node', conversationId);
    expect(stored).toEqual({ ...winners[0], version: 8 });
  });

  it('refuses to save a conversation that does not exist', async () => {
    const store = newStore();

    const saving = store.save(conversationRecord({ conversationId: freshConversationId() }), 1);

    await expect(saving).rejects.toBeInstanceOf(ConversationConflictError);
  });
});
