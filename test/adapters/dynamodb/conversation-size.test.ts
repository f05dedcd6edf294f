import { randomBytes, randomUUID } from 'node:crypto';
import { GetItemCommand } from '@aws-sdk/client-dynamodb';
import { describe, expect, it } from 'vitest';
import {
  ConversationAttribute,
  conversationKey,
  MAX_CONVERSATION_ITEM_BYTES,
} from '../../../shared/adapters/dynamodb';
import { conversationToItem } from '../../../shared/adapters/dynamodb/conversation-item';
import { keyAttributes } from '../../../shared/adapters/dynamodb/item-keys';
import { itemSizeBytes } from '../../../shared/adapters/dynamodb/item-size';
import type { ChatMessage } from '../../../shared/chat/chat-message';
import { ConversationTooLargeError } from '../../../shared/ports';
import { conversationRecord } from './conversation-fixtures';
import { useStoreTable } from './use-store-table';

const { dynalite, newStore } = useStoreTable();

const KILOBYTE = 1024;

/** Tool results of random base64, which gzip cannot shrink below three quarters. */
function incompressibleHistory(randomKilobytes: number): ChatMessage[] {
  return Array.from({ length: randomKilobytes / 4 }, (_, index) => ({
    role: 'tool',
    toolCallId: `call_${index}`,
    content: randomBytes(4 * KILOBYTE).toString('base64'),
  }));
}

async function storedMessagesBytes(nodeId: string, conversationId: string): Promise<number> {
  const { Item: item } = await dynalite().client.send(
    new GetItemCommand({
      TableName: dynalite().tableName,
      Key: keyAttributes(conversationKey(nodeId, conversationId)),
    }),
  );
  return item?.[ConversationAttribute.messages]?.B?.byteLength ?? 0;
}

describe('DynamoDbConversationStore size bound', () => {
  it('round-trips a conversation whose compressed history is about 300 KB', async () => {
    const store = newStore();
    const record = conversationRecord({
      conversationId: randomUUID(),
      messages: incompressibleHistory(296),
    });

    await store.replace(record);

    expect(await store.load(record.nodeId, record.conversationId)).toEqual(record);
    const storedBytes = await storedMessagesBytes(record.nodeId, record.conversationId);
    expect(storedBytes).toBeGreaterThan(290 * KILOBYTE);
    expect(storedBytes).toBeLessThan(MAX_CONVERSATION_ITEM_BYTES);
  });

  it('round-trips 2 MB of ordinary chat, which compression brings far under the cap', async () => {
    const store = newStore();
    const turn: ChatMessage[] = [
      { role: 'user', content: 'Set a 10 minute timer for pasta and tell me the weather.' },
      { role: 'assistant', content: 'Timer set. It is sunny and 24 degrees.', toolCalls: [] },
    ];
    const messages = Array.from({ length: 20_000 }, () => turn).flat();
    const record = conversationRecord({ conversationId: randomUUID(), messages });

    await store.replace(record);

    expect(JSON.stringify(messages).length).toBeGreaterThan(2_000_000);
    expect(await store.load(record.nodeId, record.conversationId)).toEqual(record);
  });

  it('refuses a new conversation over the cap and writes nothing', async () => {
    const store = newStore();
    const record = conversationRecord({
      conversationId: randomUUID(),
      messages: incompressibleHistory(400),
    });

    const replacing = store.replace(record);

    await expect(replacing).rejects.toBeInstanceOf(ConversationTooLargeError);
    await expect(replacing).rejects.toMatchObject({
      part: 'item',
      conversationId: record.conversationId,
      limitBytes: MAX_CONVERSATION_ITEM_BYTES,
      sizeBytes: expect.any(Number),
    });
    expect(await store.load(record.nodeId, record.conversationId)).toBeNull();
  });

  it('refuses a save over the cap and leaves the stored conversation as it was', async () => {
    const store = newStore();
    const original = conversationRecord({ conversationId: randomUUID(), version: 1 });
    await store.replace(original);
    const oversized = { ...original, version: 2, messages: incompressibleHistory(400) };

    const saving = store.save(oversized, 1);

    await expect(saving).rejects.toBeInstanceOf(ConversationTooLargeError);
    expect(await store.load(original.nodeId, original.conversationId)).toEqual(original);
  });

  it('never undercounts: an item estimated just under 400 KB is accepted by the emulator', async () => {
    const dynamoDbLimitBytes = 400 * KILOBYTE;
    const store = newStore({ maxItemBytes: dynamoDbLimitBytes });
    const base = conversationRecord({ conversationId: randomUUID(), timezone: '' });
    // The store writes a random UUID as the write token: the estimate uses one of the same length.
    const baseBytes = itemSizeBytes(conversationToItem(base, base.version, randomUUID()));
    // The timezone is stored uncompressed, so it pads the item byte for byte.
    const record = { ...base, timezone: 'x'.repeat(dynamoDbLimitBytes - 1 - baseBytes) };

    await store.replace(record);

    expect(itemSizeBytes(conversationToItem(record, record.version, randomUUID()))).toBe(
      dynamoDbLimitBytes - 1,
    );
    expect(await store.load(record.nodeId, record.conversationId)).toEqual(record);
  });
});
