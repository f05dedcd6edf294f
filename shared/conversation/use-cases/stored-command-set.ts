import { type CompiledCommandSet, compileKnownCommandSet } from '../../params';
import type { ConversationRecord } from '../../ports/conversation-store';
import { SERVER_TOOL_NAMES } from '../server-tools/server-tool-names';

/**
 * The command set a conversation stored, compiled as conversation/start compiled it (server tool
 * names reserved): a cache hit is one lookup by its stored hash. Null when it no longer compiles.
 */
export function storedCommandSet(
  record: Pick<ConversationRecord, 'commandSetHash' | 'commandSource'>,
): CompiledCommandSet | null {
  const compiled = compileKnownCommandSet(
    record.commandSetHash,
    () => JSON.parse(record.commandSource),
    { reservedNames: SERVER_TOOL_NAMES },
  );
  return compiled.ok ? compiled.value : null;
}
