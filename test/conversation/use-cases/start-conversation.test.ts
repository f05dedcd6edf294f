import { describe, expect, it } from 'vitest';
import { CommandSetInvalidError } from '../../../shared/conversation/errors';
import {
  effectiveTimezone,
  startConversation,
} from '../../../shared/conversation/use-cases/start-conversation';
import { fixtureRegistration } from '../../support/engine-fixtures';
import { NODE, useConversationHarness } from './conversation-harness';

const harness = useConversationHarness();

describe('startConversation', () => {
  it.each(['resolve_relative_date', 'get_command_utterance_examples', 'request_validation'])(
    'a client tool named %s is refused with every problem listed, and nothing is stored',
    async (name) => {
      const dependencies = harness.dependencies();
      const commands = {
        available_commands: [{ command_name: name, parameters: [{ name: 'x', type: 'wibble' }] }],
      };
      const started = startConversation(dependencies, {
        node: NODE,
        conversationId: `c-${name}`,
        requestTimezone: null,
        commands,
      });
      await expect(started).rejects.toBeInstanceOf(CommandSetInvalidError);
      const error = (await started.catch((caught: unknown) => caught)) as CommandSetInvalidError;
      expect(error.issues.map((issue) => issue.code).sort()).toEqual([
        'reserved_name',
        'unknown_type',
      ]);
      expect(await dependencies.store.load(NODE.nodeId, `c-${name}`)).toBeNull();
    },
  );

  it('starting again with the same id replaces the conversation', async () => {
    const dependencies = harness.dependencies();
    const conversationId = await harness.start();
    const before = await dependencies.store.load(NODE.nodeId, conversationId);
    await startConversation(dependencies, {
      node: NODE,
      conversationId,
      requestTimezone: null,
      commands: { available_commands: fixtureRegistration().available_commands?.slice(0, 2) ?? [] },
    });
    const after = await dependencies.store.load(NODE.nodeId, conversationId);
    expect(after?.commandSetHash).not.toBe(before?.commandSetHash);
    expect(after?.messages).toEqual([]);
  });

  it.each([
    ['Europe/Berlin', 'Asia/Kolkata', 'Europe/Berlin'],
    [null, 'Asia/Kolkata', 'Asia/Kolkata'],
    [null, 'Mars/Olympus_Mons', 'UTC'],
    [null, null, 'UTC'],
    ['Not/AZone', 'Pacific/Auckland', 'Pacific/Auckland'],
  ])(
    'the registry zone %s wins over the request zone %s: %s',
    (registered, requested, expected) => {
      expect(effectiveTimezone(registered, requested)).toBe(expected);
    },
  );
});
