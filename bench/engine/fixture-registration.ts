import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { SERVER_TOOL_NAMES } from '../../shared/conversation/server-tools/server-tool-names';
import {
  type CommandSetSource,
  type CompiledCommandSet,
  compileCommandSet,
} from '../../shared/params';

/** The registration a real voice node sends at conversation/start (16 commands). */
export function fixtureRegistration(): CommandSetSource {
  const path = fileURLToPath(
    new URL('../../test/fixtures/voice-node-conversation-start.json', import.meta.url),
  );
  const parsed = JSON.parse(readFileSync(path, 'utf8')) as CommandSetSource;
  return {
    available_commands: parsed.available_commands ?? [],
    client_tools: parsed.client_tools ?? [],
  };
}

/** Compiles a registration as the engine does (server tool names reserved); throws if it cannot. */
export function compileForEngine(source: CommandSetSource): CompiledCommandSet {
  const result = compileCommandSet(source, { reservedNames: SERVER_TOOL_NAMES });
  if (!result.ok)
    throw new Error(`the registration does not compile: ${JSON.stringify(result.issues)}`);
  return result.value;
}
