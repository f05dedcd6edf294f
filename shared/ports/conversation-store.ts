import type { ChatMessage } from '../chat/chat-message';

/** A tool call handed to the node (or a clarification asked of the user) awaiting its result. */
export interface PendingToolCall {
  readonly id: string;
  readonly name: string;
}

/**
 * The response to a request sent with a request id, kept so a repeat gets the same answer without
 * a second model call. Written in the same save as the turn it answers, so the two never disagree.
 */
export interface RecordedResponse {
  readonly requestId: string;
  /** Hash of what the request asked; the same id with another body is refused, not replayed. */
  readonly fingerprint: string;
  /** The turn's outcome as JSON: opaque to the store. */
  readonly outcome: string;
  /** Epoch milliseconds. */
  readonly recordedAt: number;
  /**
   * The conversation version the save that recorded it produced. A stream handoff's record
   * replays only while the conversation is still at it (absent on records older than this field).
   */
  readonly conversationVersion?: number;
}

/**
 * What a conversation keeps of the node's `agents`, rendered once at conversation/start
 * (shared/conversation/home): the text the model reads in front of the first user message of
 * every request, and the entity ids calls are checked against. The same bytes on every turn, so
 * the prompt prefix stays cacheable.
 */
export interface HomeContext {
  /** The home block of the prompt (devices, other agents' data); '' when there is nothing. */
  readonly prompt: string;
  /** The entity ids of the devices the node reported, in its order. */
  readonly entityIds: readonly string[];
  /** false when the node reported devices that were not kept: an unknown id may still exist. */
  readonly entityIdsComplete: boolean;
}

/** One conversation as stored: keyed by node and conversation id, versioned for optimistic locking. */
export interface ConversationRecord {
  readonly nodeId: string;
  readonly conversationId: string;
  /** Incremented by every save; a save names the version it read. */
  readonly version: number;
  /** Epoch milliseconds. */
  readonly createdAt: number;
  readonly updatedAt: number;
  /** Epoch seconds (the DynamoDB TTL attribute); loads treat a past value as absent. */
  readonly expiresAt: number;
  /** The effective IANA zone of the node for this conversation. */
  readonly timezone: string;
  readonly room: string | null;
  /** The node's home as it reported it at start; absent or null when it reported none. */
  readonly home?: HomeContext | null;
  /** The speaker the node named at start (`node_context.speaker_user_id`), an opaque id. */
  readonly speakerUserId?: number | null;
  /** The validated command registration (`available_commands`, `client_tools`) as canonical JSON. */
  readonly commandSource: string;
  /** Content hash of `commandSource`: the key of the compiled-command-set cache. */
  readonly commandSetHash: string;
  /** The history without the system prompt, which is rebuilt from the command set. */
  readonly messages: readonly ChatMessage[];
  readonly pendingToolCalls: readonly PendingToolCall[];
  /** The latest requests that came with a request id, oldest first, bounded. */
  readonly recentResponses: readonly RecordedResponse[];
}

/**
 * A request's claim on its conversation while its turn runs, so that a copy of the request (a
 * node that timed out and resent, or continue/stream and the blocking continue with the same
 * results) never reaches the model a second time.
 */
export interface TurnClaim {
  /** The claiming request's id (the node's, or derived from a continue's results). */
  readonly requestId: string;
  /** Hash of what the claiming request asked: a request finding the same is a copy of it. */
  readonly fingerprint: string;
  /** Epoch milliseconds after which the claim is void: its request died without releasing it. */
  readonly heldUntil: number;
}

export type ClaimedConversation =
  /** The claim is ours (`token` names it) and `record` is the conversation as claimed. */
  | { readonly claimed: true; readonly token: string; readonly record: ConversationRecord }
  /**
   * A live claim of another request holds the conversation (`holder` says which request and what
   * it asked), or the conversation does not exist (`record` null, as `load` says).
   */
  | {
      readonly claimed: false;
      readonly holder: Pick<TurnClaim, 'requestId' | 'fingerprint'> | null;
      readonly record: ConversationRecord | null;
    };

export interface ConversationStore {
  /** The conversation, or null when it does not exist, has expired, or belongs to another node. */
  load(nodeId: string, conversationId: string): Promise<ConversationRecord | null>;
  /**
   * Claims the conversation for one turn unless a live claim holds it, and reads it, in one
   * request. The turn's `save` gives the claim up; `release` gives it up without a save.
   */
  claim(nodeId: string, conversationId: string, claim: TurnClaim): Promise<ClaimedConversation>;
  /**
   * Gives up the claim `token` names if it still holds; another request's claim is left alone.
   * With `recentResponses`, writes them in the same request (an answer replayed to a request id
   * that had no record of its own, now recorded under it); nothing else changes, the version
   * neither.
   */
  release(
    nodeId: string,
    conversationId: string,
    token: string,
    recentResponses?: readonly RecordedResponse[],
  ): Promise<void>;
  /** Creates or replaces the conversation unconditionally (conversation/start); ends any claim. */
  replace(record: ConversationRecord): Promise<void>;
  /**
   * Writes `record` only if the stored version is still `expectedVersion`; otherwise throws
   * `ConversationConflictError` and writes nothing. The write ends any claim on the conversation.
   */
  save(record: ConversationRecord, expectedVersion: number): Promise<void>;
}

/** Another request changed the conversation between our read and our write. */
export class ConversationConflictError extends Error {
  override readonly name = 'ConversationConflictError';
  constructor(
    readonly nodeId: string,
    readonly conversationId: string,
    readonly expectedVersion: number,
    options?: { cause?: unknown },
  ) {
    super(`conversation ${conversationId} changed since version ${expectedVersion}`, options);
  }
}

/**
 * The conversation, as it would be stored, is over a size limit: the registration at start, the
 * exchange before the model is asked, or (as a last guard) the item at the store. Raised before
 * anything is written, so the conversation stays as it was.
 */
export class ConversationTooLargeError extends Error {
  override readonly name = 'ConversationTooLargeError';
  constructor(
    readonly conversationId: string,
    readonly part: 'registration' | 'exchange' | 'item',
    readonly sizeBytes: number,
    readonly limitBytes: number,
  ) {
    super(
      `the ${part} of conversation ${conversationId} takes ${sizeBytes} bytes, over ${limitBytes}`,
    );
  }
}

/** The database could not be reached or refused the request for reasons of its own. */
export class StorageUnavailableError extends Error {
  override readonly name = 'StorageUnavailableError';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}
