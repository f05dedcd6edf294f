import { GetItemCommand, PutItemCommand } from '@aws-sdk/client-dynamodb';
import { describe, expect, it } from 'vitest';
import {
  ClaimAttribute,
  ConversationAttribute,
  conversationKey,
  StoredItemMalformedError,
} from '../../../shared/adapters/dynamodb';
import { keyAttributes } from '../../../shared/adapters/dynamodb/item-keys';
import type { TurnClaim } from '../../../shared/ports/conversation-store';
import { conversationRecord, MovableClock, NOW_MS } from './conversation-fixtures';
import { freshConversationId, useStoreTable } from './use-store-table';

const { dynalite, newStore } = useStoreTable();

const claimOf = (fingerprint: string, heldForMs = 60_000): TurnClaim => ({
  requestId: `request-${fingerprint}`,
  fingerprint,
  heldUntil: NOW_MS + heldForMs,
});

/** A stored conversation and the store it is in. */
async function stored(clock = new MovableClock()) {
  const store = newStore({ clock });
  const record = conversationRecord({ conversationId: freshConversationId(), version: 3 });
  await store.replace(record);
  return { store, record, clock };
}

describe('DynamoDbConversationStore claim and release (a turn’s claim on its conversation)', () => {
  it('claims and reads the conversation in one request', async () => {
    const { store, record } = await stored();

    const claimed = await store.claim(record.nodeId, record.conversationId, claimOf('a'));

    expect(claimed).toMatchObject({ claimed: true, record });
  });

  it('answers a second claim with the holder’s fingerprint and the conversation as it is', async () => {
    const { store, record } = await stored();
    await store.claim(record.nodeId, record.conversationId, claimOf('a'));

    const second = await store.claim(record.nodeId, record.conversationId, claimOf('b'));

    expect(second).toEqual({
      claimed: false,
      holder: { requestId: 'request-a', fingerprint: 'a' },
      record,
    });
  });

  it('answers no conversation for one never stored, and claims nothing', async () => {
    const store = newStore();

    const claimed = await store.claim('kitchen-node', freshConversationId(), claimOf('a'));

    expect(claimed).toEqual({ claimed: false, holder: null, record: null });
  });

  it('ends the claim with the save of the turn', async () => {
    const { store, record } = await stored();
    const first = await store.claim(record.nodeId, record.conversationId, claimOf('a'));
    if (!first.claimed) throw new Error('the first claim holds');

    await store.save({ ...first.record, version: 4 }, 3);
    const next = await store.claim(record.nodeId, record.conversationId, claimOf('b'));

    expect(next).toMatchObject({ claimed: true, record: { version: 4 } });
  });

  it('writes the recorded answers with its release, and only with its own claim', async () => {
    const { store, record } = await stored();
    const first = await store.claim(record.nodeId, record.conversationId, claimOf('a'));
    if (!first.claimed) throw new Error('the first claim holds');
    const recorded = {
      requestId: 'node-id',
      fingerprint: 'f',
      outcome: '{"assistantMessage":"Done."}',
      recordedAt: NOW_MS,
      conversationVersion: 3,
    };

    await store.release(record.nodeId, record.conversationId, 'someone-else', [recorded]);
    const untouched = await store.load(record.nodeId, record.conversationId);
    await store.release(record.nodeId, record.conversationId, first.token, [recorded]);
    const released = await store.load(record.nodeId, record.conversationId);
    const next = await store.claim(record.nodeId, record.conversationId, claimOf('b'));

    expect(untouched?.recentResponses).toEqual(record.recentResponses);
    expect(released).toEqual({ ...record, recentResponses: [recorded] });
    expect(next.claimed).toBe(true);
  });

  it('releases only its own claim', async () => {
    const { store, record } = await stored();
    const first = await store.claim(record.nodeId, record.conversationId, claimOf('a'));
    if (!first.claimed) throw new Error('the first claim holds');

    await store.release(record.nodeId, record.conversationId, 'someone-else');
    const whileHeld = await store.claim(record.nodeId, record.conversationId, claimOf('b'));
    await store.release(record.nodeId, record.conversationId, first.token);
    const afterRelease = await store.claim(record.nodeId, record.conversationId, claimOf('b'));

    expect(whileHeld.claimed).toBe(false);
    expect(afterRelease.claimed).toBe(true);
  });

  it('lets a lapsed claim be taken over', async () => {
    const { store, record, clock } = await stored();
    await store.claim(record.nodeId, record.conversationId, claimOf('a', 1_000));

    clock.advanceSeconds(2);
    const later = await store.claim(record.nodeId, record.conversationId, claimOf('b'));

    expect(later.claimed).toBe(true);
  });

  it('starts a replaced conversation unclaimed', async () => {
    const { store, record } = await stored();
    await store.claim(record.nodeId, record.conversationId, claimOf('a'));

    await store.replace({ ...record, version: 1 });
    const claimed = await store.claim(record.nodeId, record.conversationId, claimOf('b'));

    expect(claimed.claimed).toBe(true);
  });

  it('loads a claimed conversation as it was stored', async () => {
    const { store, record } = await stored();
    await store.claim(record.nodeId, record.conversationId, claimOf('a'));

    expect(await store.load(record.nodeId, record.conversationId)).toEqual(record);
  });

  it('gives up the claim on a conversation it cannot read', async () => {
    const { store, record } = await stored();
    const key = keyAttributes(conversationKey(record.nodeId, record.conversationId));
    const table = dynalite().tableName;
    const raw = async () =>
      (await dynalite().client.send(new GetItemCommand({ TableName: table, Key: key }))).Item;
    const item = await raw();
    await dynalite().client.send(
      new PutItemCommand({
        TableName: table,
        Item: { ...item, [ConversationAttribute.messages]: { B: Buffer.from('plain text') } },
      }),
    );

    const claiming = store.claim(record.nodeId, record.conversationId, claimOf('a'));

    await expect(claiming).rejects.toMatchObject({ name: StoredItemMalformedError.name });
    expect((await raw())?.[ClaimAttribute.token]).toBeUndefined();
  });
});
