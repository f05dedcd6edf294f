import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  findLocalNodeKeys,
  loadLocalNodeKeys,
  localNodeKeyFile,
  NodeKeyOrigin,
} from '../../../infra/local/local-node-key';
import { LocalSettingsError, readLocalSettings } from '../../../infra/local/local-settings';

let dataDir: string;
beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'jcc-node-key-'));
});
afterEach(() => rm(dataDir, { recursive: true, force: true }));

describe('loadLocalNodeKeys: the keys npm start seeds', () => {
  it('generates a key into DATA_DIR (mode 600), then reuses it and says so', async () => {
    // Prepare
    const settings = readLocalSettings({ DATA_DIR: dataDir });

    // Act
    const first = await loadLocalNodeKeys(settings);
    const second = await loadLocalNodeKeys(settings);

    // Assess
    const file = localNodeKeyFile(dataDir);
    expect(first).toMatchObject({ origin: NodeKeyOrigin.generated, file });
    expect(first.credentials).toMatch(/^local-node:[\w-]{43}$/);
    expect((await readFile(file, 'utf8')).trim()).toBe(first.credentials);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(second).toEqual({ ...first, origin: NodeKeyOrigin.stored });
  });

  it('takes LOCAL_NODE_API_KEY over a stored key, and writes nothing', async () => {
    // Prepare
    await writeFile(localNodeKeyFile(dataDir), 'local-node:stored\n');
    const settings = readLocalSettings({ DATA_DIR: dataDir, LOCAL_NODE_API_KEY: ' a:1,b:2 ' });

    // Act
    const keys = await loadLocalNodeKeys(settings);

    // Assess
    expect(keys).toEqual({ credentials: 'a:1,b:2', origin: NodeKeyOrigin.environment, file: null });
    expect((await readFile(localNodeKeyFile(dataDir), 'utf8')).trim()).toBe('local-node:stored');
  });

  it('generates a key for the run only with DATA_DIR=memory', async () => {
    // Act
    const keys = await loadLocalNodeKeys(readLocalSettings({ DATA_DIR: 'memory' }));

    // Assess
    expect(keys).toMatchObject({ origin: NodeKeyOrigin.generated, file: null });
  });
});

describe('findLocalNodeKeys: the key npm run say sends, never generating one', () => {
  it.each([
    ['LOCAL_NODE_API_KEY set', { LOCAL_NODE_API_KEY: 'hall:k' }, NodeKeyOrigin.environment],
    ['a key stored in DATA_DIR', {}, NodeKeyOrigin.stored],
  ] as const)('finds it with %s', async (_case, env, origin) => {
    // Prepare
    await writeFile(localNodeKeyFile(dataDir), 'local-node:stored\n');

    // Act
    const found = await findLocalNodeKeys(readLocalSettings({ DATA_DIR: dataDir, ...env }));

    // Assess
    expect(found?.origin).toBe(origin);
  });

  it.each([
    ['an empty DATA_DIR', () => ({ DATA_DIR: dataDir })],
    ['DATA_DIR=memory', () => ({ DATA_DIR: 'memory' })],
  ])('finds none in %s', async (_case, env) => {
    // Act
    const found = await findLocalNodeKeys(readLocalSettings(env()));

    // Assess
    expect(found).toBeNull();
  });

  it('names LOCAL_NODE_API_KEY when it is not node_id:node_key', async () => {
    // Act
    const finding = findLocalNodeKeys(readLocalSettings({ LOCAL_NODE_API_KEY: 'no-colon' }));

    // Assess
    await expect(finding).rejects.toThrow(LocalSettingsError);
    await expect(finding).rejects.toThrow(
      /^LOCAL_NODE_API_KEY: "no-colon" is not node_id:node_key/,
    );
  });
});
