import { describe, expect, it } from 'vitest';
import { InMemoryWarmUps } from '../../../shared/adapters/system/in-memory-warm-ups';
import { startConversation } from '../../../shared/conversation/use-cases/start-conversation';
import { RECENT_WARM_UP_MS } from '../../../shared/conversation/use-cases/warm-up-decision';
import { fixedClock, fixtureRegistration } from '../../support/engine-fixtures';
import { NODE, useConversationHarness } from './conversation-harness';

const harness = useConversationHarness();

/**
 * The real node's defaults: `skip_warmup_inference: true` and a start before every utterance, on
 * a fake clock, against the scripted server through the real adapter, with dynalite.
 */
function defaultNode(warmUps = new InMemoryWarmUps()) {
  const clock = fixedClock();
  const dependencies = { ...harness.dependencies({ warmUpTimeoutMs: 5_000 }), clock, warmUps };
  let utterances = 0;
  const start = async () => {
    utterances += 1;
    const started = await startConversation(dependencies, {
      node: NODE,
      conversationId: `utterance-${utterances}`,
      requestTimezone: null,
      commands: fixtureRegistration(),
      skipWarmUp: true,
    });
    return started.warmUp;
  };
  return { clock, start };
}

const warmUpReply = { reply: { content: 'H' } };

describe('conversation/start for a node that skips the warm-up and starts before every utterance', () => {
  it('warms the first utterance of the day, then the following ones cost nothing', async () => {
    // Prepare
    const node = defaultNode();
    harness.llm.enqueue(warmUpReply);

    // Act: the day's first utterance, then three more a minute apart
    const first = await node.start();
    const following = [];
    for (let index = 0; index < 3; index += 1) {
      node.clock.advance(60_000);
      following.push(await node.start());
    }

    // Assess: one warm-up request in all
    expect(first).toBe('warmed');
    expect(following).toEqual(['recently_warmed', 'recently_warmed', 'recently_warmed']);
    expect(harness.llm.requests).toHaveLength(1);
    expect(harness.llm.requests[0]?.body).toMatchObject({ max_tokens: 1 });
  });

  it('warms again once the last warm-up is no longer recent (the server may have let it go)', async () => {
    const node = defaultNode();
    harness.llm.enqueue(warmUpReply, warmUpReply);

    const first = await node.start();
    node.clock.advance(RECENT_WARM_UP_MS - 1);
    const stillRecent = await node.start();
    node.clock.advance(1);
    const stale = await node.start();

    expect([first, stillRecent, stale]).toEqual(['warmed', 'recently_warmed', 'warmed']);
    expect(harness.llm.requests).toHaveLength(2);
  });

  it('does what the node asks without a memory of warm-ups', async () => {
    const dependencies = harness.dependencies({ warmUpTimeoutMs: 5_000 });

    const started = await startConversation(dependencies, {
      node: NODE,
      conversationId: 'no-memory',
      requestTimezone: null,
      commands: fixtureRegistration(),
      skipWarmUp: true,
    });

    expect(started.warmUp).toBe('skipped');
    expect(harness.llm.requests).toHaveLength(0);
  });

  it('keeps the warm-ups of at most 256 command sets, the oldest going first', () => {
    const memory = new InMemoryWarmUps();
    for (let index = 0; index <= 256; index += 1) memory.remember(`hash-${index}`, index);

    expect(memory.lastWarmedAt('hash-0')).toBeNull();
    expect(memory.lastWarmedAt('hash-1')).toBe(1);
    expect(memory.lastWarmedAt('hash-256')).toBe(256);
  });
});
