/**
 * The turn's state machine, pure: given the state and the model's last reply, decide what happens
 * next. In order:
 * 1. pull the tool calls out of the reply (native or written in the text);
 * 2. `request_validation` from the model: stop and ask the user;
 * 3. no call at all: a direct answer (accepted, must-call retry, or the final answer);
 * 4. check each node call (normalize, validate); run the server tools;
 * 5. invalid calls: retry with the issues while the budget lasts, else ask the user;
 *    server tools ran: give their results to the model and go on;
 * 6. otherwise hand the valid calls to the node.
 */
import { buildRetryMessage } from '../../params';
import type { ModelReply } from '../../ports/language-model';
import type { ChatMessage, ToolCall } from '../chat-message';
import { readClarificationQuestion } from '../server-tools/request-validation-tool';
import { runServerTool } from '../server-tools/run-server-tool';
import { isServerToolName, ServerToolName } from '../server-tools/server-tool-names';
import { type ExtractedToolCall, extractReply } from '../tool-calls';
import { type CheckedCall, checkClientCall } from './check-client-call';
import { clarificationFor } from './clarification';
import { answerDirectly, callModelAgain, retriesLeft } from './direct-answer';
import { appendAssistant, finishWithClarification, finishWithToolCalls } from './finish';
import type { TurnAction, TurnContext, TurnState } from './turn-state';

export function step(previous: TurnState, reply: ModelReply, context: TurnContext): TurnAction {
  const state: TurnState = { ...previous, modelCalls: previous.modelCalls + 1 };
  const { text, toolCalls } = extractReply(reply, context.ids);

  const ask = toolCalls.find((call) => call.name === ServerToolName.requestValidation);
  if (ask !== undefined) {
    const args = ask.arguments.ok ? ask.arguments.value : {};
    return finishWithClarification(state, text, readClarificationQuestion(args), context, ask.id);
  }
  if (toolCalls.length === 0) return answerDirectly(state, text, context);

  const serverCalls = toolCalls.filter((call) => isServerToolName(call.name));
  const checked = toolCalls
    .filter((call) => !isServerToolName(call.name))
    .map((call) => checkClientCall(call, context));
  const invalid = checked.filter((result) => !result.ok);
  const kept = withoutRepeats([
    ...state.keptCalls,
    ...checked.filter((result) => result.ok).map((result) => result.call),
  ]);
  const repaired: TurnState = {
    ...state,
    keptCalls: kept,
    repairs: [...state.repairs, ...checked.flatMap((result) => result.repairs)],
  };

  if (invalid.length > 0 && !retriesLeft(repaired, context)) {
    const issues = invalid.flatMap((result) => (result.ok ? [] : result.issues));
    return finishWithClarification(repaired, null, clarificationFor(issues), context);
  }
  if (serverCalls.length === 0 && invalid.length === 0) {
    return finishWithToolCalls(repaired, text, kept);
  }
  return callModelAgain(answerInServer(repaired, text, serverCalls, invalid, context), context);
}

/**
 * Records the calls the server answers itself (server tools, and invalid node calls answered
 * with their errors) so that every call in the history has its tool message, then adds the retry
 * message when some were invalid. Valid node calls stay out of the history until the turn ends.
 */
function answerInServer(
  state: TurnState,
  text: string | null,
  serverCalls: readonly ExtractedToolCall[],
  invalid: readonly CheckedCall[],
  context: TurnContext,
): TurnState {
  const serverToolCalls = serverCalls.map((call) => ({
    id: call.id,
    name: call.name,
    arguments: call.arguments.ok ? JSON.stringify(call.arguments.value) : call.arguments.raw,
    result: runServerTool(
      call.name,
      call.arguments.ok ? call.arguments.value : {},
      context.serverTools,
    ),
  }));
  const invalidCalls = invalid.map((result) => ({
    ...result.call,
    result: {
      error: 'invalid arguments: the call was not executed',
      issues: result.ok ? [] : result.issues.map((issue) => issue.message),
    },
  }));
  const answered = [...serverToolCalls, ...invalidCalls];
  const withCalls = appendAssistant(
    state,
    text,
    answered.map(({ id, name, arguments: args }) => ({ id, name, arguments: args })),
  );
  const toolMessages: ChatMessage[] = answered.map((call) => ({
    role: 'tool',
    toolCallId: call.id,
    content: JSON.stringify(call.result),
  }));
  const messages = [...withCalls.messages, ...toolMessages];
  if (invalid.length === 0) return { ...withCalls, messages };

  const issues = invalid.flatMap((result) => (result.ok ? [] : result.issues));
  const toolNames = [...context.commandSet.commands.keys()];
  return {
    ...withCalls,
    messages: [...messages, { role: 'system', content: buildRetryMessage(issues, toolNames) }],
    retries: [...state.retries, { reason: 'invalid_arguments', issues }],
  };
}

/** The same call sent again on a retry (same tool, same arguments) is handed over once. */
function withoutRepeats(calls: readonly ToolCall[]): ToolCall[] {
  const seen = new Set<string>();
  return calls.filter((call) => {
    const key = `${call.name}\u0000${call.arguments}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
