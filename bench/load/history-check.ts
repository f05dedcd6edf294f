import type { ChatMessage } from '../../shared/chat/chat-message';
import type { ConversationLog } from './load-recorder';
import { findTurnTag } from './turn-tag';

/** The part of a stored conversation the check reads. */
export interface StoredHistory {
  readonly messages: readonly ChatMessage[];
  readonly pendingToolCalls: readonly { readonly id: string }[];
}

export interface ConversationVerdict {
  /** Utterances acknowledged with a 200 that the history lacks, the bound cannot explain. */
  readonly lostTurns: number;
  /** Tool results acknowledged with a 200 that the history lacks (same exception). */
  readonly lostResults: number;
  /** Oldest acknowledged utterances missing from a history big enough to have been bounded. */
  readonly droppedByBound: number;
  /** Stored utterances whose request got no 200 (a timeout or an error the run counts anyway). */
  readonly unacknowledgedTurns: number;
  /** An invalid history, a turn out of order, a call answering another conversation's turn. */
  readonly problems: readonly string[];
}

/**
 * More than any one load exchange takes in the history: a history this far under the engine's
 * bound was never bounded (bounding leaves less than one exchange of room), so nothing may miss.
 */
export const BOUND_MARGIN_CHARACTERS = 10_000;

/** The size of a history as the engine's bound counts it: the characters of each message's JSON. */
export const historyCharacters = (messages: readonly ChatMessage[]): number =>
  messages.reduce((sum, message) => sum + JSON.stringify(message).length, 0);

/**
 * Compares what the driver was told (200s) with what the store holds for one conversation. The
 * history is bounded (oldest exchanges go first), so missing turns count as lost unless the
 * history is within `BOUND_MARGIN_CHARACTERS` of `maxHistoryBytes` and they are the oldest.
 */
export function checkConversation(
  log: ConversationLog,
  stored: StoredHistory | null,
  maxHistoryBytes: number,
): ConversationVerdict {
  const messages = stored?.messages ?? [];
  const problems = stored === null ? [] : historyProblems(stored, `load-${log.number}-`);
  const storedTags = messages.flatMap((message) =>
    message.role === 'user' ? [findTurnTag(message.content) ?? 'untagged'] : [],
  );
  const mayBeBounded = historyCharacters(messages) > maxHistoryBytes - BOUND_MARGIN_CHARACTERS;
  const present = new Set(storedTags);
  const firstKept = log.acknowledgedTurns.findIndex((tag) => present.has(tag));
  const dropped = new Set(
    mayBeBounded ? log.acknowledgedTurns.slice(0, firstKept === -1 ? 0 : firstKept) : [],
  );
  const acknowledged = new Set(log.acknowledgedTurns);
  const keptInOrder = storedTags.filter((tag) => acknowledged.has(tag));
  const expectedOrder = log.acknowledgedTurns.filter((tag) => present.has(tag));
  if (keptInOrder.join() !== expectedOrder.join()) problems.push('turns stored out of order');
  const results = new Map(
    messages.flatMap((message) => (message.role === 'tool' ? [[message.toolCallId, message]] : [])),
  );
  let lostResults = 0;
  for (const [id, tag] of log.acknowledgedResults) {
    if (dropped.has(tag)) continue;
    if (!results.get(id)?.content.includes(tag)) lostResults += 1;
  }
  return {
    lostTurns: log.acknowledgedTurns.filter((tag) => !present.has(tag) && !dropped.has(tag)).length,
    lostResults,
    droppedByBound: dropped.size,
    unacknowledgedTurns: storedTags.filter((tag) => !acknowledged.has(tag)).length,
    problems,
  };
}

/**
 * The history rules: every tool call answered by one `tool` message before the next other
 * message, except the calls still pending at its end; every call labelled with the tag of the
 * utterance it answers, and that tag one of this conversation's.
 */
function historyProblems(stored: StoredHistory, ownTagPrefix: string): string[] {
  const problems: string[] = [];
  let open = new Set<string>();
  let turnTag: string | null = null;
  for (const message of stored.messages) {
    if (message.role === 'tool') {
      if (!open.delete(message.toolCallId))
        problems.push(`result ${message.toolCallId} answers no call`);
      continue;
    }
    if (open.size > 0) problems.push(`calls ${[...open].join(', ')} unanswered`);
    open = new Set();
    if (message.role === 'user') {
      turnTag = findTurnTag(message.content);
      if (!turnTag?.startsWith(ownTagPrefix))
        problems.push(`turn ${turnTag} of another conversation`);
    } else if (message.role === 'assistant') {
      for (const call of message.toolCalls) {
        open.add(call.id);
        if (!call.arguments.includes(`"${turnTag}"`))
          problems.push(`call ${call.id} not for ${turnTag}`);
      }
    }
  }
  const pending = stored.pendingToolCalls.map((call) => call.id).sort();
  if ([...open].sort().join() !== pending.join()) {
    problems.push(`unanswered calls ${[...open].join(', ')} but pending ${pending.join(', ')}`);
  }
  return problems;
}
