import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  describeTarget,
  nodeAddClient,
  nodeAddTarget,
} from '../../../infra/tools/node-add/node-add-target';

describe('nodeAddTarget, locally', () => {
  it.each([
    [{}, 'http://127.0.0.1:8000', 'jcc-local'],
    [{ DYNAMODB_PORT: '8123' }, 'http://127.0.0.1:8123', 'jcc-local'],
    [{ DYNAMODB_HOST: '0.0.0.0', DYNAMODB_PORT: '8001' }, 'http://127.0.0.1:8001', 'jcc-local'],
    [{ DYNAMODB_HOST: '192.168.1.20' }, 'http://192.168.1.20:8000', 'jcc-local'],
    [{ DYNAMODB_HOST: '::1' }, 'http://[::1]:8000', 'jcc-local'],
    [{ DYNAMODB_ENDPOINT: 'http://db:9000', DYNAMODB_PORT: '8123' }, 'http://db:9000', 'jcc-local'],
    [{ TABLE_NAME: 'other' }, 'http://127.0.0.1:8000', 'other'],
  ])('with %j writes to %s, table %s (as npm start serves it)', (env, endpoint, tableName) => {
    // Prepare / Act
    const target = nodeAddTarget({ aws: false, table: undefined }, env);

    // Assess
    expect(target).toEqual({ ok: true, value: { kind: 'local', tableName, endpoint } });
  });

  it('writes to the npm start running on the same DATA_DIR, wherever its DYNAMODB_PORT is', () => {
    // Prepare
    const running = { dynamoDbEndpoint: 'http://127.0.0.1:8123', tableName: 'jcc-other' };

    // Act
    const target = nodeAddTarget({ aws: false, table: undefined }, {}, running);

    // Assess
    expect(target).toEqual({
      ok: true,
      value: { kind: 'local', tableName: 'jcc-other', endpoint: 'http://127.0.0.1:8123' },
    });
  });

  it.each([
    [{ DYNAMODB_PORT: '8001' }, 'http://127.0.0.1:8001', 'jcc-other'],
    [{ DYNAMODB_ENDPOINT: 'http://db:9000' }, 'http://db:9000', 'jcc-other'],
    [{ TABLE_NAME: 'mine' }, 'http://127.0.0.1:8123', 'mine'],
  ])('lets %j given here win over the running npm start', (env, endpoint, tableName) => {
    // Prepare
    const running = { dynamoDbEndpoint: 'http://127.0.0.1:8123', tableName: 'jcc-other' };

    // Act
    const target = nodeAddTarget({ aws: false, table: undefined }, env, running);

    // Assess
    expect(target).toEqual({ ok: true, value: { kind: 'local', tableName, endpoint } });
  });

  it('names the bad setting instead of connecting somewhere else', () => {
    // Prepare / Act
    const target = nodeAddTarget({ aws: false, table: undefined }, { DYNAMODB_PORT: 'eight' });

    // Assess
    expect(target).toEqual({ ok: false, issues: [expect.stringContaining('DYNAMODB_PORT')] });
  });
});

describe('nodeAddTarget, with --aws', () => {
  it('needs the table name, and says where to find it', () => {
    // Prepare / Act
    const target = nodeAddTarget({ aws: true, table: undefined }, {});

    // Assess
    expect(target).toEqual({ ok: false, issues: [expect.stringContaining('TableName output')] });
  });

  it('takes --table over TABLE_NAME and has no endpoint', () => {
    // Prepare / Act
    const target = nodeAddTarget({ aws: true, table: 'deployed' }, { TABLE_NAME: 'other' });

    // Assess
    expect(target).toEqual({ ok: true, value: { kind: 'aws', tableName: 'deployed' } });
  });
});

describe('nodeAddClient, with --aws', () => {
  const directories: string[] = [];
  afterEach(() => {
    vi.unstubAllEnvs();
    for (const directory of directories.splice(0)) rmSync(directory, { recursive: true });
  });

  it('signs for the region of the AWS profile when AWS_REGION is unset (not us-east-1)', async () => {
    // Prepare
    const directory = mkdtempSync(join(tmpdir(), 'jcc-aws-config-'));
    directories.push(directory);
    const configFile = join(directory, 'config');
    writeFileSync(configFile, '[profile jcc]\nregion = eu-west-1\n');
    vi.stubEnv('AWS_CONFIG_FILE', configFile);
    vi.stubEnv('AWS_PROFILE', 'jcc');
    vi.stubEnv('AWS_REGION', undefined);
    vi.stubEnv('AWS_DEFAULT_REGION', undefined);
    const target = { kind: 'aws', tableName: 'JccStateful-Table' } as const;
    const client = nodeAddClient(target, process.env);

    // Act
    const where = await describeTarget(target, client);
    client.destroy();

    // Assess
    expect(where).toBe('table JccStateful-Table in eu-west-1');
  });
});
