import { beforeEach, describe, expect, it } from 'vitest';
import { ROUTES } from '../support/api-client';
import { useLocalStack } from '../support/local-stack-harness';
import { expectError } from './response-contract';
import {
  expectValidRequestWorks,
  PENDING_CALL_ID,
  pendingConversation,
  type RouteName,
} from './route-recovery';

const harness = useLocalStack();
let conversationId = '';
beforeEach(async () => {
  conversationId = await pendingConversation(harness.client(), harness.llm, 'bad-request');
});

describe.each([
  ['start', ROUTES.start, '{"conversation_id": "x",'],
  ['start', ROUTES.start, ''],
  ['command', ROUTES.command, 'not json at all'],
  ['command', ROUTES.command, '{"conversation_id": "x", "voice_command": "hi"}}'],
  ['continue', ROUTES.continue, "{'conversation_id': 'x'}"],
  ['continue', ROUTES.continue, '{"conversation_id": "x", "tool_results": [],}'],
] as const)('400 invalid_json: %s with the body %j', (route: RouteName, path, rawBody) => {
  it('is refused with a JSON error body; a valid request then works', async () => {
    // Act
    const response = await harness.client().post(path, null, { rawBody });

    // Assess
    expectError(response, 400, 'invalid_json');
    await expectValidRequestWorks(harness.client(), harness.llm, route, conversationId);
  });
});

describe.each([
  ['start', 'without conversation_id', { available_commands: [] }],
  ['start', 'a JSON array', []],
  ['start', 'JSON null', null],
  ['start', 'a conversation_id with a space', { conversation_id: 'has space' }],
  ['start', 'a conversation_id of 129 characters', { conversation_id: 'x'.repeat(129) }],
  [
    'start',
    'available_commands not a list',
    { conversation_id: 'c', available_commands: 'set_timer' },
  ],
  [
    'start',
    'a command without command_name',
    { conversation_id: 'c', available_commands: [{ description: 'd' }] },
  ],
  [
    'start',
    'a parameter without type',
    {
      conversation_id: 'bad-registration',
      available_commands: [
        { command_name: 'set_alarm', description: 'set_alarm', parameters: [{ name: 'when' }] },
      ],
      client_tools: [],
    },
  ],
  ['command', 'an empty voice_command', { conversation_id: 'c', voice_command: '' }],
  ['command', 'no voice_command', { conversation_id: 'c' }],
  [
    'command',
    'a voice_command of 2,001 characters',
    { conversation_id: 'c', voice_command: 'a'.repeat(2001) },
  ],
  ['continue', 'an empty tool_results', { conversation_id: 'c', tool_results: [] }],
  ['continue', 'no tool_results', { conversation_id: 'c' }],
  [
    'continue',
    'a result without tool_call_id',
    { conversation_id: 'c', tool_results: [{ output: 'x' }] },
  ],
] as const)('400 invalid_request: %s with %s', (route: RouteName, _case, body) => {
  it('names what is wrong in details; a valid request then works', async () => {
    // Act
    const response = await harness.client().post(ROUTES[route], body);

    // Assess
    const error = expectError(response, 400, 'invalid_request');
    expect(error.error.details).toContainEqual(
      expect.objectContaining({ path: expect.any(String) }),
    );
    await expectValidRequestWorks(harness.client(), harness.llm, route, conversationId);
  });
});

describe.each([
  [
    'an unknown id',
    [{ tool_call_id: 'call_unknown', output: 1 }],
    ['unknown_id', 'missing_result'],
  ],
  [
    'the pending id twice',
    [
      { tool_call_id: PENDING_CALL_ID, output: 1 },
      { tool_call_id: PENDING_CALL_ID, output: 2 },
    ],
    ['duplicate_result'],
  ],
  [
    'an extra result beside the pending one',
    [
      { tool_call_id: PENDING_CALL_ID, output: 1 },
      { tool_call_id: 'call_extra', output: 2 },
    ],
    ['unknown_id'],
  ],
] as const)('400 tool_results_mismatch: continue with %s', (_case, toolResults, problems) => {
  it('changes nothing: the pending call is still there and a valid continue works', async () => {
    // Act
    const response = await harness.client().post(ROUTES.continue, {
      conversation_id: conversationId,
      tool_results: toolResults,
    });

    // Assess
    const error = expectError(response, 400, 'tool_results_mismatch');
    const reported = error.error.details.map((detail) => (detail as { problem?: string }).problem);
    expect(reported.sort()).toEqual([...problems].sort());
    // Named as the wire names them (tool_results[].tool_call_id), never the core's camelCase.
    for (const detail of error.error.details) {
      expect(Object.keys(detail as object).sort()).toEqual(['problem', 'tool_call_id']);
      expect((detail as { tool_call_id: unknown }).tool_call_id).toMatch(/^call_/);
    }
    await expectValidRequestWorks(harness.client(), harness.llm, 'continue', conversationId);
  });
});
