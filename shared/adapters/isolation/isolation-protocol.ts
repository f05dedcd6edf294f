import type { ChatMessage } from '../../chat/chat-message';
import type { TurnAction, TurnContext, TurnState } from '../../conversation/turn/turn-state';
import type { CompileCheck } from '../../conversation/turn/untrusted-work';
import type { CommandSetSource } from '../../params';
import type { ModelReply } from '../../ports/language-model';

/**
 * The messages between the pool and its worker. Only plain data crosses (structured clone): the
 * compiled command set (ajv functions) and the id generator stay on their side. The worker holds
 * the registrations the pool sent it (`HeldRegistrations` keeps the account) and compiles them
 * (its own cache, keyed by hash); it draws random ids itself, and asks the pool for a test's
 * predictable ones through the shared id buffer.
 */
export type PortableContext = Omit<TurnContext, 'commandSet' | 'ids' | 'serverTools'> & {
  readonly serverTools: Omit<TurnContext['serverTools'], 'commandSet'>;
};

/**
 * A history as it crosses between the pool and its worker: the `kept` messages from index `from`
 * of the history the receiving side already holds (its last one: what the previous step
 * returned, or what this step was sent), then `added`; or `messages`, all of it. The history is
 * hundreds of small objects, and cloning it (serialized on one side, deserialized on the other)
 * cost as much as the step itself, though a step adds a message or two, and a request's history is
 * the one the previous step returned, minus the oldest exchanges the save dropped, plus the new
 * user message or results. The pool and the worker hold one history each, index for index.
 */
export type CrossingMessages =
  | { readonly from: number; readonly kept: number; readonly added: readonly ChatMessage[] }
  | { readonly messages: readonly ChatMessage[] };

type CrossingActionOf<Action> = Action extends { readonly state: TurnState }
  ? Omit<Action, 'state'> & {
      readonly state: Omit<TurnState, 'messages'> & { readonly messages: CrossingMessages };
    }
  : never;
/** A step's action as the worker returns it: its history relative to the one it was sent. */
export type CrossingAction = CrossingActionOf<TurnAction>;

export type WorkRequest =
  | { readonly kind: 'compile'; readonly job: number; readonly source: CommandSetSource }
  | {
      readonly kind: 'step';
      readonly job: number;
      /** Its history relative to what the worker holds (what its previous step returned). */
      readonly state: Omit<TurnState, 'messages'> & { readonly messages: CrossingMessages };
      readonly reply: ModelReply;
      readonly context: PortableContext;
      readonly commandSetHash: string;
      /** The registration's source; null when the worker holds it already. */
      readonly commandSource: string | null;
      /** Registrations the worker drops before this step (`HeldRegistrations`). */
      readonly forget: readonly string[];
      /** Where the step's ids come from: the worker's own random ones, or the pool's generator. */
      readonly ids: 'worker' | 'pool';
    };

export type WorkReply =
  | { readonly kind: 'ready' }
  | { readonly kind: 'id'; readonly prefix: string }
  | { readonly kind: 'compiled'; readonly job: number; readonly check: CompileCheck }
  | { readonly kind: 'stepped'; readonly job: number; readonly action: CrossingAction }
  | { readonly kind: 'failed'; readonly job: number; readonly message: string };

/**
 * `messages` as it crosses to a side that holds `held`: the longest run of `held` (the very
 * objects) it starts with, then the rest; all of it when it starts with none of them.
 */
export function crossing(
  messages: readonly ChatMessage[],
  held: readonly ChatMessage[] | null,
): CrossingMessages {
  const first = messages[0];
  const from = held === null || first === undefined ? -1 : held.indexOf(first);
  if (held === null || from < 0) return { messages };
  let kept = 0;
  while (kept < messages.length && messages[kept] === held[from + kept]) kept += 1;
  return { from, kept, added: messages.slice(kept) };
}

/** The history `crossing` described, on the side that holds `held`. */
export function crossed(
  messages: CrossingMessages,
  held: readonly ChatMessage[] | null,
): readonly ChatMessage[] {
  if ('messages' in messages) return messages.messages;
  if (held === null) throw new Error('isolation: a history relative to none held');
  return [...held.slice(messages.from, messages.from + messages.kept), ...messages.added];
}

/** The worker side: the action a step returned, its history relative to the one it was sent. */
export function crossingAction(action: TurnAction, sent: readonly ChatMessage[]): CrossingAction {
  const messages = crossing(action.state.messages, sent);
  return { ...action, state: { ...action.state, messages } } as CrossingAction;
}

/** The pool side: the step's action whole again, the messages kept being the pool's own. */
export function actionOf(crossingAction: CrossingAction, sent: readonly ChatMessage[]): TurnAction {
  const messages = crossed(crossingAction.state.messages, sent);
  return { ...crossingAction, state: { ...crossingAction.state, messages } } as TurnAction;
}

/** What the worker is started with: the shared buffer ids come back through. */
export interface WorkerSetup {
  readonly idBuffer: SharedArrayBuffer;
}

/** Room for one id: a flag, a length, then UTF-8 bytes. Ids are short (`call_` + a uuid). */
export const ID_BUFFER_BYTES = 8 + 256;

/** The worker blocks on the flag while the pool writes the id the core asked for. */
export function writeId(buffer: SharedArrayBuffer, id: string): void {
  const flag = new Int32Array(buffer, 0, 2);
  const bytes = new TextEncoder().encode(id).subarray(0, ID_BUFFER_BYTES - 8);
  new Uint8Array(buffer, 8).set(bytes);
  Atomics.store(flag, 1, bytes.length);
  Atomics.store(flag, 0, 1);
  Atomics.notify(flag, 0);
}

/** The worker side: waits for the id the pool writes, then clears the flag for the next one. */
export function readId(buffer: SharedArrayBuffer): string {
  const flag = new Int32Array(buffer, 0, 2);
  Atomics.wait(flag, 0, 0);
  const length = Atomics.load(flag, 1);
  // TextDecoder refuses views on shared memory: copy first.
  const id = new TextDecoder().decode(new Uint8Array(buffer, 8, length).slice());
  Atomics.store(flag, 0, 0);
  return id;
}
