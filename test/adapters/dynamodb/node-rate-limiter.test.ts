import { describe, expect, it } from 'vitest';
import { DynamoDbNodeRateLimiter } from '../../../shared/adapters/dynamodb';
import { useDynalite } from '../../support/dynalite';
import { fixedClock } from '../../support/engine-fixtures';

const database = useDynalite();
const limiterAt = (clock: ReturnType<typeof fixedClock>, requests = 3) =>
  new DynamoDbNodeRateLimiter({
    client: database().client,
    tableName: database().tableName,
    clock,
    requests,
    windowSeconds: 60,
  });

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
});
