import type { ToolDefinition } from '../../chat/chat-message';
import type { CompiledCommandSet } from '../../params';
import { ServerToolName } from './server-tool-names';

export const commandExamplesTool: ToolDefinition = {
  type: 'function',
  function: {
    name: ServerToolName.getCommandUtteranceExamples,
    description: 'More examples of commands, when unsure which fits or how to fill it.',
    parameters: {
      type: 'object',
      properties: {
        command_names: {
          type: 'array',
          items: { type: 'string' },
        },
      },
      required: ['command_names'],
    },
  },
};

/** The stored examples and antipatterns of the named commands; unknown names give empty lists. */
export function lookUpCommandExamples(commandSet: CompiledCommandSet, args: unknown): unknown {
  const names = readCommandNames(args);
  const commands: Record<string, unknown> = {};
  for (const name of names) {
    const spec = commandSet.commands.get(name);
    commands[name] = {
      examples: (spec?.examples ?? []).map((example) => ({
        voice_command: example.voiceCommand,
        expected_parameters: example.expectedParameters,
      })),
      antipatterns: (spec?.antipatterns ?? []).map((antipattern) => ({
        use_instead: antipattern.commandName,
        description: antipattern.description,
      })),
    };
  }
  return { commands };
}

function readCommandNames(args: unknown): string[] {
  if (typeof args !== 'object' || args === null) return [];
  const value = (args as Record<string, unknown>).command_names;
  const list = typeof value === 'string' ? [value] : Array.isArray(value) ? value : [];
  return list.filter((name): name is string => typeof name === 'string').slice(0, 50);
}
