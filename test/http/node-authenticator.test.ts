import { describe, expect, it } from 'vitest';
import { NodeAuthenticator } from '../../functions/http/edge/node-authenticator';
import { HttpError } from '../../functions/http/errors/http-error';
import { DynamoDbNodeRegistry } from '../../shared/adapters/dynamodb';
import { hashNodeKey } from '../../shared/adapters/node-key';
import type { NodeRegistry } from '../../shared/ports/node-registry';
import { useDynalite } from '../support/dynalite';
import { fixedClock } from '../support/engine-fixtures';
import { FakeTiming } from '../support/fake-timing';

const database = useDynalite();
const registry = () =>
  new DynamoDbNodeRegistry({ client: database().client, tableName: database().tableName });
const putNode = (nodeId: string, enabled = true) =>
  registry().put({
    nodeId,
    keyHash: hashNodeKey(`${nodeId}-key`),
    timezone: 'Europe/Berlin',
    room: null,
    name: nodeId,
    enabled,
  });
const keyOf = (nodeId: string) => `${nodeId}:${nodeId}-key`;
const refused = (promise: Promise<unknown>) =>
  expect(promise).rejects.toSatisfy(
    (error: unknown) => error instanceof HttpError && error.statusCode === 401,
  );

describe('NodeAuthenticator (hostile row 13)', () => {
  it('refuses a node disabled in the registry within 10 s, however often it calls', async () => {
    const clock = fixedClock();
    const authenticator = new NodeAuthenticator(registry(), clock, { rejectionFloorMs: 0 });
    await putNode('hall');
    await authenticator.authenticate(keyOf('hall'));

    await putNode('hall', false);
    clock.advance(9_000);
    await authenticator.authenticate(keyOf('hall'));
    clock.advance(1_001);

    await refused(authenticator.authenticate(keyOf('hall')));
  });

  it('a flood of bogus ids evicts only the least recently used entries, not a busy node', async () => {
    const clock = fixedClock();
    const authenticator = new NodeAuthenticator(registry(), clock, {
      maxEntries: 3,
      rejectionFloorMs: 0,
    });
    await putNode('kitchen');
    for (let bogus = 0; bogus < 20; bogus += 1) {
      await authenticator.authenticate(keyOf('kitchen'));
      await refused(authenticator.authenticate(`bogus-${bogus}:whatever`));
    }

    // Disabled in the registry now: still accepted, so its entry was never flushed by the flood.
    await putNode('kitchen', false);
    await expect(authenticator.authenticate(keyOf('kitchen'))).resolves.toMatchObject({
      nodeId: 'kitchen',
    });
  });

  it('waits every refusal up to the floor: a known id with a wrong key, an unknown id, a malformed key', async () => {
    // Prepare: the floor is measured on a fake clock, so the wait is exact whatever the machine.
    const timing = new FakeTiming();
    const authenticator = new NodeAuthenticator(registry(), fixedClock(), {
      rejectionFloorMs: 40,
      timing,
    });
    await putNode('porch');
    await authenticator.authenticate(keyOf('porch'));

    // Act
    await refused(authenticator.authenticate('porch:wrong-key'));
    await refused(authenticator.authenticate('nobody:wrong-key'));
    await refused(authenticator.authenticate('no separator'));

    // Assess: the accepted node waited nothing; each refusal the whole floor.
    expect(timing.sleeps).toEqual([40, 40, 40]);
  });

  it('waits only what is left of the floor after a slow registry read, and nothing past it', async () => {
    // Prepare: a registry read that takes 15 ms, then one that takes 60 ms, on the fake clock.
    const timing = new FakeTiming();
    const readTimes = [15, 60];
    const slowRegistry = {
      find: async (nodeId: string) => {
        timing.advance(readTimes.shift() ?? 0);
        return registry().find(nodeId);
      },
      put: (node: Parameters<NodeRegistry['put']>[0]) => registry().put(node),
    };
    const authenticator = new NodeAuthenticator(slowRegistry, fixedClock(), {
      rejectionFloorMs: 40,
      timing,
    });

    // Act
    await refused(authenticator.authenticate('first:wrong-key'));
    await refused(authenticator.authenticate('second:wrong-key'));

    // Assess
    expect(timing.sleeps).toEqual([25]);
  });
});
