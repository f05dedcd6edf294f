/**
 * voice/command/continue:
 * 1. load the conversation; nothing pending is a 409;
 * 2. match the results to the pending calls: exactly one per call, by id, in any order;
 * 3. append them as tool messages (in the order the calls were made), each cut to its share of
 *    the request's output budget, and run the turn; when every result is a command's success with
 *    its spoken message, those messages are the answer and the model is not asked
 *    (turn/command-messages.ts, setting `answerFromCommandMessages`).
 * A mismatch changes nothing. With a request id, a repeat replays the recorded answer even
 * though the calls it answered are no longer pending (answer-once.ts). Whichever continue answers
 * some results (continue/stream, or the blocking one; with or without a request id), the next
 * continue with these very results replays its outcome, with no second model call and the results
 * added once, as long as nothing else happened in the conversation (a later exchange may reuse the
 * call ids); one without a request id is recorded under its results alone (`handoffIdentity`).
 * Every continue claims the conversation while its turn runs (the fingerprint of its results,
 * with or without a request id), so two continues with the same results at once (continue/stream
 * and the blocking continue, or two copies) never both ask the model: the later one gets
 * `request_in_progress`, and its retry the replay.
 */

import type { ChatMessage } from '../../chat/chat-message';
import { canonicalJson } from '../../params';
import type { ConversationRecord } from '../../ports/conversation-store';
import type { LanguageModel } from '../../ports/language-model';
import { NothingPendingError, type ToolResultProblem, ToolResultsMismatchError } from '../errors';
import { toolOutputText } from '../history/bound-history';
import { resultShareBytes } from '../history/conversation-budget';
import {
  handoffIdentity,
  type RequestIdentity,
  requestIdentity,
} from '../idempotency/request-identity';
import { latestUtterance } from '../prompt/turn-context';
import { commandMessagesAnswer } from '../turn/command-messages';
import { type AnsweredTurn, answerOnce, type TurnAnswer } from './answer-once';
import type { CallingNode, ConversationDependencies } from './conversation-dependencies';
import { runConversationTurn } from './conversation-turn';

export interface ToolResult {
  readonly toolCallId: string;
  readonly output: unknown;
}

export interface ContinueRequest {
  readonly node: CallingNode;
  readonly conversationId: string;
  readonly toolResults: readonly ToolResult[];
  /** The node's request id (body `request_id` or `Idempotency-Key`), if it sent one. */
  readonly requestId?: string | null;
}

export async function continueConversation(
  dependencies: ConversationDependencies,
  request: ContinueRequest,
): Promise<TurnAnswer> {
  const startedAt = dependencies.clock.now();
  // Results may come in any order (api.md), so a resend in another order is the same request.
  const asked = request.toolResults
    .map(({ toolCallId, output }) => canonicalJson({ toolCallId, output }))
    .sort();
  const handoff = handoffIdentity(asked);
  // Without a request id, the results themselves are the identity: a resend of the same results
  // before anything else happened in the conversation gets the same answer. With one, the answer
  // is recorded under it, and found by its results too (`recordedForResults`: the fingerprint).
  const identity = requestIdentity(request.requestId ?? null, 'continue', asked) ?? handoff;
  const conversation = { nodeId: request.node.nodeId, conversationId: request.conversationId };
  return answerOnce(
    dependencies,
    conversation,
    { identity, handoff },
    (record, model) => continueTurn(dependencies, model, record, request, { startedAt, identity }),
    (recorded) => recorded,
  );
}

function continueTurn(
  dependencies: ConversationDependencies,
  model: LanguageModel,
  record: ConversationRecord,
  request: ContinueRequest,
  turn: { readonly startedAt: number; readonly identity: RequestIdentity },
): Promise<AnsweredTurn> {
  if (record.pendingToolCalls.length === 0) throw new NothingPendingError(request.conversationId);

  const byId = new Map<string, ToolResult>();
  const problems: ToolResultProblem[] = [];
  const pendingIds = new Set(record.pendingToolCalls.map((call) => call.id));
  for (const result of request.toolResults) {
    if (!pendingIds.has(result.toolCallId)) {
      problems.push({ toolCallId: result.toolCallId, problem: 'unknown_id' });
    } else if (byId.has(result.toolCallId)) {
      problems.push({ toolCallId: result.toolCallId, problem: 'duplicate_result' });
    } else {
      byId.set(result.toolCallId, result);
    }
  }
  for (const id of pendingIds) {
    if (!byId.has(id)) problems.push({ toolCallId: id, problem: 'missing_result' });
  }
  if (problems.length > 0) throw new ToolResultsMismatchError(problems);

  // Each output is capped, and together they share one budget: a round of many large outputs
  // still leaves the exchange room for the next.
  const limit = resultShareBytes(dependencies.settings, record.pendingToolCalls.length);
  const results: ChatMessage[] = record.pendingToolCalls.map((call) => ({
    role: 'tool',
    toolCallId: call.id,
    content: toolOutputText(byId.get(call.id)?.output, limit),
  }));
  // The node's commands may have written the answer already: then the model is not asked.
  const commandAnswer = dependencies.settings.answerFromCommandMessages
    ? commandMessagesAnswer(
        record.pendingToolCalls.map((call) => ({
          name: call.name,
          output: byId.get(call.id)?.output,
        })),
      )
    : null;
  return runConversationTurn(dependencies, model, record, {
    messages: [...record.messages, ...results],
    toolResultsArrived: true,
    utterance: latestUtterance(record.messages),
    commandAnswer,
    ...turn,
  });
}
