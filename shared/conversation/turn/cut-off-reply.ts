import type { TokenUsage } from '../../ports/language-model';
import { callModelAgain } from './direct-answer';
import type { TurnAction, TurnContext, TurnState } from './turn-state';

const CUT_OFF =
  'Your last reply was cut off at the output token limit and was discarded. Reply again, shorter: ' +
  'one tool call with compact arguments, or one or two spoken sentences.';

/** The server stopped the reply at its token limit: whatever it holds is incomplete. */
export const wasCutOff = (finishReason: string | null): boolean => finishReason === 'length';

/**
 * A reply cut off at the token limit is never a final answer (the user would hear half a
 * sentence) nor a call (its arguments may be half written): it is dropped and the model asked
 * once for a shorter one; cut off again, the turn fails (a 502 that says so).
 */
export function retryCutOffReply(state: TurnState, context: TurnContext): TurnAction {
  if (state.retries.some((retry) => retry.reason === 'reply_cut_off')) {
    return { type: 'fail', state, failure: 'reply_cut_off' };
  }
  return callModelAgain(
    {
      ...state,
      messages: [...state.messages, { role: 'system', content: CUT_OFF }],
      retries: [...state.retries, { reason: 'reply_cut_off', issues: [] }],
    },
    context,
  );
}

/** `total` with one more call's usage added; null until some server reports usage. */
export function addUsage(
  total: TokenUsage | null,
  reply: TokenUsage | null | undefined,
): TokenUsage | null {
  if (reply === null || reply === undefined) return total;
  const reasoning =
    total?.reasoningTokens === undefined && reply.reasoningTokens === undefined
      ? {}
      : { reasoningTokens: (total?.reasoningTokens ?? 0) + (reply.reasoningTokens ?? 0) };
  return {
    promptTokens: (total?.promptTokens ?? 0) + reply.promptTokens,
    completionTokens: (total?.completionTokens ?? 0) + reply.completionTokens,
    cachedTokens: (total?.cachedTokens ?? 0) + reply.cachedTokens,
    ...reasoning,
  };
}
