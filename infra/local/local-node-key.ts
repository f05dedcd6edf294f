import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { generateNodeKey } from '../../shared/adapters/node-key';

const NODE_ID = 'local-node';
const fileFor = (env: NodeJS.ProcessEnv) =>
  join(resolve(env.DATA_DIR?.trim() || '.data'), 'local-node-key');

/**
 * The generated local node's `node_id:node_key`, kept under DATA_DIR (mode 600) so that restarts
 * and `npm run say` use the same key. Null when none was generated yet.
 */
export async function readLocalNodeKey(env: NodeJS.ProcessEnv): Promise<string | null> {
  try {
    return (await readFile(fileFor(env), 'utf8')).trim() || null;
  } catch {
    return null;
  }
}

export async function createLocalNodeKey(
  env: NodeJS.ProcessEnv,
  persist: boolean,
): Promise<string> {
  const existing = persist ? await readLocalNodeKey(env) : null;
  if (existing !== null) return existing;
  const credentials = `${NODE_ID}:${generateNodeKey()}`;
  if (persist) {
    const file = fileFor(env);
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, `${credentials}\n`, { mode: 0o600 });
    await chmod(file, 0o600);
  }
  return credentials;
}
