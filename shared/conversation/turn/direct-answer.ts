import { appendAssistant, finishWithAnswer, finishWithToolCalls } from './finish';
import type { TurnAction, TurnContext, TurnState } from './turn-state';

const MUST_CALL =
  'Do not answer in text. This request must be handled by calling one of the tools; call the ' +
  'tool that fits with its arguments now.';
const EMPTY_REPLY = 'Your reply was empty. Call the tool that fits, or answer the user briefly.';
const FALLBACK_ANSWER = "Sorry, I couldn't work that out. Could you say it another way?";
const STEP_LIMIT_ANSWER = "Sorry, I couldn't finish that request. Please try again.";
/**
 * What the user hears when every command must be called and the model, asked with
 * `tool_choice: "required"` after each reply, still answers in text: never that text (it would be
 * an answer the node said it cannot give, such as "Timer set!" with no timer).
 */
export const NO_COMMAND_ANSWER =
  "Sorry, I couldn't do that with the commands I have. Could you say it another way?";

/** The turn may still retry the model for its arguments (validation, must-call, cut-off). */
export function retriesLeft(state: TurnState, context: TurnContext): boolean {
  return state.retries.length < context.settings.maxValidationRetries;
}

/**
 * The model answered in text without calling a tool. Held calls go to the node; after the node's
 * results the answer is final; before any tool ran it is accepted unless every command says it
 * must be called: then the model is asked again (from the same budget, `tool_choice: "required"`)
 * and, once the budget is spent, the user hears NO_COMMAND_ANSWER, never the model's text.
 */
export function answerDirectly(
  state: TurnState,
  text: string | null,
  context: TurnContext,
): TurnAction {
  if (state.keptCalls.length > 0) return finishWithToolCalls(state, text, state.keptCalls, context);
  const mustCall = mustCallTool(state, context);
  if (text === null) {
    if (!retriesLeft(state, context)) {
      return finishWithAnswer(state, mustCall ? NO_COMMAND_ANSWER : FALLBACK_ANSWER);
    }
    const retried: TurnState = {
      ...state,
      messages: [
        ...state.messages,
        { role: 'system', content: mustCall ? MUST_CALL : EMPTY_REPLY },
      ],
      retries: [...state.retries, { reason: 'must_call_tool', issues: [] }],
    };
    return callModelAgain(retried, context);
  }
  if (!mustCall) return finishWithAnswer(state, text);
  if (!retriesLeft(state, context)) return finishWithAnswer(state, NO_COMMAND_ANSWER);

  const answered = appendAssistant(state, text, []);
  const retried: TurnState = {
    ...answered,
    messages: [...answered.messages, { role: 'system', content: MUST_CALL }],
    retries: [...state.retries, { reason: 'must_call_tool', issues: [] }],
  };
  return callModelAgain(retried, context);
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
 * The turn may not end in a direct answer: no node result came back yet this turn and every
 * command must be called. Every request to the model then says `tool_choice: "required"`.
 */
export const mustCallTool = (state: TurnState, context: TurnContext): boolean =>
  !state.toolResultsArrived && everyCommandMustBeCalled(context);

/** The model may still be asked again in this turn. */
export const modelCallsLeft = (state: TurnState, context: TurnContext): boolean =>
  state.modelCalls < context.settings.maxModelCalls;

/**
 * Asks the model again, unless the turn has used every model call it may make; with
 * `tool_choice: "required"` where the turn must end in a tool call.
 */
export function callModelAgain(state: TurnState, context: TurnContext): TurnAction {
  if (modelCallsLeft(state, context)) {
    const toolChoice = mustCallTool(state, context) ? 'required' : 'auto';
    return { type: 'call_model', state, toolChoice };
  }
  if (state.keptCalls.length > 0) return finishWithToolCalls(state, null, state.keptCalls, context);
  return finishWithAnswer(state, STEP_LIMIT_ANSWER, true);
}
