import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { RequestClaim } from '../../../shared/ports/request-locks';
import { MovableClock, NOW_MS } from './conversation-fixtures';
import { useStoreTable } from './use-store-table';

const { newLocks } = useStoreTable();

/** A claim on a conversation of its own, live for ten seconds from `NOW_MS`. */
const claimFor = (overrides: Partial<RequestClaim> = {}): RequestClaim => ({
  nodeId: 'kitchen-node',
  conversationId: `conversation-${randomUUID()}`,
  requestId: 'request-1',
  fingerprint: 'fingerprint-a',
  heldUntil: NOW_MS + 10_000,
  ...overrides,
});

describe('DynamoDbRequestLocks', () => {
  it('gives a free request id to the first claim and names its fingerprint to the next', async () => {
    // Prepare
    const locks = newLocks();
    const first = claimFor();

    // Act
    const taken = await locks.acquire(first);
    const repeat = await locks.acquire({ ...first, fingerprint: 'fingerprint-b' });

    // Assess
    expect(taken).toEqual({ acquired: true, token: expect.any(String) });
    expect(repeat).toEqual({ acquired: false, fingerprint: 'fingerprint-a' });
  });

  it('frees the id on release, so the next claim gets it', async () => {
    const locks = newLocks();
    const claim = claimFor();
    const taken = await locks.acquire(claim);

    await locks.release(claim, taken.acquired ? taken.token : '');

    expect(await locks.acquire({ ...claim, heldUntil: NOW_MS + 20_000 })).toMatchObject({
      acquired: true,
    });
  });

  it('lets a claim that outlived its request (past heldUntil) be taken over', async () => {
    const clock = new MovableClock();
    const locks = newLocks(clock);
    const stale = claimFor();
    await locks.acquire(stale);

    clock.advanceSeconds(11);
    const takeover = await locks.acquire({ ...stale, heldUntil: clock.now() + 10_000 });

    expect(takeover).toMatchObject({ acquired: true });
  });

  it('releases only its own claim: a later claim on the same id survives an old release', async () => {
    const clock = new MovableClock();
    const locks = newLocks(clock);
    const old = claimFor();
    const oldClaim = await locks.acquire(old);
    clock.advanceSeconds(11);
    const current = { ...old, fingerprint: 'fingerprint-b', heldUntil: clock.now() + 10_000 };
    await locks.acquire(current);

    await locks.release(old, oldClaim.acquired ? oldClaim.token : '');

    expect(await locks.acquire({ ...old, heldUntil: clock.now() + 10_000 })).toEqual({
      acquired: false,
      fingerprint: 'fingerprint-b',
    });
  });

  it.each([
    { name: 'another node', change: { nodeId: 'hall-node' } },
    { name: 'another conversation', change: { conversationId: `other-${randomUUID()}` } },
    { name: 'another request id', change: { requestId: 'request-2' } },
  ])('keeps claims of $name apart', async ({ change }) => {
    const locks = newLocks();
    const claim = claimFor();
    await locks.acquire(claim);

    expect(await locks.acquire({ ...claim, ...change })).toMatchObject({ acquired: true });
  });

  it('keeps ids apart that only differ in where a # splits them', async () => {
    // Unencoded, (`x#b`, `c`) and (`x`, `b#c`) would share the key `REQUEST#x#b#c`.
    const locks = newLocks();
    const prefix = randomUUID();
    await locks.acquire(claimFor({ conversationId: `${prefix}#b`, requestId: 'c' }));

    const other = await locks.acquire(claimFor({ conversationId: prefix, requestId: 'b#c' }));

    expect(other).toMatchObject({ acquired: true });
  });
});
