import { gzipSync, zstdDecompressSync } from 'node:zlib';
import { GetItemCommand, PutItemCommand } from '@aws-sdk/client-dynamodb';
import { describe, expect, it } from 'vitest';
import {
  ConversationAttribute,
  conversationKey,
  StoredItemMalformedError,
} from '../../../shared/adapters/dynamodb';
import { keyAttributes } from '../../../shared/adapters/dynamodb/item-keys';
import { ConversationConflictError } from '../../../shared/ports/conversation-store';
import { conversationRecord, EVERY_ROLE } from './conversation-fixtures';
import { freshConversationId, useStoreTable } from './use-store-table';

const { dynalite, newStore } = useStoreTable();

describe('DynamoDbConversationStore load and replace', () => {
  it('loads null for a conversation never stored', async () => {
    const store = newStore();

    const loaded = await store.load('kitchen-node', freshConversationId());

    expect(loaded).toBeNull();
  });

  it('returns a new conversation exactly as replaced', async () => {
    const store = newStore();
    const record = conversationRecord({ conversationId: freshConversationId(), version: 1 });

    await store.replace(record);

    expect(await store.load(record.nodeId, record.conversationId)).toEqual(record);
  });

  it('round-trips every message role, tool calls, pending tool calls and a null room', async () => {
    const store = newStore();
    const record = conversationRecord({
      conversationId: freshConversationId(),
      room: null,
      messages: EVERY_ROLE,
      pendingToolCalls: [{ id: 'call_abc123', name: 'get_weather' }],
      commandSource: JSON.stringify({ available_commands: [{ command_name: 'café-☕' }] }),
      recentResponses: [
        {
          requestId: 'req-1',
          fingerprint: 'f1',
          outcome: '{"stopReason":"complete"}',
          recordedAt: 5,
        },
      ],
    });

    await store.replace(record);

    expect(await store.load(record.nodeId, record.conversationId)).toEqual(record);
  });

  it('stores messages and the command source zstd-compressed as Binary attributes', async () => {
    const store = newStore();
    const record = conversationRecord({
      conversationId: freshConversationId(),
      messages: EVERY_ROLE,
    });
    await store.replace(record);

    const { Item: item } = await dynalite().client.send(
      new GetItemCommand({
        TableName: dynalite().tableName,
        Key: keyAttributes(conversationKey(record.nodeId, record.conversationId)),
      }),
    );

    const messages = item?.[ConversationAttribute.messages]?.B ?? new Uint8Array();
    const source = item?.[ConversationAttribute.commandSource]?.B ?? new Uint8Array();
    expect(JSON.parse(zstdDecompressSync(messages).toString('utf8'))).toEqual(EVERY_ROLE);
    expect(zstdDecompressSync(source).toString('utf8')).toBe(record.commandSource);
  });

  it('replaces an existing conversation, counting its version on from the replaced one', async () => {
    const store = newStore();
    const conversationId = freshConversationId();
    await store.replace(conversationRecord({ conversationId, version: 1 }));
    await store.save(conversationRecord({ conversationId, messages: EVERY_ROLE }), 1);
    const replacement = conversationRecord({ conversationId, version: 1, room: null });

    await store.replace(replacement);

    expect(await store.load(replacement.nodeId, conversationId)).toEqual({
      ...replacement,
      version: 3,
    });
  });

  it('refuses a save by a request still holding the replaced conversation', async () => {
    const store = newStore();
    const conversationId = freshConversationId();
    await store.replace(conversationRecord({ conversationId, version: 1 }));
    const stale = await store.load('kitchen-node', conversationId);
    const replacement = conversationRecord({ conversationId, version: 1, commandSetHash: 'new' });
    await store.replace(replacement);

    const staleSave = store.save(conversationRecord({ conversationId }), stale?.version ?? -1);

    await expect(staleSave).rejects.toBeInstanceOf(ConversationConflictError);
    expect(await store.load('kitchen-node', conversationId)).toMatchObject({
      commandSetHash: 'new',
    });
  });

  it('throws StoredItemMalformedError for an item whose history is neither zstd nor gzip', async () => {
    const store = newStore();
    const record = conversationRecord({ conversationId: freshConversationId() });
    await store.replace(record);
    const { Item: item } = await dynalite().client.send(
      new GetItemCommand({
        TableName: dynalite().tableName,
        Key: keyAttributes(conversationKey(record.nodeId, record.conversationId)),
      }),
    );
    await dynalite().client.send(
      new PutItemCommand({
        TableName: dynalite().tableName,
        Item: { ...item, [ConversationAttribute.messages]: { B: Buffer.from('plain text') } },
      }),
    );

    const loading = store.load(record.nodeId, record.conversationId);

    await expect(loading).rejects.toMatchObject({
      name: StoredItemMalformedError.name,
      attribute: ConversationAttribute.messages,
    });
  });

  it('loads an item written before request ids were recorded with no recorded responses', async () => {
    // Prepare: the item as the previous version wrote it, without `recent_responses`.
    const store = newStore();
    const record = conversationRecord({ conversationId: freshConversationId() });
    await store.replace(record);
    const key = keyAttributes(conversationKey(record.nodeId, record.conversationId));
    const { Item: item = {} } = await dynalite().client.send(
      new GetItemCommand({ TableName: dynalite().tableName, Key: key }),
    );
    const { [ConversationAttribute.recentResponses]: _dropped, ...older } = item;
    await dynalite().client.send(
      new PutItemCommand({ TableName: dynalite().tableName, Item: older }),
    );

    // Act
    const loaded = await store.load(record.nodeId, record.conversationId);

    // Assess
    expect(loaded).toEqual({ ...record, recentResponses: [] });
  });

  it('loads an item whose large attributes were written gzip-compressed, as before zstd', async () => {
    // Prepare: the item as the previous version wrote it, each compressed attribute gzip.
    const store = newStore();
    const home = { prompt: '[Home data]', entityIds: ['light.office'], entityIdsComplete: true };
    const record = conversationRecord({
      conversationId: freshConversationId(),
      messages: EVERY_ROLE,
      home,
    });
    await store.replace(record);
    const key = keyAttributes(conversationKey(record.nodeId, record.conversationId));
    const { Item: item = {} } = await dynalite().client.send(
      new GetItemCommand({ TableName: dynalite().tableName, Key: key }),
    );
    const gzip = (name: string) => ({
      B: gzipSync(zstdDecompressSync(item[name]?.B ?? new Uint8Array())),
    });
    const compressed = [
      ConversationAttribute.messages,
      ConversationAttribute.commandSource,
      ConversationAttribute.homeContext,
      ConversationAttribute.recentResponses,
    ];
    const older = { ...item, ...Object.fromEntries(compressed.map((name) => [name, gzip(name)])) };
    await dynalite().client.send(
      new PutItemCommand({ TableName: dynalite().tableName, Item: older }),
    );

    // Act: a store of a fresh container, which remembers none of the texts.
    const loaded = await newStore().load(record.nodeId, record.conversationId);

    // Assess
    expect(loaded).toEqual(record);
    expect(await store.load(record.nodeId, record.conversationId)).toEqual(record);
  });

  it('round-trips the home the node reported and the speaker it named', async () => {
    // Prepare
    const store = newStore();
    const home = {
      prompt: '[Home data]\nlight.office "Office Light" "Office" on',
      entityIds: ['light.office', 'switch.kettle'],
      entityIdsComplete: false,
    };
    const record = conversationRecord({
      conversationId: freshConversationId(),
      home,
      speakerUserId: 7,
    });

    // Act
    await store.replace(record);
    const loaded = await store.load(record.nodeId, record.conversationId);

    // Assess
    expect(loaded).toEqual(record);
  });

  it('loads an item written before the home was kept with no home and no speaker', async () => {
    // Prepare: the item as the previous version wrote it, without the two attributes.
    const store = newStore();
    const record = conversationRecord({ conversationId: freshConversationId(), speakerUserId: 3 });
    await store.replace(record);
    const key = keyAttributes(conversationKey(record.nodeId, record.conversationId));
    const { Item: item = {} } = await dynalite().client.send(
      new GetItemCommand({ TableName: dynalite().tableName, Key: key }),
    );
    const {
      [ConversationAttribute.homeContext]: _home,
      [ConversationAttribute.speakerUserId]: _speaker,
      ...older
    } = item;
    await dynalite().client.send(
      new PutItemCommand({ TableName: dynalite().tableName, Item: older }),
    );

    // Act
    const loaded = await store.load(record.nodeId, record.conversationId);

    // Assess
    expect(loaded).toEqual({ ...record, home: null, speakerUserId: null });
  });
});
