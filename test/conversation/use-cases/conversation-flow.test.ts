import { describe, expect, it } from 'vitest';
import { continueConversation } from '../../../shared/conversation/use-cases/continue-conversation';
import { handleVoiceCommand } from '../../../shared/conversation/use-cases/handle-voice-command';
import { assertValidHistory } from '../../support/engine-fixtures';
import { NODE, useConversationHarness } from './conversation-harness';

const harness = useConversationHarness();
const TOMORROW_UTC = '2026-01-17T05:00:00Z';
const toolCall = (name: string, args: unknown, id?: string) => ({
  ...(id ? { id } : {}),
  name,
  arguments: JSON.stringify(args),
});

describe('a conversation through the real SDK, a scripted model and dynalite', () => {
  it('retries an invalid date, hands over the valid call, then completes after the node’s results', async () => {
    // Prepare
    const conversationId = await harness.start();
    const dependencies = harness.dependencies();
    harness.llm.enqueue(
      {
        reply: {
          tool_calls: [toolCall('get_weather', { resolved_datetimes: ['tomorrow'] }, 'call_bad')],
        },
      },
      {
        reply: {
          tool_calls: [
            toolCall('get_weather', { resolved_datetimes: [TOMORROW_UTC] }, 'call_good'),
          ],
        },
      },
      { reply: { content: 'Sunny and 75 tomorrow.' } },
    );

    // Act
    const first = await handleVoiceCommand(dependencies, {
      node: NODE,
      conversationId,
      utterance: "What's the weather tomorrow?",
    });
    const second = await continueConversation(dependencies, {
      node: NODE,
      conversationId,
      toolResults: [{ toolCallId: 'call_good', output: { forecast: 'sunny', high_f: 75 } }],
    });

    // Assess: what came out
    expect(first).toMatchObject({ stopReason: 'tool_calls', modelCalls: 2 });
    expect(first.toolCalls).toEqual([
      {
        id: 'call_good',
        name: 'get_weather',
        arguments: JSON.stringify({ resolved_datetimes: [TOMORROW_UTC] }),
      },
    ]);
    expect(second).toMatchObject({
      stopReason: 'complete',
      assistantMessage: 'Sunny and 75 tomorrow.',
    });

    // Assess: what the model received
    const bodies = harness.llm.requests.map((request) => request.body);
    expect(harness.llm.protocolViolations).toEqual([]);
    const systemPrompts = bodies.map((body) => body?.messages?.[0]);
    expect(new Set(systemPrompts.map((message) => JSON.stringify(message))).size).toBe(1);
    const toolNames = bodies[0]?.tools?.map((tool) => tool.function.name) ?? [];
    expect(toolNames).toContain('get_weather');
    expect(toolNames).toContain('resolve_relative_date');
    const retry = bodies[1]?.messages?.filter((message) => message.role === 'system').at(-1);
    expect(String(retry?.content)).toMatch(/resolve_relative_date/);
    const errorResult = bodies[1]?.messages?.find((message) => message.tool_call_id === 'call_bad');
    expect(String(errorResult?.content)).toMatch(/not executed/);
    const nodeResult = bodies[2]?.messages?.find((message) => message.tool_call_id === 'call_good');
    expect(JSON.parse(String(nodeResult?.content))).toEqual({ forecast: 'sunny', high_f: 75 });

    // Assess: what was stored
    const stored = await dependencies.store.load(NODE.nodeId, conversationId);
    expect(stored?.pendingToolCalls).toEqual([]);
    expect(stored?.version).toBe(3);
    assertValidHistory(stored?.messages ?? []);
  });

  it('a clarification round trip: validation_required, the user’s answer through continue, then the call', async () => {
    // Prepare
    const conversationId = await harness.start();
    const dependencies = harness.dependencies();
    const bad = {
      reply: { tool_calls: [toolCall('calculate', { num1: 2, num2: 3, operation: 'power' })] },
    };
    harness.llm.enqueue(bad, bad, bad, {
      reply: {
        tool_calls: [
          toolCall('calculate', { num1: 2, num2: 3, operation: 'multiply' }, 'call_calc'),
        ],
      },
    });

    // Act
    const asked = await handleVoiceCommand(dependencies, {
      node: NODE,
      conversationId,
      utterance: '2 to the 3',
    });
    const toolCallId = asked.validationRequest?.toolCallId ?? '';
    const answered = await continueConversation(dependencies, {
      node: NODE,
      conversationId,
      toolResults: [{ toolCallId, output: 'multiply' }],
    });

    // Assess
    expect(asked).toMatchObject({ stopReason: 'validation_required', modelCalls: 3 });
    expect(asked.validationRequest?.options).toEqual(['add', 'subtract', 'multiply', 'divide']);
    expect(toolCallId).not.toBe('');
    expect(answered).toMatchObject({ stopReason: 'tool_calls', modelCalls: 1 });
    const lastRequest = harness.llm.requests.at(-1)?.body?.messages ?? [];
    expect(lastRequest.find((message) => message.tool_call_id === toolCallId)?.content).toBe(
      'multiply',
    );
    expect(harness.llm.protocolViolations).toEqual([]);
  });

  it('a new utterance while calls are pending closes them with a "not executed" result', async () => {
    const conversationId = await harness.start();
    const dependencies = harness.dependencies();
    harness.llm.enqueue(
      { reply: { tool_calls: [toolCall('set_timer', { duration_seconds: 300 }, 'call_timer')] } },
      { reply: { content: 'Okay.' } },
    );
    await handleVoiceCommand(dependencies, {
      node: NODE,
      conversationId,
      utterance: 'timer 5 minutes',
    });
    const next = await handleVoiceCommand(dependencies, {
      node: NODE,
      conversationId,
      utterance: 'never mind',
    });
    expect(next.stopReason).toBe('complete');
    const messages = harness.llm.requests.at(-1)?.body?.messages ?? [];
    expect(
      String(messages.find((message) => message.tool_call_id === 'call_timer')?.content),
    ).toMatch(/not_executed/);
    expect(harness.llm.protocolViolations).toEqual([]);
  });

  it('the system prompt is byte-identical across turns and the turn context travels with the utterance', async () => {
    const conversationId = await harness.start();
    const dependencies = harness.dependencies();
    harness.llm.enqueue({ reply: { content: 'Hi.' } }, { reply: { content: 'Hi again.' } });
    await handleVoiceCommand(dependencies, { node: NODE, conversationId, utterance: 'hello' });
    await handleVoiceCommand(dependencies, {
      node: NODE,
      conversationId,
      utterance: 'hello again',
    });
    const [first, second] = harness.llm.requests.map((request) => request.body?.messages ?? []);
    expect(first?.[0]).toEqual(second?.[0]);
    expect(String(second?.at(-1)?.content)).toMatch(
      /Friday 2026-01-16 10:00 UTC-05:00, time zone America\/New_York, the user is in: "kitchen"\]\nhello again$/,
    );
  });
});
