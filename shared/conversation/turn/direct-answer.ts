import { appendAssistant, finishWithAnswer, finishWithToolCalls } from './finish';
import type { TurnAction, TurnContext, TurnState } from './turn-state';

const MUST_CALL =
  'Do not answer in text. This request must be handled by calling one of the tools; call the ' +
  'tool that fits with its arguments now.';
const EMPTY_REPLY = 'Your reply was empty. Call the tool that fits, or answer the user briefly.';
const FALLBACK_ANSWER = "Sorry, I couldn't work that out. Could you say it another way?";
const STEP_LIMIT_ANSWER = "Sorry, I couldn't finish that request. Please try again.";

/** The turn may still retry the model for its arguments (validation, must-call, cut-off). */
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
  if (state.keptCalls.length > 0) return finishWithToolCalls(state, text, state.keptCalls, context);
  if (text === null) {
    if (!retriesLeft(state, context)) return finishWithAnswer(state, FALLBACK_ANSWER);
    const retried: TurnState = {
      ...state,
      messages: [...state.messages, { role: 'system', content: EMPTY_REPLY }],
      retries: [...state.retries, { reason: 'must_call_tool', issues: [] }],
    };
    return callModelAgain(retried, context);
  }
  if (!mustStillCall(state, context) || !retriesLeft(state, context)) {
    return finishWithAnswer(state, text);
  }

  const answered = appendAssistant(state, text, []);
  const retried: TurnState = {
    ...answered,
    messages: [...answered.messages, { role: 'system', content: MUST_CALL }],
    retries: [...state.retries, { reason: 'must_call_tool', issues: [] }],
  };
  return callModelAgain(retried, context, 'required');
}

/** Ends the turn with the fallback answer: the model could not be brought to a usable reply. */
export function giveUp(state: TurnState): TurnAction {
  return finishWithAnswer(state, FALLBACK_ANSWER);
}

/** Every command says it must be called (`allow_direct_answer: false`) and the set is not empty. */
export const everyCommandMustBeCalled = (context: TurnContext): boolean => {
  const commands = [...context.commandSet.commands.values()];
  return commands.length > 0 && commands.every((command) => command.allowDirectAnswer === false);
};

/**
 * A direct answer here earns one must-call retry: no node result came back yet this turn, every
 * command must be called, and the model has not had its must-call retry already.
 */
export const mustStillCall = (state: TurnState, context: TurnContext): boolean =>
  !state.toolResultsArrived &&
  everyCommandMustBeCalled(context) &&
  !state.retries.some((retry) => retry.reason === 'must_call_tool');

/** The model may still be asked again in this turn. */
export const modelCallsLeft = (state: TurnState, context: TurnContext): boolean =>
  state.modelCalls < context.settings.maxModelCalls;

/** Asks the model again, unless the turn has used every model call it may make. */
export function callModelAgain(
  state: TurnState,
  context: TurnContext,
  toolChoice: 'auto' | 'required' = 'auto',
): TurnAction {
  if (modelCallsLeft(state, context)) return { type: 'call_model', state, toolChoice };
  if (state.keptCalls.length > 0) return finishWithToolCalls(state, null, state.keptCalls, context);
  return finishWithAnswer(state, STEP_LIMIT_ANSWER, true);
}
