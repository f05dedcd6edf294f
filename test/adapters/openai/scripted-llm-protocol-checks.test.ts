import { describe, expect, it } from 'vitest';
import { useScriptedLlmServer } from '../../support/use-scripted-llm-server';
import {
  assistantCalling,
  bodyWith,
  callOf,
  post as postTo,
  toolAnswer,
  user,
  weatherTool,
} from './scripted-llm-requests';

const server = useScriptedLlmServer();
const post = (body: unknown, path?: string) => postTo(server, body, path);

describe('scripted LLM server protocol checks', () => {
  it.each<[string, Record<string, unknown>, string]>([
    ['a missing model', { model: undefined }, 'missing_model'],
    ['an empty history', { messages: [] }, 'invalid_messages'],
    ['an unknown role', { messages: [{ role: 'robot', content: 'x' }] }, 'invalid_role'],
    [
      'tool calls followed by a user message',
      { messages: [user, assistantCalling('call_1'), user] },
      'tool_calls_unanswered',
    ],
    [
      'one of two calls unanswered',
      { messages: [user, assistantCalling('call_1', 'call_2'), toolAnswer('call_1')] },
      'tool_calls_unanswered',
    ],
    [
      'tool calls ending the history',
      { messages: [user, assistantCalling('call_1')] },
      'tool_calls_unanswered',
    ],
    [
      'a result for an unknown call',
      { messages: [user, assistantCalling('call_1'), toolAnswer('call_1'), toolAnswer('call_9')] },
      'tool_result_without_call',
    ],
    [
      'a call answered twice',
      { messages: [user, assistantCalling('call_1'), toolAnswer('call_1'), toolAnswer('call_1')] },
      'tool_result_without_call',
    ],
    [
      'a tool result before any call',
      { messages: [user, toolAnswer('call_1')] },
      'tool_result_without_call',
    ],
    [
      'a result after another message',
      { messages: [user, assistantCalling('call_1'), user, toolAnswer('call_1')] },
      'tool_result_without_call',
    ],
    [
      'duplicate ids in one message',
      {
        messages: [
          user,
          assistantCalling('call_1', 'call_1'),
          toolAnswer('call_1'),
          toolAnswer('call_1'),
        ],
      },
      'duplicate_tool_call_id',
    ],
    [
      'an id reused by a later call',
      {
        messages: [
          user,
          assistantCalling('call_1'),
          toolAnswer('call_1'),
          assistantCalling('call_1'),
          toolAnswer('call_1'),
        ],
      },
      'duplicate_tool_call_id',
    ],
    [
      'arguments as an object in the history',
      {
        messages: [
          user,
          { role: 'assistant', content: null, tool_calls: [callOf('call_1', { city: 'LA' })] },
          toolAnswer('call_1'),
        ],
      },
      'invalid_tool_call',
    ],
    [
      'a tool call without an id',
      { messages: [user, { role: 'assistant', content: null, tool_calls: [callOf('')] }] },
      'invalid_tool_call',
    ],
    [
      'an empty tool_calls list',
      { messages: [user, { role: 'assistant', content: null, tool_calls: [] }] },
      'invalid_tool_call',
    ],
    [
      'a tool result as an object',
      { messages: [user, assistantCalling('call_1'), toolAnswer('call_1', { temperature: 20 })] },
      'invalid_content',
    ],
    [
      'a null assistant content without tool calls',
      { messages: [user, { role: 'assistant', content: null }, user] },
      'invalid_content',
    ],
    [
      'a tool name with a space',
      { tools: [{ ...weatherTool, function: { name: 'get weather' } }] },
      'invalid_tool_name',
    ],
    [
      'a tool name of 65 characters',
      { tools: [{ ...weatherTool, function: { name: 'a'.repeat(65) } }] },
      'invalid_tool_name',
    ],
    ['an empty tools list', { tools: [] }, 'empty_tools'],
    [
      'tool_choice required without tools',
      { tools: undefined, tool_choice: 'required' },
      'tool_choice_without_tools',
    ],
    [
      'tool_choice auto without tools',
      { tools: undefined, tool_choice: 'auto' },
      'tool_choice_without_tools',
    ],
    [
      'tool_choice naming an undeclared tool',
      { tool_choice: { type: 'function', function: { name: 'get_time' } } },
      'invalid_tool_choice',
    ],
    ['a streaming request', { stream: true }, 'stream_unsupported'],
  ])('refuses %s with a 400 and records it', async (_case, fields, rule) => {
    // Prepare
    server.enqueue({ reply: { content: 'should not be used' } });

    // Act
    const response = await post(bodyWith(fields));

    // Assess
    expect(response.status).toBe(400);
    const rules = server.protocolViolations.map((violation) => violation.rule);
    expect(rules).toContain(rule);
    expect(response.json.error).toMatchObject({ type: 'invalid_request_error', code: rules[0] });
  });

  it('refuses a body that is not JSON', async () => {
    // Act
    const response = await post('{"model": "m", "messages": [');

    // Assess
    expect(response.status).toBe(400);
    expect(server.protocolViolations.map((violation) => violation.rule)).toEqual(['invalid_json']);
  });

  it('consumes no script step for a refused request', async () => {
    // Prepare
    server.enqueue({ reply: { content: 'for the valid one' } });
    await post(bodyWith({ model: '' }));

    // Act
    const response = await post(bodyWith({}));

    // Assess
    expect(response.status).toBe(200);
    expect(response.json.choices?.[0]?.message.content).toBe('for the valid one');
  });

  it.each<[string, Record<string, unknown>]>([
    ['a full tool round trip', {}],
    [
      'two calls answered in any order',
      {
        messages: [
          user,
          assistantCalling('call_1', 'call_2'),
          toolAnswer('call_2'),
          toolAnswer('call_1'),
        ],
      },
    ],
    ['no tools and no tool_choice', { tools: undefined, tool_choice: undefined, messages: [user] }],
    ['tool_choice required', { tool_choice: 'required' }],
    [
      'tool_choice naming a declared tool',
      { tool_choice: { type: 'function', function: { name: 'get_weather' } } },
    ],
  ])('accepts %s', async (_case, fields) => {
    // Prepare
    server.enqueue({ reply: { content: 'ok' } });

    // Act
    const response = await post(bodyWith(fields));

    // Assess
    expect(response.status).toBe(200);
    expect(server.protocolViolations).toEqual([]);
  });
});
