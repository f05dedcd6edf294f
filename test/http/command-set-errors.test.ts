import { describe, expect, it } from 'vitest';
import { ROUTES } from '../support/api-client';
import { useLocalStack } from '../support/local-stack-harness';
import { conversationIdFor, fixtureStartBody } from './http-fixtures';
import { expectError, expectStarted } from './response-contract';

const harness = useLocalStack();

/** A conversation/start body with these commands and client tools, valid for the request schema. */
const startWith = (commands: unknown[], clientTools: unknown[] = []) => ({
  conversation_id: conversationIdFor('bad-registration'),
  available_commands: commands,
  client_tools: clientTools,
});
const command = (name: string, parameters: unknown[] = []) => ({
  command_name: name,
  description: name,
  parameters,
});
const clientTool = (name: string, parameters: unknown) => ({
  type: 'function',
  function: { name, parameters },
});

describe.each([
  [
    'an unknown type string',
    startWith([command('set_alarm', [{ name: 'when', type: 'datetimez' }])]),
    'unknown_type',
    'when',
  ],
  [
    'a nested array type',
    startWith([command('plot', [{ name: 'grid', type: 'array<array<int>>' }])]),
    'unknown_type',
    'grid',
  ],
  [
    'a client tool schema that does not compile',
    startWith([], [clientTool('lookup', { type: 'object', properties: { q: { type: 'nope' } } })]),
    'schema_does_not_compile',
    null,
  ],
  [
    'duplicate command names',
    startWith([command('set_alarm'), command('set_alarm')]),
    'duplicate_name',
    null,
  ],
  [
    'duplicate client tool names',
    startWith([], [clientTool('lookup', {}), clientTool('lookup', {})]),
    'duplicate_name',
    null,
  ],
  ['a tool name the LLM APIs refuse', startWith([command('set alarm')]), 'invalid_tool_name', null],
  [
    'the name of a server tool',
    startWith([command('resolve_relative_date')]),
    'reserved_name',
    null,
  ],
] as const)(
  '400 invalid_command_set: conversation/start with %s',
  (_case, body, issue, parameter) => {
    it('names the command and the problem; nothing is stored; a valid start then works', async () => {
      // Act
      const response = await harness.client().post(ROUTES.start, body);

      // Assess
      const error = expectError(response, 400, 'invalid_command_set');
      expect(error.error.details).toContainEqual(
        expect.objectContaining({ code: issue, command: expect.any(String) }),
      );
      if (parameter !== null)
        expect(error.error.details).toContainEqual(expect.objectContaining({ parameter }));
      const unstored = await harness.client().post(ROUTES.command, {
        conversation_id: body.conversation_id,
        voice_command: 'hello',
      });
      expectError(unstored, 404, 'conversation_not_found');
      const next = conversationIdFor('after-400');
      expectStarted(await harness.client().post(ROUTES.start, fixtureStartBody(next)), next);
    });
  },
);

describe('the registration the command-set cases break', () => {
  it('is accepted with a valid type, so each 400 above comes from the one broken field', async () => {
    // Prepare
    const body = startWith(
      [command('set_alarm', [{ name: 'when', type: 'datetime' }])],
      [clientTool('lookup', {})],
    );

    // Act
    const response = await harness.client().post(ROUTES.start, body);

    // Assess
    expectStarted(response, body.conversation_id);
  });
});
