import { describe, expect, it } from 'vitest';
import { HttpError } from '../../functions/http/http-error';
import { NodeAuthenticator } from '../../functions/http/node-authenticator';
import { DynamoDbNodeRegistry } from '../../shared/adapters/dynamodb';
import { hashNodeKey } from '../../shared/adapters/node-key';
import { useDynalite } from '../support/dynalite';
import { fixedClock } from '../support/engine-fixtures';

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

  it('answers every refusal no sooner than the floor: a known id with a wrong key and an unknown id alike', async () => {
    const authenticator = new NodeAuthenticator(registry(), fixedClock(), { rejectionFloorMs: 40 });
    await putNode('porch');
    await authenticator.authenticate(keyOf('porch'));
    const timed = async (header: string) => {
      const startedAt = performance.now();
      await refused(authenticator.authenticate(header));
      return performance.now() - startedAt;
    };

    const known = await timed('porch:wrong-key');
    const unknown = await timed('nobody:wrong-key');
    const malformed = await timed('no separator');

    // Timers may fire a millisecond early; the floor is what matters, not a speed.
    for (const elapsed of [known, unknown, malformed]) expect(elapsed).toBeGreaterThanOrEqual(38);
  });
});
