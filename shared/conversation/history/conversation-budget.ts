import type { ChatMessage } from '../../chat/chat-message';
import type { ConversationRecord, HomeContext } from '../../ports/conversation-store';
import { messageBytes } from './message-json';
import { utf8Length } from './utf8-length';

/**
 * What one stored conversation may hold, in UTF-8 bytes of its uncompressed JSON (registration,
 * history, recorded answers). The store compresses them, which can only shrink them (deflate adds
 * a few bytes at worst), so staying under this keeps every item under the store's cap (350 KB)
 * by construction: no turn can ever be refused for size after the model was paid for.
 */
export const CONVERSATION_BUDGET_BYTES = 330 * 1024;
/** Kept for the answers recorded for request ids (recent-responses.ts). */
export const RECORDED_ANSWERS_BYTES = 32 * 1024;
/** Kept free for what one turn may add: model replies, server-tool results, retry messages. */
export const TURN_GROWTH_BYTES = 64 * 1024;
/** The history a registration must leave room for, so that a conversation can hold a turn. */
const MINIMUM_HISTORY_BYTES = 64 * 1024;

/** The largest registration (`available_commands` and `client_tools` as JSON) a conversation stores. */
export const MAX_REGISTRATION_BYTES =
  CONVERSATION_BUDGET_BYTES - RECORDED_ANSWERS_BYTES - TURN_GROWTH_BYTES - MINIMUM_HISTORY_BYTES;

/**
 * The bytes the history of `record` may take: its setting, or less beside a large registration
 * and the node's home.
 */
export function historyBudgetBytes(record: ConversationRecord, maxHistoryBytes: number): number {
  const stored = utf8Length(record.commandSource) + homeBytes(record.home);
  const room = CONVERSATION_BUDGET_BYTES - stored - RECORDED_ANSWERS_BYTES;
  return Math.min(maxHistoryBytes, room);
}

/**
 * The bytes the node's home may take beside a registration of `registrationBytes`: what is left
 * once the history has its minimum, so a home never makes a conversation unable to hold a turn
 * (a registration at its limit leaves none: the home is then left out).
 */
export function homeBudgetBytes(registrationBytes: number): number {
  return Math.max(0, MAX_REGISTRATION_BYTES - registrationBytes);
}

/** The bytes a home context takes in the conversation's budget: its JSON. */
export function homeBytes(home: HomeContext | null | undefined): number {
  return home === null || home === undefined ? 0 : utf8Length(JSON.stringify(home));
}

/** The bytes of the newest exchange (from the last user message on): what bounding always keeps. */
export function newestExchangeBytes(messages: readonly ChatMessage[]): number {
  let bytes = 0;
  for (let index = messages.length - 1; index >= 0; index -= 1) {
    const message = messages[index];
    if (message === undefined) break;
    bytes += messageBytes(message);
    if (message.role === 'user') break;
  }
  return bytes;
}

/**
 * What each of `calls` results may take in the history (see toolOutputText), as `continue` cuts
 * them: its own cap, or an equal share of the request's budget. The turn that hands the calls
 * out reserves exactly this, so their results always fit.
 */
export function resultShareBytes(
  settings: { readonly maxToolOutputBytes: number; readonly maxToolOutputsBytesPerRequest: number },
  calls: number,
): number {
  const share = Math.floor(settings.maxToolOutputsBytesPerRequest / Math.max(calls, 1));
  return Math.min(settings.maxToolOutputBytes, share);
}
