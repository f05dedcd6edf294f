import { readFileSync } from 'node:fs';
import {
  type CommandSetSource,
  type CompiledCommandSet,
  type CompileOptions,
  compileCommandSet,
} from '../../../shared/params';

export interface FixtureBody {
  readonly available_commands: Record<string, unknown>[];
  readonly client_tools: Record<string, unknown>[];
}

/** A fresh copy of the real node's conversation/start body, free to change. */
export function loadFixture(): FixtureBody {
  const url = new URL('../../fixtures/voice-node-conversation-start.json', import.meta.url);
  return JSON.parse(readFileSync(url, 'utf8')) as FixtureBody;
}

/** Compiles or fails the test with the issues. */
export function compileOrThrow(
  source: CommandSetSource,
  options?: CompileOptions,
): CompiledCommandSet {
  const compiled = compileCommandSet(source, options);
  if (!compiled.ok)
    throw new Error(`unexpected issues: ${JSON.stringify(compiled.issues, null, 2)}`);
  return compiled.value;
}

/** An `available_commands` entry with the given typed parameters. */
export function typedCommand(
  name: string,
  parameters: readonly Record<string, unknown>[],
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return { command_name: name, description: `${name} description`, parameters, ...extra };
}

/** A `client_tools` entry in the OpenAI tool format. */
export function clientTool(
  name: string,
  parameters: Record<string, unknown>,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    type: 'function',
    function: { name, description: `${name} client description`, parameters },
    ...extra,
  };
}

/** A set with one typed command `probe` whose parameters are given as name -> type (optional). */
export function probeSet(
  parameters: readonly Record<string, unknown>[],
  extra: Record<string, unknown> = {},
): CompiledCommandSet {
  return compileOrThrow({ available_commands: [typedCommand('probe', parameters, extra)] });
}
