import type { ChatMessage, ToolCall } from '../../chat/chat-message';
import type { CompiledCommandSet, KnownEntities, Repair } from '../../params';
import type { IdGenerator } from '../../ports/clock';
import type { TokenUsage } from '../../ports/language-model';
import type { EngineSettings } from '../engine-settings';
import type { ServerToolContext } from '../server-tools/run-server-tool';
import type { RetryRecord, TurnOutcome } from './turn-outcome';

/** A repair made to one checked call. */
export interface CallRepair {
  readonly toolCallId: string;
  readonly repair: Repair;
}

/** Everything one turn has decided so far. `step` never mutates it; it returns the next one. */
export interface TurnState {
  /** The history, system prompt excluded, including what this turn added. */
  readonly messages: readonly ChatMessage[];
  readonly modelCalls: number;
  readonly retries: readonly RetryRecord[];
  /** Every repair of every call checked this turn, with its call's id (handedRepairs picks). */
  readonly repairs: readonly CallRepair[];
  /** Valid node calls held back while the model retries the invalid ones of the same reply. */
  readonly keptCalls: readonly ToolCall[];
  /** The node's tool results started this turn (continue): a direct answer is then final. */
  readonly toolResultsArrived: boolean;
  /** Tokens of the turn's model calls so far; null while no server reported any. */
  readonly usage: TokenUsage | null;
  /** Bytes of node-call arguments checked so far this turn (bounded by TURN_LIMITS). */
  readonly argumentBytes?: number;
}

export interface TurnContext {
  readonly commandSet: CompiledCommandSet;
  readonly settings: EngineSettings;
  readonly ids: IdGenerator;
  readonly serverTools: ServerToolContext;
  /**
   * Bytes the newest exchange may hold when the node's results come back (what `continue`
   * accepts before asking the model); the turn hands out only calls whose results fit in it.
   * Absent: no bound (tests and benchmarks of the turn alone).
   */
  readonly exchangeRoomBytes?: number;
  /** The home the node reported at start, if any (shared/conversation/home). */
  readonly home?: TurnHome | null;
}

/** What a turn uses of the node's home: the prompt's home block and the device list's ids. */
export interface TurnHome {
  readonly prompt: string;
  /** Null when the node listed no device: then no id is checked. */
  readonly entities: KnownEntities | null;
}

export type TurnAction =
  | {
      readonly type: 'call_model';
      readonly state: TurnState;
      readonly toolChoice: 'auto' | 'required';
    }
  | { readonly type: 'finish'; readonly state: TurnState; readonly outcome: TurnOutcome }
  /** The model cannot give a usable reply (cut off twice): the turn fails, nothing is saved. */
  | { readonly type: 'fail'; readonly state: TurnState; readonly failure: 'reply_cut_off' };

/** The state a turn starts from, given the history with the new user message or tool results. */
export function startTurn(
  messages: readonly ChatMessage[],
  toolResultsArrived: boolean,
): TurnState {
  return {
    messages,
    modelCalls: 0,
    retries: [],
    repairs: [],
    keptCalls: [],
    toolResultsArrived,
    usage: null,
  };
}
