import { describe, expect, it } from 'vitest';
import { DynamoDbNodeRegistry } from '../../../shared/adapters/dynamodb';
import { hashNodeKey } from '../../../shared/adapters/node-key';
import { useDynalite } from '../../support/dynalite';
import { freePort } from '../../support/free-port';
import { runTool } from '../../support/run-tool';

const database = useDynalite();

/** `npm run node:add -- ...args` as a user runs it, with only the local settings of `npm start`. */
async function nodeAdd(...args: string[]) {
  return nodeAddOn(new URL(database().endpoint).port, ...args);
}

async function nodeAddOn(port: string, ...args: string[]) {
  const { DYNAMODB_ENDPOINT: _ignored, ...inherited } = process.env;
  const env = {
    ...inherited,
    DATA_DIR: 'memory',
    DYNAMODB_PORT: port,
    TABLE_NAME: database().tableName,
  };
  return runTool('infra/tools/node-add.ts', args, env);
}

const keyOf = (stdout: string) => /X-API-Key: [^:]+:(\S+)/.exec(stdout)?.[1] ?? '';

describe('npm run node:add', () => {
  it('finds the table of npm start through DYNAMODB_PORT, refuses to replace a key silently, rotates on --rotate', async () => {
    // Prepare
    const registry = new DynamoDbNodeRegistry({
      client: database().client,
      tableName: database().tableName,
    });

    // Act
    const first = await nodeAdd('--node-id', 'porch', '--timezone', 'Europe/Oslo');
    const again = await nodeAdd('--node-id', 'porch');
    const afterRefusal = await registry.find('porch');
    const rotated = await nodeAdd('--node-id', 'porch', '--rotate');

    // Assess
    expect(first.code).toBe(0);
    expect(first.stdout).toContain(
      `Registered node porch in table ${database().tableName} at ${database().endpoint}.`,
    );
    expect(again.code).toBe(2);
    expect(again.stderr).toContain('--rotate');
    expect(afterRefusal?.keyHash).toBe(hashNodeKey(keyOf(first.stdout)));
    expect(rotated.stdout).toContain('Replaced the key of node porch');
    expect(await registry.find('porch')).toMatchObject({
      keyHash: hashNodeKey(keyOf(rotated.stdout)),
      timezone: 'Europe/Oslo',
    });
  });

  it('says why when nothing listens where npm start would be', async () => {
    // Prepare: a port nothing listens on.
    const closed = await freePort();

    // Act
    const result = await nodeAddOn(String(closed), '--node-id', 'attic');

    // Assess
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      `could not write to table ${database().tableName} at http://127.0.0.1:${closed}`,
    );
    expect(result.stderr).toContain('nothing listens there: is npm start running?');
  });
});
