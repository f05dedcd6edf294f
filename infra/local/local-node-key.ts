import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { generateNodeKey, parseNodeCredentials } from '../../shared/adapters/node-key';
import { type LocalSettings, LocalSettingsError } from './local-settings';

const NODE_ID = 'local-node';

/** Where the keys `npm start` seeds came from: the banner prints a key only when it chose it. */
export const NodeKeyOrigin = {
  /** LOCAL_NODE_API_KEY: the user's own keys, never printed. */
  environment: 'environment',
  /** The key an earlier `npm start` generated and kept in DATA_DIR. */
  stored: 'stored',
  /** Generated now (and kept in DATA_DIR unless DATA_DIR=memory). */
  generated: 'generated',
} as const;
export type NodeKeyOrigin = (typeof NodeKeyOrigin)[keyof typeof NodeKeyOrigin];

export interface LocalNodeKeys {
  /** `node_id:node_key[,node_id:node_key...]`. */
  readonly credentials: string;
  readonly origin: NodeKeyOrigin;
  /** The file it was read from or written to; null for LOCAL_NODE_API_KEY and DATA_DIR=memory. */
  readonly file: string | null;
}

export const localNodeKeyFile = (dataDir: string): string => join(dataDir, 'local-node-key');

/**
 * The keys `npm start` seeds, in its order: LOCAL_NODE_API_KEY, else the key kept under DATA_DIR
 * (mode 600, so restarts and `npm run say` use the same key), else a new one, kept there.
 */
export async function loadLocalNodeKeys(settings: LocalSettings): Promise<LocalNodeKeys> {
  const found = await findLocalNodeKeys(settings);
  if (found !== null) return found;
  const credentials = `${NODE_ID}:${generateNodeKey()}`;
  if (settings.dataDir === null)
    return { credentials, origin: NodeKeyOrigin.generated, file: null };
  const file = localNodeKeyFile(settings.dataDir);
  await mkdir(settings.dataDir, { recursive: true });
  await writeFile(file, `${credentials}\n`, { mode: 0o600 });
  await chmod(file, 0o600);
  return { credentials, origin: NodeKeyOrigin.generated, file };
}

/**
 * The keys a running `npm start` with these settings uses, without generating any: what
 * `npm run say` sends. Null when it would generate one (nothing stored, or DATA_DIR=memory).
 */
export async function findLocalNodeKeys(settings: LocalSettings): Promise<LocalNodeKeys | null> {
  if (settings.nodeCredentials !== null) {
    try {
      parseNodeCredentials(settings.nodeCredentials);
    } catch (error) {
      throw new LocalSettingsError(`LOCAL_NODE_API_KEY: ${(error as Error).message}`);
    }
    return { credentials: settings.nodeCredentials, origin: NodeKeyOrigin.environment, file: null };
  }
  if (settings.dataDir === null) return null;
  const file = localNodeKeyFile(settings.dataDir);
  const stored = await readFile(file, 'utf8').then(
    (text) => text.trim(),
    () => '',
  );
  return stored === '' ? null : { credentials: stored, origin: NodeKeyOrigin.stored, file };
}
