import { describe, expect, it } from 'vitest';
import {
  ModelFailedError,
  RequestAnswerNotKeptError,
  RequestIdReusedError,
  RequestInProgressError,
} from '../../../shared/conversation/errors';
import { requestIdentity } from '../../../shared/conversation/idempotency/request-identity';
import { continueConversation } from '../../../shared/conversation/use-cases/continue-conversation';
import { handleVoiceCommand } from '../../../shared/conversation/use-cases/handle-voice-command';
import { startConversation } from '../../../shared/conversation/use-cases/start-conversation';
import { completeOutcome } from '../../support/complete-outcome';
import { fixtureRegistration } from '../../support/engine-fixtures';
import { homeAgents } from '../../support/home-fixture';
import { NODE, useConversationHarness } from './conversation-harness';

const harness = useConversationHarness();
const timerCall = {
  reply: {
    tool_calls: [{ id: 'call_timer', name: 'set_timer', arguments: '{"duration_seconds": 60}' }],
  },
};
const modelCalls = () =>
  harness.llm.requests.filter((request) => request.path.endsWith('/chat/completions')).length;

/** A model reply the test releases: the request that waits for it surely overlaps the next. */
function heldReply(): {
  step: typeof timerCall & { heldUntil: Promise<void> };
  release: () => void;
} {
  const released: (() => void)[] = [];
  const heldUntil = new Promise<void>((resolve) => released.push(resolve));
  return { step: { ...timerCall, heldUntil }, release: () => released[0]?.() };
}

async function waitUntil(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 5));
}

describe('a request id makes a voice request idempotent', () => {
  it('a repeated voice/command gets the recorded outcome without a model call or a new turn', async () => {
    // Prepare
    const conversationId = await harness.start();
    const dependencies = harness.dependencies();
    const request = { node: NODE, conversationId, utterance: 'timer', requestId: 'req-1' };
    harness.llm.enqueue(timerCall);
    const first = await handleVoiceCommand(dependencies, request);
    const stored = await dependencies.store.load(NODE.nodeId, conversationId);

    // Act
    const repeat = await handleVoiceCommand(dependencies, request);

    // Assess
    expect(first.replayed).toBe(false);
    expect(repeat).toEqual({ ...first, replayed: true });
    expect(modelCalls()).toBe(1);
    expect(await dependencies.store.load(NODE.nodeId, conversationId)).toEqual(stored);
  });

  it('a repeated continue replays its answer although its calls are no longer pending', async () => {
    const conversationId = await harness.start();
    const dependencies = harness.dependencies();
    harness.llm.enqueue(timerCall, { reply: { content: 'Timer set.' } });
    await handleVoiceCommand(dependencies, { node: NODE, conversationId, utterance: 'timer' });
    const request = {
      node: NODE,
      conversationId,
      toolResults: [{ toolCallId: 'call_timer', output: { ok: true } }],
      requestId: 'req-2',
    };
    const first = await continueConversation(dependencies, request);

    const repeat = await continueConversation(dependencies, request);

    expect(first.stopReason).toBe('complete');
    expect(repeat).toEqual({ ...first, replayed: true });
    expect(modelCalls()).toBe(2);
  });

  it('the same id with another body is refused and changes nothing', async () => {
    const conversationId = await harness.start();
    const dependencies = harness.dependencies();
    harness.llm.enqueue(timerCall);
    await handleVoiceCommand(dependencies, {
      node: NODE,
      conversationId,
      utterance: 'timer',
      requestId: 'req-3',
    });
    const before = await dependencies.store.load(NODE.nodeId, conversationId);

    const reused = handleVoiceCommand(dependencies, {
      node: NODE,
      conversationId,
      utterance: 'lights off',
      requestId: 'req-3',
    });

    await expect(reused).rejects.toBeInstanceOf(RequestIdReusedError);
    expect(await dependencies.store.load(NODE.nodeId, conversationId)).toEqual(before);
    expect(modelCalls()).toBe(1);
  });

  it('a repeat that arrives while the first still runs is told to retry, and never calls the model', async () => {
    // Prepare: the model answers when the test says, so the repeat overlaps the first request.
    const conversationId = await harness.start();
    const dependencies = harness.dependencies();
    const request = { node: NODE, conversationId, utterance: 'timer', requestId: 'req-4' };
    const held = heldReply();
    harness.llm.enqueue(held.step);
    const first = handleVoiceCommand(dependencies, request);
    await waitUntil(() => modelCalls() === 1);

    // Act
    const overlapping = handleVoiceCommand(dependencies, request);

    // Assess
    await expect(overlapping).rejects.toBeInstanceOf(RequestInProgressError);
    held.release();
    const answered = await first;
    expect(await handleVoiceCommand(dependencies, request)).toEqual({
      ...answered,
      replayed: true,
    });
    expect(modelCalls()).toBe(1);
  });

  it('a request that failed leaves nothing behind: its retry with the same id runs the turn', async () => {
    const conversationId = await harness.start();
    const dependencies = harness.dependencies();
    const request = { node: NODE, conversationId, utterance: 'timer', requestId: 'req-5' };
    const before = await dependencies.store.load(NODE.nodeId, conversationId);
    harness.llm.enqueue(...Array.from({ length: 8 }, () => ({ status: 500 })));

    await expect(handleVoiceCommand(dependencies, request)).rejects.toBeInstanceOf(
      ModelFailedError,
    );
    expect(await dependencies.store.load(NODE.nodeId, conversationId)).toEqual(before);

    harness.llm.reset();
    harness.llm.enqueue(timerCall);
    const retried = await handleVoiceCommand(dependencies, request);
    expect(retried).toMatchObject({ stopReason: 'tool_calls', replayed: false });
  });

  it('ids are scoped to their conversation: the same id elsewhere is a new request', async () => {
    const [one, two] = [await harness.start(), await harness.start()];
    const dependencies = harness.dependencies();
    harness.llm.enqueue(timerCall, timerCall);

    const answers = [
      await handleVoiceCommand(dependencies, {
        node: NODE,
        conversationId: one,
        utterance: 'timer',
        requestId: 'same',
      }),
      await handleVoiceCommand(dependencies, {
        node: NODE,
        conversationId: two,
        utterance: 'timer',
        requestId: 'same',
      }),
    ];

    expect(answers.map((answer) => answer.replayed)).toEqual([false, false]);
    expect(modelCalls()).toBe(2);
  });

  it('a conversation started again under the same id answers an old request id anew', async () => {
    // Prepare: the sample events of infra/sam do this, with a fixed request_id.
    const conversationId = await harness.start();
    const dependencies = harness.dependencies();
    const request = { node: NODE, conversationId, utterance: 'timer', requestId: 'req-6' };
    harness.llm.enqueue(timerCall, timerCall);
    await handleVoiceCommand(dependencies, request);
    await harness.start(conversationId);

    // Act
    const again = await handleVoiceCommand(dependencies, request);

    // Assess
    expect(again).toMatchObject({ stopReason: 'tool_calls', replayed: false });
    expect(modelCalls()).toBe(2);
  });

  it('another body with the id of a request still running is told to retry, then refused once recorded', async () => {
    // Prepare: while it runs, the claim may belong to a conversation since replaced, so "retry".
    const conversationId = await harness.start();
    const dependencies = harness.dependencies();
    const request = { node: NODE, conversationId, utterance: 'timer', requestId: 'req-7' };
    const held = heldReply();
    harness.llm.enqueue(held.step);
    const first = handleVoiceCommand(dependencies, request);
    await waitUntil(() => modelCalls() === 1);
    const other = { ...request, utterance: 'lights off' };

    // Act
    const whileRunning = handleVoiceCommand(dependencies, other);
    await expect(whileRunning).rejects.toBeInstanceOf(RequestInProgressError);
    held.release();
    await first;
    const afterwards = handleVoiceCommand(dependencies, other);

    // Assess
    await expect(afterwards).rejects.toBeInstanceOf(RequestIdReusedError);
    expect(modelCalls()).toBe(1);
  });

  it('a resent continue with its results in another order replays the answer', async () => {
    const conversationId = await harness.start();
    const dependencies = harness.dependencies();
    harness.llm.enqueue(
      {
        reply: {
          tool_calls: [
            { id: 'call_a', name: 'set_timer', arguments: '{"duration_seconds": 60}' },
            { id: 'call_b', name: 'set_timer', arguments: '{"duration_seconds": 120}' },
          ],
        },
      },
      { reply: { content: 'Both set.' } },
    );
    await handleVoiceCommand(dependencies, { node: NODE, conversationId, utterance: 'two timers' });
    const results = [
      { toolCallId: 'call_a', output: { ok: true } },
      { toolCallId: 'call_b', output: { ok: true } },
    ];
    const base = { node: NODE, conversationId, requestId: 'req-8' };
    const first = await continueConversation(dependencies, { ...base, toolResults: results });

    const resent = await continueConversation(dependencies, {
      ...base,
      toolResults: [...results].reverse(),
    });

    expect(resent).toEqual({ ...first, replayed: true });
    expect(modelCalls()).toBe(2);
  });
});

describe('an answer recorded before answers were read for the node', () => {
  it('is replayed without the entity ids the node did not list', async () => {
    // Prepare: a conversation with the fixture's home, and an answer recorded as an older server
    // recorded it (the model's words as they came) under the node's request id.
    const conversationId = `recorded-unread-${Math.random().toString(36).slice(2)}`;
    const dependencies = harness.dependencies();
    await startConversation(dependencies, {
      node: NODE,
      conversationId,
      requestTimezone: null,
      commands: fixtureRegistration(),
      agents: homeAgents(),
    });
    const record = await dependencies.store.load(NODE.nodeId, conversationId);
    if (record === null) throw new Error('the conversation was not stored');
    const identity = requestIdentity('req-old', 'voice_command', 'open the garage');
    if (identity === null) throw new Error('a request id has an identity');
    const outcome = completeOutcome('I opened lock.garage_door and lock.front_door.');
    await dependencies.store.save(
      {
        ...record,
        version: record.version + 1,
        recentResponses: [
          { ...identity, outcome: JSON.stringify(outcome), recordedAt: 0, conversationVersion: 1 },
        ],
      },
      record.version,
    );

    // Act
    const replayed = await handleVoiceCommand(dependencies, {
      node: NODE,
      conversationId,
      utterance: 'open the garage',
      requestId: 'req-old',
    });

    // Assess
    expect(replayed.replayed).toBe(true);
    expect(replayed.assistantMessage).toBe(
      'I opened [an entity the node did not list] and lock.front_door.',
    );
    expect(modelCalls()).toBe(0);
  });
});

describe('a request id whose answer a larger one pushed out', () => {
  it('is never answered by a second model call', async () => {
    // Prepare: a small answer under req-1, then a long spoken one (40 KB, within the 64 KiB a
    // reply's text may take) under req-2: together over what a conversation keeps of answers.
    const conversationId = await harness.start();
    const dependencies = harness.dependencies();
    const first = { node: NODE, conversationId, utterance: 'timer', requestId: 'req-1' };
    harness.llm.enqueue(timerCall, { reply: { content: 'word '.repeat(8_000) } });
    await handleVoiceCommand(dependencies, first);
    const long = await handleVoiceCommand(dependencies, {
      ...first,
      utterance: 'tell me everything',
      requestId: 'req-2',
    });
    expect(long.assistantMessage?.length).toBeGreaterThan(39_000);

    // Act
    const resent = await handleVoiceCommand(dependencies, first).catch((error: unknown) => error);

    // Assess: a refusal saying the answer is not kept; never the model again.
    expect(resent).toBeInstanceOf(RequestAnswerNotKeptError);
    expect(modelCalls()).toBe(2);
  });
});
