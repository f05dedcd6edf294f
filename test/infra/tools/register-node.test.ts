import { describe, expect, it } from 'vitest';
import { registerNode } from '../../../infra/tools/node-add/register-node';
import { DynamoDbNodeRegistry } from '../../../shared/adapters/dynamodb';
import { hashNodeKey } from '../../../shared/adapters/node-key';
import { useDynalite } from '../../support/dynalite';

const database = useDynalite();
const registry = () =>
  new DynamoDbNodeRegistry({ client: database().client, tableName: database().tableName });

describe('registerNode', () => {
  it('registers a new node under the key hash, enabled', async () => {
    // Prepare
    const keyHash = hashNodeKey('first-key');

    // Act
    const result = await registerNode(
      registry(),
      { nodeId: 'hall', timezone: 'Europe/Berlin', room: 'hall', rotate: false },
      keyHash,
    );

    // Assess
    expect(result).toEqual({ ok: true, value: { rotated: false, enabled: true } });
    expect(await registry().find('hall')).toMatchObject({ keyHash, timezone: 'Europe/Berlin' });
  });

  it('leaves an existing node and its key alone without --rotate, and says how to rotate', async () => {
    // Prepare
    const original = hashNodeKey('kept-key');
    await registerNode(
      registry(),
      { nodeId: 'kitchen', timezone: null, room: null, rotate: false },
      original,
    );

    // Act
    const result = await registerNode(
      registry(),
      { nodeId: 'kitchen', timezone: null, room: null, rotate: false },
      hashNodeKey('new-key'),
    );

    // Assess
    expect(result).toEqual({ ok: false, issues: [expect.stringContaining('--rotate')] });
    // The window the authenticator really trusts a read record, as docs/deploy.md says.
    expect(result).toEqual({ ok: false, issues: [expect.stringContaining('within 10 s')] });
    expect((await registry().find('kitchen'))?.keyHash).toBe(original);
  });

  it('with --rotate replaces the key and keeps what was not given again', async () => {
    // Prepare
    await registerNode(
      registry(),
      { nodeId: 'office', timezone: 'Europe/Paris', room: 'office', rotate: false },
      hashNodeKey('old-key'),
    );
    const rotated = hashNodeKey('rotated-key');

    // Act
    const result = await registerNode(
      registry(),
      { nodeId: 'office', timezone: null, room: null, rotate: true },
      rotated,
    );

    // Assess
    expect(result).toEqual({ ok: true, value: { rotated: true, enabled: true } });
    expect(await registry().find('office')).toMatchObject({
      keyHash: rotated,
      timezone: 'Europe/Paris',
      room: 'office',
    });
  });
});
