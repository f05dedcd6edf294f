import type { ChatMessage } from '../../chat/chat-message';
import type { TurnAction, TurnContext, TurnState } from '../../conversation/turn/turn-state';
import type { CompileCheck } from '../../conversation/turn/untrusted-work';
import type { CommandSetSource } from '../../params';
import type { ModelReply } from '../../ports/language-model';

/**
 * The messages between the pool and its worker. Only plain data crosses (structured clone): the
 * compiled command set (ajv functions) and the id generator stay on their side. The worker
 * compiles the registration it is sent (its own cache, keyed by hash) and asks for ids through
 * `IdChannel`.
 */
export type PortableContext = Omit<TurnContext, 'commandSet' | 'ids' | 'serverTools'> & {
  readonly serverTools: Omit<TurnContext['serverTools'], 'commandSet'>;
};

/**
 * The messages of the state a step returns: the first `kept` of those it was sent, unchanged,
 * then `added`. Only what the step added crosses back: the history is hundreds of small objects,
 * and cloning it (serialized on one side, deserialized on the other) cost as much as the step.
 * `messages`, the whole list, when the step did not keep the ones it was sent as they were.
 */
export type ReturnedMessages =
  | { readonly kept: number; readonly added: readonly ChatMessage[] }
  | { readonly messages: readonly ChatMessage[] };

type PortableActionOf<Action> = Action extends { readonly state: TurnState }
  ? Omit<Action, 'state'> & {
      readonly state: Omit<TurnState, 'messages'> & { readonly messages: ReturnedMessages };
    }
  : never;
export type PortableAction = PortableActionOf<TurnAction>;

export type WorkRequest =
  | { readonly kind: 'compile'; readonly job: number; readonly source: CommandSetSource }
  | {
      readonly kind: 'step';
      readonly job: number;
      readonly state: TurnState;
      readonly reply: ModelReply;
      readonly context: PortableContext;
      readonly commandSetHash: string;
      readonly commandSource: string;
    };

export type WorkReply =
  | { readonly kind: 'ready' }
  | { readonly kind: 'id'; readonly prefix: string }
  | { readonly kind: 'compiled'; readonly job: number; readonly check: CompileCheck }
  | { readonly kind: 'stepped'; readonly job: number; readonly action: PortableAction }
  | { readonly kind: 'failed'; readonly job: number; readonly message: string };

/** The worker side: the action a step returned, with only the messages it added. */
export function portableAction(action: TurnAction, sent: readonly ChatMessage[]): PortableAction {
  const { messages } = action.state;
  let kept = 0;
  while (kept < sent.length && kept < messages.length && messages[kept] === sent[kept]) kept += 1;
  const returned: ReturnedMessages =
    kept === sent.length ? { kept, added: messages.slice(kept) } : { messages };
  return { ...action, state: { ...action.state, messages: returned } } as PortableAction;
}

/** The pool side: the step's action whole again, the messages kept being the pool's own. */
export function actionOf(portable: PortableAction, sent: readonly ChatMessage[]): TurnAction {
  const returned = portable.state.messages;
  const messages =
    'kept' in returned ? [...sent.slice(0, returned.kept), ...returned.added] : returned.messages;
  return { ...portable, state: { ...portable.state, messages } } as TurnAction;
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
