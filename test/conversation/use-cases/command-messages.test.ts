import { describe, expect, it } from 'vitest';
import { continueConversation } from '../../../shared/conversation/use-cases/continue-conversation';
import { handleVoiceCommand } from '../../../shared/conversation/use-cases/handle-voice-command';
import {
  commandMessagesScenario,
  lightsCall,
  timerCall,
  timerSet,
} from './command-messages-fixtures';
import { NODE, useConversationHarness } from './conversation-harness';

const harness = useConversationHarness();

const lightsOn = {
  success: true,
  message: 'Turn On kitchen lights',
  context: { device: 'kitchen lights', action: 'turn_on' },
  error: null,
};
const { modelRequests, pending } = commandMessagesScenario(harness);

describe("a continue the node's commands already answered", () => {
  it('ends with their message, recorded as the answer, without asking the model', async () => {
    // Prepare
    const { conversationId, dependencies } = await pending([timerCall]);
    const before = await dependencies.store.load(NODE.nodeId, conversationId);

    // Act
    const answer = await continueConversation(dependencies, {
      node: NODE,
      conversationId,
      toolResults: [{ toolCallId: 'call_timer', output: timerSet }],
    });

    // Assess
    expect(answer).toMatchObject({
      stopReason: 'complete',
      assistantMessage: 'Timer set for 10 minutes.',
      modelCalls: 0,
      answeredByCommands: true,
      usage: null,
      utterance: 'set it up',
      replayed: false,
    });
    expect(modelRequests()).toHaveLength(1);
    const after = await dependencies.store.load(NODE.nodeId, conversationId);
    expect(after?.pendingToolCalls).toEqual([]);
    expect(after?.messages).toEqual([
      ...(before?.messages ?? []),
      { role: 'tool', toolCallId: 'call_timer', content: JSON.stringify(timerSet) },
      { role: 'assistant', content: 'Timer set for 10 minutes.', toolCalls: [] },
    ]);
  });

  it('joins the messages of several calls in the order the calls were made', async () => {
    const { conversationId, dependencies } = await pending([timerCall, lightsCall]);

    const answer = await continueConversation(dependencies, {
      node: NODE,
      conversationId,
      toolResults: [
        { toolCallId: 'call_lights', output: lightsOn },
        { toolCallId: 'call_timer', output: timerSet },
      ],
    });

    expect(answer.assistantMessage).toBe('Timer set for 10 minutes. Turn On kitchen lights.');
    expect(modelRequests()).toHaveLength(1);
  });

  it('the next utterance reads it as the reply it was, after the prefix the model saw before', async () => {
    // Prepare
    const { conversationId, dependencies } = await pending([timerCall]);
    await continueConversation(dependencies, {
      node: NODE,
      conversationId,
      toolResults: [{ toolCallId: 'call_timer', output: timerSet }],
    });
    harness.llm.enqueue({ reply: { content: 'It has ten minutes left.' } });

    // Act
    const next = await handleVoiceCommand(dependencies, {
      node: NODE,
      conversationId,
      utterance: 'how long is left',
    });

    // Assess
    expect(next.assistantMessage).toBe('It has ten minutes left.');
    const [first, second] = modelRequests().map((request) => request.body?.messages ?? []);
    expect(second?.slice(0, first?.length)).toEqual(first);
    expect(second?.slice(first?.length ?? 0, -1)).toEqual([
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          {
            id: 'call_timer',
            type: 'function',
            function: { name: 'set_timer', arguments: '{"duration_seconds":600}' },
          },
        ],
      },
      { role: 'tool', tool_call_id: 'call_timer', content: JSON.stringify(timerSet) },
      { role: 'assistant', content: 'Timer set for 10 minutes.' },
    ]);
    expect(harness.llm.protocolViolations).toEqual([]);
  });

  it('a repeated continue with a request id replays the answer, with no model call', async () => {
    const { conversationId, dependencies } = await pending([timerCall]);
    const request = {
      node: NODE,
      conversationId,
      requestId: 'node-req-1',
      toolResults: [{ toolCallId: 'call_timer', output: timerSet }],
    };
    const first = await continueConversation(dependencies, request);

    const repeat = await continueConversation(dependencies, request);

    expect(repeat).toEqual({ ...first, replayed: true });
    expect(modelRequests()).toHaveLength(1);
  });
});
