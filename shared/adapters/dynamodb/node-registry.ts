import { GetItemCommand, PutItemCommand } from '@aws-sdk/client-dynamodb';
import type { NodeRecord, NodeRegistry } from '../../ports/node-registry';
import type { DynamoDbClient } from './client';
import { keyAttributes, nodeKey } from './item-keys';
import { itemToNode, nodeToItem } from './node-item';
import { toStorageError } from './storage-error';

export interface DynamoDbNodeRegistryOptions {
  readonly client: DynamoDbClient;
  readonly tableName: string;
}

/** A SHA-256 in lowercase hex: anything else would be a raw key stored by mistake. */
const KEY_HASH_PATTERN = /^[0-9a-f]{64}$/;

/** `NodeRegistry` on one item per node (layout in node-item.ts), in the conversations' table. */
export class DynamoDbNodeRegistry implements NodeRegistry {
  readonly #client: DynamoDbClient;
  readonly #tableName: string;

  constructor(options: DynamoDbNodeRegistryOptions) {
    this.#client = options.client;
    this.#tableName = options.tableName;
  }

  async find(nodeId: string): Promise<NodeRecord | null> {
    const command = new GetItemCommand({
      TableName: this.#tableName,
      Key: keyAttributes(nodeKey(nodeId)),
      // A node registered a moment ago must authenticate at once, not after replication.
      ConsistentRead: true,
    });
    const output = await this.#client.send(command).catch((error: unknown) => {
      throw toStorageError(error, 'GetItem');
    });
    return output.Item === undefined ? null : itemToNode(output.Item);
  }

  /** Creates or replaces the node. Throws a `TypeError` if `keyHash` is not a hex SHA-256. */
  async put(node: NodeRecord): Promise<void> {
    if (!KEY_HASH_PATTERN.test(node.keyHash)) {
      throw new TypeError(`node ${node.nodeId}: keyHash must be a lowercase hex SHA-256`);
    }
    const command = new PutItemCommand({ TableName: this.#tableName, Item: nodeToItem(node) });
    await this.#client.send(command).catch((error: unknown) => {
      throw toStorageError(error, 'PutItem');
    });
  }
}
