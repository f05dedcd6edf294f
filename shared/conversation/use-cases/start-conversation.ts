/**
 * conversation/start:
 * 1. compile the registration (every problem reported at once; server tool names are reserved),
 *    and refuse one too large to store beside a useful history;
 * 2. choose the zone: the registry's, else the request's if it is a real IANA zone, else UTC;
 * 3. store a fresh conversation, replacing any earlier one with the same id for this node;
 * 4. warm the model's prefix cache with the conversation's prompt, unless this container did so a
 *    moment ago (warm-up-decision.ts: a command set not warmed recently is warmed even when the
 *    node asks to skip): bounded by its own timeout, and whatever happens to it, the start has
 *    succeeded; a finished warm-up is remembered.
 */
import { type CommandSetSource, type CompiledCommandSet, compileCommandSet } from '../../params';
import { ConversationTooLargeError } from '../../ports/conversation-store';
import { CommandSetInvalidError } from '../errors';
import { MAX_REGISTRATION_BYTES } from '../history/conversation-budget';
import { utf8Length } from '../history/utf8-length';
import { SERVER_TOOL_NAMES } from '../server-tools/server-tool-names';
import type { CallingNode, ConversationDependencies } from './conversation-dependencies';
import { effectiveTimezone } from './effective-timezone';
import { decideWarmUp } from './warm-up-decision';
import { WarmUp, warmUpModel } from './warm-up-model';

export { effectiveTimezone };

export interface StartConversationRequest {
  readonly node: CallingNode;
  readonly conversationId: string;
  readonly requestTimezone: string | null;
  readonly commands: CommandSetSource;
  /** The node's `skip_warmup_inference` (servers without a prefix cache gain nothing from it). */
  readonly skipWarmUp?: boolean;
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
    'store' | 'clock' | 'settings' | 'model' | 'warmUps'
  >,
  request: StartConversationRequest,
): Promise<StartedConversation> {
  const source: CommandSetSource = {
    available_commands: request.commands.available_commands ?? [],
    client_tools: request.commands.client_tools ?? [],
  };
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
    commandSource,
    commandSetHash: compiled.value.hash,
    messages: [],
    pendingToolCalls: [],
    recentResponses: [],
  });
  const warmUp = await warmUpOnStart(dependencies, compiled.value, request.skipWarmUp === true);
  return {
    conversationId: request.conversationId,
    timezone,
    commandCount: compiled.value.commands.size,
    warmUp,
  };
}

async function warmUpOnStart(
  dependencies: Pick<ConversationDependencies, 'clock' | 'settings' | 'model' | 'warmUps'>,
  commandSet: CompiledCommandSet,
  skipAsked: boolean,
): Promise<WarmUp> {
  const { warmUps, clock } = dependencies;
  const decision = decideWarmUp(warmUps, {
    commandSetHash: commandSet.hash,
    skipAsked,
    nowMs: clock.now(),
  });
  if (decision === 'skip_asked') return WarmUp.skipped;
  if (decision === 'recently_warmed') return WarmUp.recentlyWarmed;
  const outcome = await warmUpModel(dependencies.model, commandSet, dependencies.settings);
  // A warm-up cut by its timeout still warms a local server (it works on), but may not have: only
  // a finished one is remembered, so the next start tries again.
  if (outcome === WarmUp.warmed) warmUps?.remember(commandSet.hash, clock.now());
  return outcome;
}
