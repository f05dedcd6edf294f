import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { DynamoDbConversationStore, DynamoDbNodeRegistry } from '../../../shared/adapters/dynamodb';
import type { NodeRecord } from '../../../shared/ports/node-registry';
import { useDynalite } from '../../support/dynalite';
import { conversationRecord, MovableClock } from './conversation-fixtures';

const dynalite = useDynalite();

const newRegistry = () =>
  new DynamoDbNodeRegistry({ client: dynalite().client, tableName: dynalite().tableName });

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

const kitchen: NodeRecord = {
  nodeId: 'kitchen-node',
  keyHash: sha256('secret-key'),
  timezone: 'America/New_York',
  room: 'kitchen',
  name: 'Kitchen speaker',
  enabled: true,
};

describe('DynamoDbNodeRegistry', () => {
  it('finds nothing for a node never put', async () => {
    const registry = newRegistry();

    const found = await registry.find('unknown-node');

    expect(found).toBeNull();
  });

  it.each<{ description: string; node: NodeRecord }>([
    { description: 'every field set', node: kitchen },
    {
      description: 'null timezone, room and name, disabled',
      node: {
        ...kitchen,
        nodeId: 'bare-node',
        timezone: null,
        room: null,
        name: null,
        enabled: false,
      },
    },
  ])('finds a node as put, with $description', async ({ node }) => {
    const registry = newRegistry();

    await registry.put(node);

    expect(await registry.find(node.nodeId)).toEqual(node);
  });

  it('replaces a node put again', async () => {
    const registry = newRegistry();
    const nodeId = 'replaced-node';
    await registry.put({ ...kitchen, nodeId });
    const replacement = {
      ...kitchen,
      nodeId,
      keyHash: sha256('rotated'),
      enabled: false,
      room: null,
    };

    await registry.put(replacement);

    expect(await registry.find(nodeId)).toEqual(replacement);
  });

  it.each([
    { description: 'a raw key', keyHash: 'secret-key' },
    { description: 'an uppercase hash', keyHash: sha256('secret-key').toUpperCase() },
    { description: 'a truncated hash', keyHash: sha256('secret-key').slice(0, 40) },
  ])('refuses to store $description as the key hash', async ({ keyHash }) => {
    const registry = newRegistry();
    const nodeId = `refused-${keyHash.length}-${keyHash.slice(0, 4)}`;

    const putting = registry.put({ ...kitchen, nodeId, keyHash });

    await expect(putting).rejects.toBeInstanceOf(TypeError);
    expect(await registry.find(nodeId)).toBeNull();
  });

  it("keeps the node and its conversations apart although they share the node's partition", async () => {
    const registry = newRegistry();
    const conversations = new DynamoDbConversationStore({
      client: dynalite().client,
      tableName: dynalite().tableName,
      clock: new MovableClock(),
    });
    const node = { ...kitchen, nodeId: 'shared-partition-node' };
    const conversation = conversationRecord({ nodeId: node.nodeId, conversationId: 'NODE' });
    await registry.put(node);

    await conversations.replace(conversation);

    expect(await registry.find(node.nodeId)).toEqual(node);
    expect(await conversations.load(node.nodeId, 'NODE')).toEqual(conversation);
  });
});
