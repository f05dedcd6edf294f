/**
 * What both voice routes share once the new messages are known:
 * 1. the conversation was loaded (answer-once.ts) and the model checked; find its command set;
 * 2. refuse an exchange grown past what the conversation can store (before the model is asked);
 *    run the turn against the model, within the deadline (or end it with the answer the node's
 *    commands wrote, on continue: the model is not asked);
 * 3. bound the history and save it with a conditional write on the version read in step 1,
 *    recording what is now pending (and, for a request with an id or a stream handoff, its
 *    outcome; an earlier handoff's record goes, its exchange over). Nothing is written unless
 *    the turn finished.
 */

import type { ChatMessage } from '../../chat/chat-message';
import {
  type ConversationRecord,
  ConversationTooLargeError,
  type PendingToolCall,
} from '../../ports/conversation-store';
import type { LanguageModel } from '../../ports/language-model';
import { StoredCommandSetInvalidError } from '../errors';
import { boundHistory } from '../history/bound-history';
import {
  historyBudgetBytes,
  newestExchangeBytes,
  TURN_GROWTH_BYTES,
} from '../history/conversation-budget';
import { listedEntities } from '../home/listed-entities';
import { liveResponses, withRecordedResponse } from '../idempotency/recent-responses';
import type { RequestIdentity } from '../idempotency/request-identity';
import { ServerToolName } from '../server-tools/server-tool-names';
import { finishWithCommandAnswer } from '../turn/command-messages';
import { outcomeForTheNode } from '../turn/outcome-for-the-node';
import { runTurn } from '../turn/run-turn';
import { StopReason, type TurnOutcome } from '../turn/turn-outcome';
import { startTurn } from '../turn/turn-state';
import type { AnsweredTurn } from './answer-once';
import type { ConversationDependencies } from './conversation-dependencies';
import { storedCommandSet } from './stored-command-set';

/** What a route adds to the stored conversation before the model is asked. */
export interface TurnInput {
  readonly messages: readonly ChatMessage[];
  readonly toolResultsArrived: boolean;
  /** Epoch milliseconds: the deadline counts from here. */
  readonly startedAt: number;
  /** Set when the node sent a request id: the outcome is recorded for its repeats. */
  readonly identity: RequestIdentity | null;
  /** The utterance that opened the turn: the node gets it back in every answer of the turn. */
  readonly utterance: string;
  /** The final answer the node's commands wrote (continue): the turn ends with it, no model call. */
  readonly commandAnswer?: string | null;
}

export async function runConversationTurn(
  dependencies: ConversationDependencies,
  model: LanguageModel,
  record: ConversationRecord,
  input: TurnInput,
): Promise<AnsweredTurn> {
  const { messages, toolResultsArrived, startedAt, identity } = input;
  const { clock, ids, settings, store } = dependencies;
  const commandSet = storedCommandSet(record);
  // The turn must fit in what the conversation can store: refused before the model is paid for.
  const historyBudget = historyBudgetBytes(record, settings.maxHistoryBytes);
  const exchangeBytes = newestExchangeBytes(messages);
  if (exchangeBytes > historyBudget - TURN_GROWTH_BYTES) {
    const limit = historyBudget - TURN_GROWTH_BYTES;
    throw new ConversationTooLargeError(record.conversationId, 'exchange', exchangeBytes, limit);
  }
  if (commandSet === null) throw new StoredCommandSetInvalidError(record.commandSetHash);
  const home = record.home ?? null;
  const context = {
    commandSet,
    settings,
    ids,
    serverTools: { timezone: record.timezone, now: startedAt, commandSet },
    exchangeRoomBytes: historyBudget - TURN_GROWTH_BYTES,
    home:
      home === null
        ? null
        : {
            prompt: home.prompt,
            entities: listedEntities(home),
          },
  };
  const deadline = startedAt + settings.turnDeadlineMs;
  const initial = startTurn(messages, toolResultsArrived);
  const commandAnswer = input.commandAnswer ?? null;
  const finished =
    commandAnswer === null
      ? await runTurn(
          initial,
          context,
          {
            model,
            clock,
            step: (state, reply, turn) =>
              dependencies.untrustedWork.step(state, reply, turn, record.commandSource),
          },
          deadline,
        )
      : finishWithCommandAnswer(initial, commandAnswer);

  // The node's answer (returned, and recorded for replays) names no entity it did not list.
  const forTheNode =
    commandAnswer === null
      ? outcomeForTheNode(finished.outcome, context.home?.entities ?? null)
      : finished.outcome;
  const answered = { ...forTheNode, utterance: input.utterance };
  const now = clock.now();
  const version = record.version + 1;
  await store.save(
    {
      ...record,
      version,
      updatedAt: now,
      expiresAt: Math.floor(now / 1000) + settings.conversationTtlSeconds,
      messages: boundHistory(finished.state.messages, historyBudget),
      pendingToolCalls: pendingAfter(finished.outcome),
      recentResponses:
        identity === null
          ? liveResponses(record.recentResponses)
          : withRecordedResponse(record.recentResponses, identity, answered, {
              now,
              conversationVersion: version,
            }),
    },
    record.version,
  );
  return answered;
}

function pendingAfter(outcome: TurnOutcome): readonly PendingToolCall[] {
  if (outcome.stopReason === StopReason.toolCalls) {
    return outcome.toolCalls.map(({ id, name }) => ({ id, name }));
  }
  if (outcome.validationRequest !== null) {
    return [{ id: outcome.validationRequest.toolCallId, name: ServerToolName.requestValidation }];
  }
  return [];
}
