/**
 * conversation/start:
 * 1. compile the registration (every problem reported at once; server tool names are reserved),
 *    and refuse one too large to store beside a useful history;
 * 2. choose the zone: the registry's, else the request's if it is a real IANA zone, else UTC;
 * 3. render the home the node's agents reported (devices, other agents' data) within what the
 *    registration leaves of the conversation's budget: cut, never refused;
 * 4. store a fresh conversation, replacing any earlier one with the same id for this node;
 * 5. warm the model's prefix cache with the conversation's prompt (unless the node asks not to):
 *    bounded by its own timeout, and whatever happens to it, the start has succeeded.
 */
import { type CommandSetSource, compileCommandSet } from '../../params';
import { ConversationTooLargeError } from '../../ports/conversation-store';
import { CommandSetInvalidError } from '../errors';
import { homeBudgetBytes, MAX_REGISTRATION_BYTES } from '../history/conversation-budget';
import { utf8Length } from '../history/utf8-length';
import { buildHomeContext } from '../home/build-home-context';
import { SERVER_TOOL_NAMES } from '../server-tools/server-tool-names';
import type { CallingNode, ConversationDependencies } from './conversation-dependencies';
import { effectiveTimezone } from './effective-timezone';
import { WarmUp, warmUpModel } from './warm-up-model';

export { effectiveTimezone };

export interface StartConversationRequest {
  readonly node: CallingNode;
  readonly conversationId: string;
  readonly requestTimezone: string | null;
  readonly commands: CommandSetSource;
  /** The node's `skip_warmup_inference` (servers without a prefix cache gain nothing from it). */
  readonly skipWarmUp?: boolean;
  /** The node's `node_context.agents`: what its background agents know (devices and more). */
  readonly agents?: unknown;
  /** The node's `node_context.speaker_user_id`: the speaker its voice recognition named. */
  readonly speakerUserId?: number | null;
}

export interface StartedConversation {
  readonly conversationId: string;
  readonly timezone: string;
  readonly commandCount: number;
  readonly warmUp: WarmUp;
}

export async function startConversation(
  dependencies: Pick<
    ConversationDependencies,
    'store' | 'clock' | 'settings' | 'model' | 'untrustedWork'
  >,
  request: StartConversationRequest,
): Promise<StartedConversation> {
  const source: CommandSetSource = {
    available_commands: request.commands.available_commands ?? [],
    client_tools: request.commands.client_tools ?? [],
  };
  // Compiled apart first, under a hard limit: what passes costs this thread no more than that.
  const checked = await dependencies.untrustedWork.compile(source);
  if (!checked.ok) throw new CommandSetInvalidError(checked.issues);
  const compiled = compileCommandSet(source, { reservedNames: SERVER_TOOL_NAMES });
  if (!compiled.ok) throw new CommandSetInvalidError(compiled.issues);

  const commandSource = JSON.stringify(source);
  const registrationBytes = utf8Length(commandSource);
  if (registrationBytes > MAX_REGISTRATION_BYTES) {
    const { conversationId } = request;
    throw new ConversationTooLargeError(
      conversationId,
      'registration',
      registrationBytes,
      MAX_REGISTRATION_BYTES,
    );
  }
  const timezone = effectiveTimezone(request.node.timezone, request.requestTimezone);
  const home = buildHomeContext(
    request.agents,
    request.node.room,
    homeBudgetBytes(registrationBytes),
  );
  const now = dependencies.clock.now();
  await dependencies.store.replace({
    nodeId: request.node.nodeId,
    conversationId: request.conversationId,
    version: 1,
    createdAt: now,
    updatedAt: now,
    expiresAt: Math.floor(now / 1000) + dependencies.settings.conversationTtlSeconds,
    timezone,
    room: request.node.room,
    home,
    speakerUserId: request.speakerUserId ?? null,
    commandSource,
    commandSetHash: compiled.value.hash,
    messages: [],
    pendingToolCalls: [],
    recentResponses: [],
  });
  const warmUp =
    request.skipWarmUp === true
      ? WarmUp.skipped
      : await warmUpModel(
          dependencies.model,
          compiled.value,
          dependencies.settings,
          home?.prompt ?? null,
        );
  return {
    conversationId: request.conversationId,
    timezone,
    commandCount: compiled.value.commands.size,
    warmUp,
  };
}
