/**
 * conversation/start:
 * 1. compile the registration (every problem reported at once; server tool names are reserved),
 *    and refuse one too large to store beside a useful history;
 * 2. choose the zone: the registry's, else the request's if it is a real IANA zone, else UTC;
 * 3. render the home the node's agents reported (devices, other agents' data) within what the
 *    registration leaves of the conversation's budget: cut, never refused;
 * 4. store a fresh conversation, replacing any earlier one with the same id for this node;
 * 5. warm the model's prefix cache with the conversation's prompt and home, unless this container
 *    did so a moment ago for the same set and home (warm-up-decision.ts: one not warmed recently is
 *    warmed even when the node asks to skip): bounded by its own timeout, and whatever happens to
 *    it, the start has succeeded; a finished warm-up is remembered.
 */
import {
  type CommandSetSource,
  type CompiledCommandSet,
  compileCommandSet,
  hashCanonicalJson,
} from '../../params';
import { ConversationTooLargeError } from '../../ports/conversation-store';
import { CommandSetInvalidError } from '../errors';
import { homeBudgetBytes, MAX_REGISTRATION_BYTES } from '../history/conversation-budget';
import { utf8Length } from '../history/utf8-length';
import { buildHomeContext } from '../home/build-home-context';
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
    'store' | 'clock' | 'settings' | 'model' | 'warmUps' | 'untrustedWork'
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
  const warmUp = await warmUpOnStart(
    dependencies,
    compiled.value,
    home?.prompt ?? null,
    request.skipWarmUp === true,
  );
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
  homePrompt: string | null,
  skipAsked: boolean,
): Promise<WarmUp> {
  const { warmUps, clock } = dependencies;
  // The home block follows the prefix in every request: a set warmed for one home is not warm
  // for another, so the memory is keyed by both.
  const warmedPrefix =
    homePrompt === null ? commandSet.hash : `${commandSet.hash}:${hashCanonicalJson(homePrompt)}`;
  const decision = decideWarmUp(warmUps, {
    commandSetHash: warmedPrefix,
    skipAsked,
    nowMs: clock.now(),
  });
  if (decision === 'skip_asked') return WarmUp.skipped;
  if (decision === 'recently_warmed') return WarmUp.recentlyWarmed;
  const outcome = await warmUpModel(
    dependencies.model,
    commandSet,
    dependencies.settings,
    homePrompt,
  );
  // A warm-up cut by its timeout still warms a local server (it works on), but may not have: only
  // a finished one is remembered, so the next start tries again.
  if (outcome === WarmUp.warmed) warmUps?.remember(warmedPrefix, clock.now());
  return outcome;
}
