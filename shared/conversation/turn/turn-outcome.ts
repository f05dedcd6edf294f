import type { ToolCall } from '../../chat/chat-message';
import type { Repair, ValidationIssue } from '../../params';
import type { TokenUsage } from '../../ports/language-model';

export const StopReason = {
  toolCalls: 'tool_calls',
  validationRequired: 'validation_required',
  complete: 'complete',
} as const;
export type StopReason = (typeof StopReason)[keyof typeof StopReason];

export interface ValidationRequest {
  readonly question: string;
  readonly parameterName: string;
  readonly options: readonly string[] | null;
  /** The id of the `request_validation` call in the history that the node's answer will close. */
  readonly toolCallId: string;
}

/** Why the model was asked again within one turn. */
export interface RetryRecord {
  readonly reason:
    | 'invalid_arguments'
    | 'must_call_tool'
    | 'too_many_calls'
    | 'reply_cut_off'
    | 'reply_too_large';
  readonly issues: readonly ValidationIssue[];
}

/** What a turn ended with, and everything it took to get there. */
export interface TurnOutcome {
  readonly stopReason: StopReason;
  readonly assistantMessage: string | null;
  readonly toolCalls: readonly ToolCall[];
  readonly validationRequest: ValidationRequest | null;
  readonly modelCalls: number;
  readonly retries: readonly RetryRecord[];
  /** The repairs of the calls handed to the node (`toolCalls`), none of any other attempt. */
  readonly repairs: readonly Repair[];
  /**
   * Repairs made in every attempt of the turn, calls the model redid included (for the metrics);
   * absent in answers recorded before it was counted.
   */
  readonly attemptRepairs?: number;
  /** True when the turn ended because it reached the model-call bound. */
  readonly stepLimitReached: boolean;
  /** Tokens of all the turn's model calls; null when the server reports none. */
  readonly usage: TokenUsage | null;
  /**
   * True when the node's commands wrote the final answer and the model was not asked
   * (command-messages.ts); absent otherwise, and in answers recorded before there was such a turn.
   */
  readonly answeredByCommands?: boolean;
}
