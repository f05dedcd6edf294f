import {
  createDynamoDbClient,
  createTableIfMissing,
  DynamoDbNodeRegistry,
} from '../../shared/adapters/dynamodb';
import { hashNodeKey, parseNodeCredentials } from '../../shared/adapters/node-key';
import { loadLocalNodeKeys, type NodeKeyOrigin } from './local-node-key';
import type { LocalSettings } from './local-settings';

/** dynalite takes any region; the SDK wants one. */
export const LOCAL_REGION = 'us-east-1';

export interface LocalNode {
  readonly nodeId: string;
  readonly key: string;
  /** Where its key came from: the banner prints only keys it chose (stored or generated). */
  readonly origin: NodeKeyOrigin;
  /** The file under DATA_DIR holding the key; null for LOCAL_NODE_API_KEY and DATA_DIR=memory. */
  readonly keyFile: string | null;
}

/** The table on `endpoint`, created when missing, and the nodes of LOCAL_NODE_API_KEY in it. */
export async function seedLocalNodes(
  endpoint: string,
  settings: LocalSettings,
): Promise<LocalNode[]> {
  const client = createDynamoDbClient({ region: LOCAL_REGION, endpoint });
  try {
    await createTableIfMissing(client, settings.tableName);
    const registry = new DynamoDbNodeRegistry({ client, tableName: settings.tableName });
    const keys = await loadLocalNodeKeys(settings);
    const nodes = parseNodeCredentials(keys.credentials).map((node) => ({
      ...node,
      origin: keys.origin,
      keyFile: keys.file,
    }));
    for (const node of nodes) {
      await registry.put({
        nodeId: node.nodeId,
        keyHash: hashNodeKey(node.key),
        timezone: settings.nodeTimezone,
        room: null,
        name: node.nodeId,
        enabled: true,
      });
    }
    return nodes;
  } finally {
    client.destroy();
  }
}
