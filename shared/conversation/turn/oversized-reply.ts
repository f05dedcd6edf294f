import { bytesOver, REPLY_LIMITS } from '../tool-calls/reply-limits';
import { callModelAgain, retriesLeft } from './direct-answer';
import { finishWithAnswer, finishWithToolCalls } from './finish';
import type { TurnAction, TurnContext, TurnState } from './turn-state';

const TOO_LARGE =
  `Your last reply was over ${REPLY_LIMITS.textBytes} bytes and was discarded unread. Reply ` +
  'again, shorter: tool calls with compact arguments, or one or two spoken sentences.';
const FALLBACK_ANSWER = "Sorry, I couldn't work that out. Could you say it another way?";

/** The bytes of a reply's text when they are over REPLY_LIMITS.textBytes, else null. O(1) mostly. */
export function oversizedText(content: string | null): number | null {
  return content === null ? null : bytesOver(content, REPLY_LIMITS.textBytes);
}

/**
 * A reply whose text is over the limit is not read (no markup scan, no think stripping) and
 * never spoken: the model is asked again, shorter, from the retry budget. With no retry left,
 * the calls already held go to the node, or the user hears a short fallback.
 */
export function retryOversizedReply(state: TurnState, context: TurnContext): TurnAction {
  if (!retriesLeft(state, context)) {
    return state.keptCalls.length > 0
      ? finishWithToolCalls(state, null, state.keptCalls, context)
      : finishWithAnswer(state, FALLBACK_ANSWER);
  }
  return callModelAgain(
    {
      ...state,
      messages: [...state.messages, { role: 'system', content: TOO_LARGE }],
      retries: [...state.retries, { reason: 'reply_too_large', issues: [] }],
    },
    context,
  );
}
