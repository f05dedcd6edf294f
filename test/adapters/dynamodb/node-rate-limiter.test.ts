import { GetItemCommand } from '@aws-sdk/client-dynamodb';
import { describe, expect, it } from 'vitest';
import { DynamoDbNodeRateLimiter } from '../../../shared/adapters/dynamodb';
import { keyAttributes, rateWindowKey } from '../../../shared/adapters/dynamodb/item-keys';
import type { NodeRateLimiter } from '../../../shared/ports';
import { countingDynamoDbClient } from '../../support/counting-dynamodb-client';
import { useDynalite } from '../../support/dynalite';
import { fixedClock } from '../../support/engine-fixtures';

const database = useDynalite();
const limiterAt = (
  clock: ReturnType<typeof fixedClock>,
  requests = 3,
  client = database().client,
) =>
  new DynamoDbNodeRateLimiter({
    client,
    tableName: database().tableName,
    clock,
    requests,
    windowSeconds: 60,
  });

/** Admits `nodeId` until `limiter` refuses it (at most `max` times); how many it admitted. */
async function admittedUntilRefused(limiter: NodeRateLimiter, nodeId: string, max = 1_000) {
  for (let admitted = 0; admitted < max; admitted += 1) {
    if (!(await limiter.admit(nodeId)).admitted) return admitted;
  }
  return max;
}

/** The window's count as stored. */
async function storedCount(nodeId: string, windowStart: number): Promise<number> {
  const { Item } = await database().client.send(
    new GetItemCommand({
      TableName: database().tableName,
      Key: keyAttributes(rateWindowKey(nodeId, windowStart)),
      ConsistentRead: true,
    }),
  );
  return Number(Item?.requests?.N);
}

describe('DynamoDbNodeRateLimiter', () => {
  it('admits the limit per window, refuses the next with the seconds left, and admits again in the next window', async () => {
    const clock = fixedClock(Date.UTC(2026, 0, 1, 12, 0, 15));
    const limiter = limiterAt(clock);

    const admitted = [await limiter.admit('a'), await limiter.admit('a'), await limiter.admit('a')];
    const refused = await limiter.admit('a');
    clock.advance(45_000);
    const nextWindow = await limiter.admit('a');

    expect(admitted.every((decision) => decision.admitted)).toBe(true);
    expect(refused).toEqual({ admitted: false, retryAfterSeconds: 45 });
    expect(nextWindow).toEqual({ admitted: true });
  });

  it('counts each node on its own: one node over its limit leaves the others alone', async () => {
    const limiter = limiterAt(fixedClock(Date.UTC(2026, 0, 1, 13)), 1);

    await limiter.admit('flood');
    const flood = await limiter.admit('flood');
    const quiet = await limiter.admit('quiet');

    expect(flood.admitted).toBe(false);
    expect(quiet.admitted).toBe(true);
  });

  it('shares the count between containers (two limiters on one table)', async () => {
    const clock = fixedClock(Date.UTC(2026, 0, 1, 14));
    const [one, two] = [limiterAt(clock, 2), limiterAt(clock, 2)];

    await one.admit('shared');
    await two.admit('shared');

    expect((await one.admit('shared')).admitted).toBe(false);
    expect((await two.admit('shared')).admitted).toBe(false);
  });

  describe('a block of the window per container', () => {
    it('counts a twentieth of the limit with one write and admits the rest of it without one', async () => {
      const counting = countingDynamoDbClient(database().endpoint);
      const limiter = limiterAt(fixedClock(Date.UTC(2026, 0, 2, 10)), 100, counting.client);

      const decisions = [];
      for (let request = 0; request < 6; request += 1) {
        decisions.push(await limiter.admit('blocks'));
      }
      counting.client.destroy();

      expect(limiter.blockSize).toBe(5);
      expect(decisions.every((decision) => decision.admitted)).toBe(true);
      // The first request reserves 1-5, the sixth 6-10.
      expect(counting.take().map((request) => request.operation)).toEqual([
        'UpdateItem',
        'UpdateItem',
      ]);
    });

    it('admits one container exactly the limit: past the last block, one request at a time', async () => {
      const clock = fixedClock(Date.UTC(2026, 0, 2, 11, 0, 20));
      // 43 a window: blocks of 2 up to 42, then the 43rd alone.
      const limiter = limiterAt(clock, 43);

      expect(await admittedUntilRefused(limiter, 'alone')).toBe(43);
      expect(await limiter.admit('alone')).toEqual({ admitted: false, retryAfterSeconds: 40 });
      // Refusals wrote nothing: the count is the limit.
      expect(await storedCount('alone', Date.UTC(2026, 0, 2, 11) / 1000)).toBe(43);
      clock.advance(40_000);
      expect(await limiter.admit('alone')).toEqual({ admitted: true });
    });

    it('never passes the limit across containers; what others reserved refuses early by at most (containers - 1) x (block - 1)', async () => {
      const clock = fixedClock(Date.UTC(2026, 0, 2, 12));
      // 60 a window: blocks of 3.
      const [one, two, three] = [limiterAt(clock, 60), limiterAt(clock, 60), limiterAt(clock, 60)];

      // One and two each reserve a block and use one request of it; three takes all the rest.
      await one.admit('spread');
      await two.admit('spread');
      const third = await admittedUntilRefused(three, 'spread');
      // Two requests left in each of the other two containers' blocks: 60 - 2 x 2 admitted.
      expect(2 + third).toBe(56);
      // They are still the node's: served by the containers that hold them, up to the limit.
      expect(await admittedUntilRefused(one, 'spread')).toBe(2);
      expect(await admittedUntilRefused(two, 'spread')).toBe(2);
      expect(await storedCount('spread', Date.UTC(2026, 0, 2, 12) / 1000)).toBe(60);
    });
  });
});
