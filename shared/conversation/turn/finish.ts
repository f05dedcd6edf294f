import type { ToolCall } from '../../chat/chat-message';
import type { Repair } from '../../params';
import type { ClarificationQuestion } from '../server-tools/request-validation-tool';
import { ServerToolName } from '../server-tools/server-tool-names';
import { fitResultRoom } from './result-room';
import { StopReason, type TurnOutcome } from './turn-outcome';
import type { TurnAction, TurnContext, TurnState } from './turn-state';

const NO_ROOM_ANSWER =
  'Sorry, this conversation has no room left for more results. Please start a new request.';

/**
 * Ends the turn handing `calls` to the node; they stay pending until `continue`. Only the calls
 * whose results fit in the exchange go (fitResultRoom: `step` already retried with the others
 * refused; here the history may have grown since); with none, the user hears why.
 */
export function finishWithToolCalls(
  state: TurnState,
  text: string | null,
  candidates: readonly ToolCall[],
  context: TurnContext,
): TurnAction {
  const calls = fitResultRoom(state.messages, text, candidates, context).kept;
  if (calls.length === 0) return finishWithAnswer(state, NO_ROOM_ANSWER);
  const next = appendAssistant(state, text, calls);
  return finish(next, {
    stopReason: StopReason.toolCalls,
    assistantMessage: text,
    toolCalls: calls,
  });
}

/**
 * Ends the turn with a question for the user, recorded as a `request_validation` call whose id
 * the node answers through `continue`: the answer becomes that call's tool message.
 */
export function finishWithClarification(
  state: TurnState,
  text: string | null,
  question: ClarificationQuestion,
  context: TurnContext,
  callId?: string,
): TurnAction {
  const id = callId ?? context.ids.next('call_');
  const args = {
    question: question.question,
    parameter_name: question.parameterName,
    ...(question.options === null ? {} : { options: question.options }),
  };
  const call = { id, name: ServerToolName.requestValidation, arguments: JSON.stringify(args) };
  const next = appendAssistant(state, text, [call]);
  return finish(next, {
    stopReason: StopReason.validationRequired,
    assistantMessage: text ?? question.question,
    validationRequest: { ...question, toolCallId: id },
  });
}

/** Ends the turn with a spoken answer and nothing pending. */
export function finishWithAnswer(
  state: TurnState,
  text: string,
  stepLimitReached = false,
): FinishedTurn {
  const next = appendAssistant(state, text, []);
  return finish(next, {
    stopReason: StopReason.complete,
    assistantMessage: text,
    stepLimitReached,
  });
}

export function appendAssistant(
  state: TurnState,
  text: string | null,
  toolCalls: readonly ToolCall[],
): TurnState {
  return {
    ...state,
    messages: [...state.messages, { role: 'assistant', content: text, toolCalls }],
  };
}

/** A turn that ended: its state to save and its outcome. */
export type FinishedTurn = Extract<TurnAction, { type: 'finish' }>;

function finish(
  state: TurnState,
  outcome: Partial<TurnOutcome> & Pick<TurnOutcome, 'stopReason' | 'assistantMessage'>,
): FinishedTurn {
  const toolCalls = outcome.toolCalls ?? [];
  return {
    type: 'finish',
    state,
    outcome: {
      validationRequest: null,
      stepLimitReached: false,
      ...outcome,
      toolCalls,
      modelCalls: state.modelCalls,
      retries: state.retries,
      repairs: handedRepairs(state, toolCalls),
      attemptRepairs: state.repairs.length,
      usage: state.usage,
    },
  };
}

/**
 * The repairs of the calls the node gets, in the order they were made: what the response
 * describes is what the node received. A call the model had to redo, or a repeat of a held call,
 * is not handed over, so its repairs are not listed (the metrics count them: `attemptRepairs`).
 */
function handedRepairs(state: TurnState, calls: readonly ToolCall[]): Repair[] {
  const handed = new Set(calls.map((call) => call.id));
  return state.repairs
    .filter(({ toolCallId }) => handed.has(toolCallId))
    .map(({ repair }) => repair);
}
