import { describe, expect, it } from 'vitest';
import {
  ConversationNotFoundError,
  ModelFailedError,
  NothingPendingError,
  ToolResultsMismatchError,
  TurnTimeoutError,
} from '../../../shared/conversation/errors';
import { continueConversation } from '../../../shared/conversation/use-cases/continue-conversation';
import { handleVoiceCommand } from '../../../shared/conversation/use-cases/handle-voice-command';
import { ConversationConflictError } from '../../../shared/ports/conversation-store';
import { NODE, useConversationHarness } from './conversation-harness';

const harness = useConversationHarness();
const okReply = { reply: { content: 'Done.' } };

/** After any failure the conversation is exactly as before, and the next valid request works. */
async function expectUnchangedAndUsable(
  conversationId: string,
  failing: () => Promise<unknown>,
  error: unknown,
) {
  const dependencies = harness.dependencies();
  const before = await dependencies.store.load(NODE.nodeId, conversationId);
  await expect(failing()).rejects.toBeInstanceOf(error);
  expect(await dependencies.store.load(NODE.nodeId, conversationId)).toEqual(before);
  harness.llm.reset();
  harness.llm.enqueue(okReply);
  const next = await handleVoiceCommand(dependencies, {
    node: NODE,
    conversationId,
    utterance: 'hello',
  });
  expect(next.stopReason).toBe('complete');
}

describe('failures change nothing', () => {
  it.each([
    {
      name: '500 on every attempt',
      step: { status: 500, body: { error: { message: 'boom' } } },
      error: ModelFailedError,
    },
    { name: '503 on every attempt', step: { status: 503 }, error: ModelFailedError },
    {
      name: '429 on every attempt',
      step: { status: 429, headers: { 'retry-after-ms': '5' } },
      error: ModelFailedError,
    },
    { name: '200 with no choices', step: { rawBody: '{"choices": []}' }, error: ModelFailedError },
    { name: 'a body that is not JSON', step: { rawBody: 'surprise' }, error: ModelFailedError },
    {
      name: 'a reply cut off mid-JSON',
      step: { rawBody: '{"id": "x", "choices": [{"mess' },
      error: ModelFailedError,
    },
  ])(
    'the model fails ($name): a typed error, the conversation unchanged',
    async ({ step, error }) => {
      const conversationId = await harness.start();
      harness.llm.enqueue(...Array.from({ length: 8 }, () => step));
      await expectUnchangedAndUsable(
        conversationId,
        () =>
          handleVoiceCommand(harness.dependencies(), {
            node: NODE,
            conversationId,
            utterance: 'hi',
          }),
        error,
      );
    },
  );

  it('a model that hangs past the deadline: TurnTimeoutError, the conversation unchanged', async () => {
    const conversationId = await harness.start();
    harness.llm.enqueue({ hangMs: 600_000 });
    await expectUnchangedAndUsable(
      conversationId,
      () =>
        handleVoiceCommand(harness.dependencies({ turnDeadlineMs: 300 }), {
          node: NODE,
          conversationId,
          utterance: 'hi',
        }),
      TurnTimeoutError,
    );
  });

  it('continue with an unknown id, a missing one, or nothing pending: typed errors, nothing changed', async () => {
    const conversationId = await harness.start();
    const dependencies = harness.dependencies();
    const resume = (toolResults: { toolCallId: string; output: unknown }[]) => () =>
      continueConversation(dependencies, { node: NODE, conversationId, toolResults });
    await expectUnchangedAndUsable(
      conversationId,
      resume([{ toolCallId: 'x', output: 1 }]),
      NothingPendingError,
    );

    harness.llm.enqueue({
      reply: {
        tool_calls: [
          { id: 'call_a', name: 'set_timer', arguments: '{"duration_seconds": 60}' },
          { id: 'call_b', name: 'set_timer', arguments: '{"duration_seconds": 120}' },
        ],
      },
    });
    await handleVoiceCommand(dependencies, { node: NODE, conversationId, utterance: 'two timers' });
    const before = await dependencies.store.load(NODE.nodeId, conversationId);
    for (const results of [
      [{ toolCallId: 'call_a', output: 'ok' }],
      [
        { toolCallId: 'call_a', output: 'ok' },
        { toolCallId: 'call_zzz', output: 'ok' },
      ],
      [
        { toolCallId: 'call_a', output: 'ok' },
        { toolCallId: 'call_a', output: 'ok' },
      ],
    ]) {
      await expect(resume(results)()).rejects.toBeInstanceOf(ToolResultsMismatchError);
    }
    expect(await dependencies.store.load(NODE.nodeId, conversationId)).toEqual(before);
    harness.llm.enqueue(okReply);
    const done = await resume([
      { toolCallId: 'call_b', output: 'ok' },
      { toolCallId: 'call_a', output: 'ok' },
    ])();
    expect(done.stopReason).toBe('complete');
    expect(harness.llm.protocolViolations).toEqual([]);
  });

  it("another node's conversation is not found, exactly like an unknown id", async () => {
    const conversationId = await harness.start();
    const stranger = { nodeId: 'garage', timezone: null, room: null };
    for (const [node, id] of [
      [stranger, conversationId],
      [NODE, 'no-such-conversation'],
    ] as const) {
      await expect(
        handleVoiceCommand(harness.dependencies(), { node, conversationId: id, utterance: 'hi' }),
      ).rejects.toBeInstanceOf(ConversationNotFoundError);
    }
    expect(harness.llm.requests).toEqual([]);
  });

  it('two turns racing on one version: one wins, the other gets the typed conflict', async () => {
    const conversationId = await harness.start();
    harness.llm.enqueue(okReply, okReply);
    const real = harness.dependencies();
    // Both requests must read the same version: each load waits until the other has loaded too.
    let release: () => void = () => undefined;
    const bothLoaded = new Promise<void>((resolve) => {
      let loads = 0;
      release = () => {
        loads += 1;
        if (loads === 2) resolve();
      };
    });
    const store = {
      ...real.store,
      save: real.store.save.bind(real.store),
      replace: real.store.replace.bind(real.store),
      load: async (nodeId: string, id: string) => {
        const record = await real.store.load(nodeId, id);
        release();
        await bothLoaded;
        return record;
      },
    };
    const dependencies = { ...real, store };
    const results = await Promise.allSettled([
      handleVoiceCommand(dependencies, { node: NODE, conversationId, utterance: 'one' }),
      handleVoiceCommand(dependencies, { node: NODE, conversationId, utterance: 'two' }),
    ]);
    const rejected = results.filter((result) => result.status === 'rejected');
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
    expect(rejected).toHaveLength(1);
    expect((rejected[0] as PromiseRejectedResult).reason).toBeInstanceOf(ConversationConflictError);
    const stored = await dependencies.store.load(NODE.nodeId, conversationId);
    expect(stored?.messages.filter((message) => message.role === 'user')).toHaveLength(1);
  });
});
