import { appendAssistant, finishWithAnswer, finishWithToolCalls } from './finish';
import type { TurnAction, TurnContext, TurnState } from './turn-state';

const MUST_CALL =
  'Do not answer in text. This request must be handled by calling one of the tools; call the ' +
  'tool that fits with its arguments now.';
const EMPTY_REPLY = 'Your reply was empty. Call the tool that fits, or answer the user briefly.';
const FALLBACK_ANSWER = "Sorry, I couldn't work that out. Could you say it another way?";
const STEP_LIMIT_ANSWER = "Sorry, I couldn't finish that request. Please try again.";

export function retriesLeft(state: TurnState, context: TurnContext): boolean {
  return state.retries.length < context.settings.maxValidationRetries;
}

/**
 * The model answered in text without calling a tool. Held calls go to the node; after the node's
 * results the answer is final; before any tool ran it is accepted unless every command says it
 * must be called, in which case the model gets one must-call retry (from the same budget).
 */
export function answerDirectly(
  state: TurnState,
  text: string | null,
  context: TurnContext,
): TurnAction {
  if (state.keptCalls.length > 0) return finishWithToolCalls(state, text, state.keptCalls);
  if (text === null) {
    if (!retriesLeft(state, context)) return finishWithAnswer(state, FALLBACK_ANSWER);
    const retried: TurnState = {
      ...state,
      messages: [...state.messages, { role: 'system', content: EMPTY_REPLY }],
      retries: [...state.retries, { reason: 'must_call_tool', issues: [] }],
    };
    return callModelAgain(retried, context);
  }
  const commands = [...context.commandSet.commands.values()];
  const mustCall =
    !state.toolResultsArrived &&
    commands.length > 0 &&
    commands.every((command) => command.allowDirectAnswer === false) &&
    !state.retries.some((retry) => retry.reason === 'must_call_tool');
  if (!mustCall || !retriesLeft(state, context)) return finishWithAnswer(state, text);

  const answered = appendAssistant(state, text, []);
  const retried: TurnState = {
    ...answered,
    messages: [...answered.messages, { role: 'system', content: MUST_CALL }],
    retries: [...state.retries, { reason: 'must_call_tool', issues: [] }],
  };
  return callModelAgain(retried, context, 'required');
}

/** Asks the model again, unless the turn has used every model call it may make. */
export function callModelAgain(
  state: TurnState,
  context: TurnContext,
  toolChoice: 'auto' | 'required' = 'auto',
): TurnAction {
  if (state.modelCalls < context.settings.maxModelCalls) {
    return { type: 'call_model', state, toolChoice };
  }
  if (state.keptCalls.length > 0) return finishWithToolCalls(state, null, state.keptCalls);
  return finishWithAnswer(state, STEP_LIMIT_ANSWER, true);
}
