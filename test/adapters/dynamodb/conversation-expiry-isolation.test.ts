import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { conversationRecord, MovableClock, NOW_MS } from './conversation-fixtures';
import { freshConversationId, useStoreTable } from './use-store-table';

const { newStore } = useStoreTable();

describe('DynamoDbConversationStore expiry', () => {
  it.each([
    { description: 'a minute before expiry', secondsLater: 0, expectFound: true },
    { description: 'one second before expiry', secondsLater: 59, expectFound: true },
    { description: 'at the expiry second', secondsLater: 60, expectFound: false },
    { description: 'a day after expiry', secondsLater: 60 + 86_400, expectFound: false },
  ])('finds the conversation $description: $expectFound', async ({ secondsLater, expectFound }) => {
    const clock = new MovableClock();
    const store = newStore({ clock: clock });
    const record = conversationRecord({
      conversationId: freshConversationId(),
      expiresAt: Math.floor(NOW_MS / 1000) + 60,
    });
    await store.replace(record);
    clock.advanceSeconds(secondsLater);

    const loaded = await store.load(record.nodeId, record.conversationId);

    expect(loaded).toEqual(expectFound ? record : null);
  });
});

describe('DynamoDbConversationStore isolation between nodes', () => {
  it("does not let node B load node A's conversation id", async () => {
    const store = newStore();
    const record = conversationRecord({ nodeId: 'node-a', conversationId: freshConversationId() });
    await store.replace(record);

    const loaded = await store.load('node-b', record.conversationId);

    expect(loaded).toBeNull();
  });

  it("keeps node A's conversation when node B stores one with the same id", async () => {
    const store = newStore();
    const conversationId = freshConversationId();
    const nodeA = conversationRecord({ nodeId: 'node-a', conversationId, room: 'kitchen' });
    const nodeB = conversationRecord({ nodeId: 'node-b', conversationId, room: 'garage' });
    await store.replace(nodeA);

    await store.replace(nodeB);

    expect(await store.load('node-a', conversationId)).toEqual(nodeA);
    expect(await store.load('node-b', conversationId)).toEqual(nodeB);
  });

  it.each([
    { first: ['a#b', 'c'], second: ['a', 'b#c'] },
    { first: ['a', 'CONVERSATION#c'], second: ['a#CONVERSATION', 'c'] },
  ])('keeps ids containing # apart: $first and $second', async ({ first, second }) => {
    const store = newStore();
    const suffix = randomUUID();
    const [firstNode = '', firstConversation = ''] = first;
    const [secondNode = '', secondConversation = ''] = second;
    const one = conversationRecord({
      nodeId: `${suffix}${firstNode}`,
      conversationId: firstConversation,
      room: 'one',
    });
    const two = conversationRecord({
      nodeId: `${suffix}${secondNode}`,
      conversationId: secondConversation,
      room: 'two',
    });

    await store.replace(one);
    await store.replace(two);

    expect(await store.load(one.nodeId, one.conversationId)).toEqual(one);
    expect(await store.load(two.nodeId, two.conversationId)).toEqual(two);
  });
});
