import type { ChatMessage } from '../../shared/chat/chat-message';
import type { StopReason } from '../../shared/conversation/turn/turn-outcome';
import type { ModelReply } from '../../shared/ports/language-model';

/** Which command set a case runs against (see probe-commands.ts and the fixture). */
export type CaseCommands = 'fixture' | 'probe' | 'must_call';

/** One row of llm-failure-modes.md, scripted: what the model sends, and the best a server can do. */
export interface FailureModeCase {
  /** The table of llm-failure-modes.md the row belongs to. */
  readonly section: string;
  readonly row: string;
  readonly commands: CaseCommands;
  /** The model's replies in order; the last one is sent again for every further call. */
  readonly replies: readonly [ModelReply, ...ModelReply[]];
  /** The turn starts from the node's tool results (continue) rather than an utterance. */
  readonly toolResultsArrived?: boolean;
  /** The history the turn starts from, instead of one utterance (or the results above). */
  readonly history?: readonly ChatMessage[];
  /** Model calls a perfect server needs: 1 for anything it can repair without changing meaning. */
  readonly minimumCalls: number;
  readonly expectedStop: StopReason;
  /** The arguments the node must receive in the first call, where the row says what they are. */
  readonly handedOver?: Readonly<Record<string, unknown>>;
}
