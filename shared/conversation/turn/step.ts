/**
 * The turn's state machine, pure: given the state and the model's last reply, decide what happens
 * next. In order:
 * 1. a reply cut off at the token limit is dropped and asked again, shorter (once); a reply whose
 *    text is over REPLY_LIMITS is dropped unread and asked again, shorter;
 *    pull the tool calls out of the reply (native or written in the text), reading the arguments
 *    of the first MAX_CALLS_PER_REPLY only;
 * 2. `request_validation` from the model: stop and ask the user;
 * 3. no call at all: a direct answer (accepted, must-call retry, or the final answer);
 * 4. apply the limits per reply (calls read, server tools run, calls pending on the node, room
 *    left in the exchange for their results);
 *    check each node call (normalize, validate); run the server tools;
 * 5. decide what follows from what the checks found (decide-after-checks.ts): invalid calls are
 *    retried with the issues while the budget lasts, else the user is asked; calls refused by a
 *    limit are retried with a note while the budget lasts, else what fits is handed over; server
 *    tools' results go back to the model; otherwise the valid calls go to the node.
 */

import type { ChatMessage, ToolCall } from '../../chat/chat-message';
import { buildRetryMessage } from '../../params';
import type { ModelReply } from '../../ports/language-model';
import { readClarificationQuestion } from '../server-tools/request-validation-tool';
import { runServerTool } from '../server-tools/run-server-tool';
import { ServerToolName } from '../server-tools/server-tool-names';
import { type ExtractedToolCall, extractReply } from '../tool-calls';
import {
  boundReplyCalls,
  fitArgumentBudget,
  fitPending,
  limitNote,
  MAX_CALLS_PER_REPLY,
  type RefusedCall,
} from './call-limits';
import { type CheckedCall, checkClientCall } from './check-client-call';
import { clarificationFor, listedOptions, withListedOptions } from './clarification';
import { addUsage, retryCutOffReply, wasCutOff } from './cut-off-reply';
import { decideAfterChecks } from './decide-after-checks';
import { answerDirectly, callModelAgain, giveUp, retriesLeft } from './direct-answer';
import { appendAssistant, finishWithClarification, finishWithToolCalls } from './finish';
import { oversizedText, retryOversizedReply } from './oversized-reply';
import { recordedArguments } from './recorded-arguments';
import { fitResultRoom, refusedArguments } from './result-room';
import type { TurnAction, TurnContext, TurnState } from './turn-state';

export function step(previous: TurnState, reply: ModelReply, context: TurnContext): TurnAction {
  const state: TurnState = {
    ...previous,
    modelCalls: previous.modelCalls + 1,
    usage: addUsage(previous.usage, reply.usage),
  };
  if (wasCutOff(reply.finishReason)) return retryCutOffReply(state, context);
  if (oversizedText(reply.content) !== null) return retryOversizedReply(state, context);
  const { text, toolCalls, unread } = extractReply(
    reply,
    context.ids,
    usedCallIds(state),
    MAX_CALLS_PER_REPLY,
  );

  const ask = toolCalls.find((call) => call.name === ServerToolName.requestValidation);
  if (ask !== undefined) {
    const args = ask.arguments.ok ? ask.arguments.value : {};
    const question = withListedOptions(
      readClarificationQuestion(args),
      context.home?.entities ?? null,
      context.settings.normalization,
    );
    return finishWithClarification(state, text, question, context, ask.id);
  }
  if (toolCalls.length === 0) return answerDirectly(state, text, context);

  const bounded = boundReplyCalls(toolCalls, unread);
  const budget = fitArgumentBudget(state.argumentBytes ?? 0, bounded.clientCalls);
  const checked = budget.read.map((call) => checkClientCall(call, context));
  const invalid = checked.filter((result) => !result.ok);
  const valid = checked.filter((result) => result.ok).map((result) => result.call);
  const pending = fitPending(state.keptCalls, withoutRepeats(state.keptCalls, valid));
  const fitted = fitResultRoom(state.messages, text, pending.kept, context);
  const refused = [...bounded.refused, ...budget.refused, ...pending.refused, ...fitted.refused];
  const repaired: TurnState = {
    ...state,
    argumentBytes: budget.bytes,
    keptCalls: fitted.kept,
    repairs: [
      ...state.repairs,
      ...checked.flatMap(({ call, repairs }) =>
        repairs.map((repair) => ({ toolCallId: call.id, repair })),
      ),
    ],
  };

  const next = decideAfterChecks({
    invalid: invalid.length,
    kept: fitted.kept.length,
    serverCalls: bounded.serverCalls.length,
    refused: refused.length,
    refusedForRoom: fitted.refused.length,
    dropped: bounded.dropped,
    retriesLeft: retriesLeft(repaired, context),
  });
  switch (next.type) {
    case 'ask_user': {
      const issues = invalid.flatMap((result) => (result.ok ? [] : result.issues));
      const listed = (options: readonly string[]) =>
        listedOptions(options, context.home?.entities ?? null, context.settings.normalization);
      return finishWithClarification(repaired, null, clarificationFor(issues, listed), context);
    }
    case 'say_no_room':
      return finishWithToolCalls(repaired, text, [], context);
    case 'give_up':
      return giveUp(repaired);
    case 'hand_over_what_fits': {
      // The calls refused for room are recorded, so the model reads why when the results come.
      const recorded = answerInServer(repaired, null, [], [], fitted.refused, context);
      return finishWithToolCalls(recorded, text, fitted.kept, context);
    }
    case 'hand_over':
      return finishWithToolCalls(repaired, text, fitted.kept, context);
    case 'ask_model_again': {
      const answered = answerInServer(
        repaired,
        text,
        bounded.serverCalls,
        invalid,
        refused,
        context,
      );
      return callModelAgain(
        withRetryMessage(answered, invalid, refused, bounded.dropped, context),
        context,
      );
    }
  }
}

/**
 * Records the calls the server answers itself (server tools, invalid node calls answered with
 * their errors, calls refused by the limits) so that every call in the history has its tool
 * message. Valid node calls stay out of the history until the turn ends.
 */
function answerInServer(
  state: TurnState,
  text: string | null,
  serverCalls: readonly ExtractedToolCall[],
  invalid: readonly CheckedCall[],
  refused: readonly RefusedCall[],
  context: TurnContext,
): TurnState {
  const serverToolCalls = serverCalls.map((call) => ({
    id: call.id,
    name: call.name,
    arguments: recordedArguments(call.arguments.ok ? call.arguments.value : call.arguments.raw),
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
  // A refused call never ran: its arguments are not worth room in the history (32 of them at the
  // recorded cap would take the turn's whole growth budget).
  const refusedCalls = refused.map(({ call, reason }) => ({
    ...call,
    arguments: refusedArguments(call.arguments),
    result: { error: reason },
  }));
  const answered = [...serverToolCalls, ...invalidCalls, ...refusedCalls];
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
  return { ...withCalls, messages: [...withCalls.messages, ...toolMessages] };
}

/**
 * Adds what the model must fix, when anything: the retry message for invalid calls and the note
 * on the limits, as one system message counted as one retry.
 */
function withRetryMessage(
  state: TurnState,
  invalid: readonly CheckedCall[],
  refused: readonly RefusedCall[],
  dropped: number,
  context: TurnContext,
): TurnState {
  const issues = invalid.flatMap((result) => (result.ok ? [] : result.issues));
  const toolNames = [...context.commandSet.commands.keys()];
  const note = limitNote(refused, dropped);
  const parts = [invalid.length > 0 ? buildRetryMessage(issues, toolNames) : null, note];
  const content = parts.filter((part) => part !== null).join('\n');
  if (content === '') return state;
  const reason = invalid.length > 0 ? 'invalid_arguments' : 'too_many_calls';
  return {
    ...state,
    messages: [...state.messages, { role: 'system', content }],
    retries: [...state.retries, { reason, issues }],
  };
}

/** Every tool-call id the history and the held calls already use: a new call must not repeat one. */
function usedCallIds(state: TurnState): ReadonlySet<string> {
  const used = new Set(state.keptCalls.map((call) => call.id));
  for (const message of state.messages) {
    if (message.role === 'assistant') for (const call of message.toolCalls) used.add(call.id);
    if (message.role === 'tool') used.add(message.toolCallId);
  }
  return used;
}

/** New calls that repeat a held one (same tool, same arguments) on a retry are handed over once. */
function withoutRepeats(held: readonly ToolCall[], calls: readonly ToolCall[]): ToolCall[] {
  const seen = new Set<string>(held.map((call) => `${call.name}\u0000${call.arguments}`));
  return calls.filter((call) => {
    const key = `${call.name}\u0000${call.arguments}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
