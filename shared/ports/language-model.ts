import type { ChatMessage, ToolDefinition } from '../chat/chat-message';

export interface ModelRequest {
  readonly messages: readonly ChatMessage[];
  readonly tools: readonly ToolDefinition[];
  /** `required` forces a tool call (used for the must-call retry); `auto` lets the model choose. */
  readonly toolChoice: 'auto' | 'required';
  /** Overrides the adapter's `max_tokens` for this request (a warm-up asks for 1). */
  readonly maxTokens?: number;
  /**
   * Names the prompt prefix shared by every request of a command set (its hash), for providers
   * that route by it to a warm prefix cache (OpenAI's `prompt_cache_key`).
   */
  readonly cacheKey?: string;
}

/** A tool call as the model sent it, before any parsing or repair. */
export interface RawToolCall {
  /** Missing or empty ids happen with small local models; the engine assigns one. */
  readonly id: string | null;
  readonly name: string;
  /** A JSON string as the API specifies, but also an object or `""` in the wild. */
  readonly arguments: unknown;
}

/** Tokens one model call used, as the server reported them. */
export interface TokenUsage {
  readonly promptTokens: number;
  readonly completionTokens: number;
  /** Prompt tokens served from the server's prefix cache (0 when it says nothing of it). */
  readonly cachedTokens: number;
  /**
   * Completion tokens spent thinking (`completion_tokens_details.reasoning_tokens`); absent when the
   * server says nothing of it. Part of `completionTokens`, never added to it.
   */
  readonly reasoningTokens?: number;
}

export interface ModelReply {
  readonly content: string | null;
  readonly toolCalls: readonly RawToolCall[];
  /** `length` means the server cut the reply off at its token limit. */
  readonly finishReason: string | null;
  /** Null when the server reports no usage. */
  readonly usage?: TokenUsage | null;
}

export interface ModelCallOptions {
  /** Time left for this call, retries included; the adapter never waits past it. */
  readonly timeoutMs: number;
  readonly signal?: AbortSignal;
  /**
   * The model may go on evaluating this request's prompt after answering it `timeout`, so that
   * the next request sharing its prefix finds it evaluated: a warm-up's purpose. A model server
   * does so by itself; the embedded model only when asked (a turn past its deadline stops).
   */
  readonly finishPromptPastTimeout?: boolean;
}

/** One chat completion with tools. Failures are thrown as `LanguageModelError`. */
export interface LanguageModel {
  complete(request: ModelRequest, options: ModelCallOptions): Promise<ModelReply>;
}

export const LanguageModelFailure = {
  /** 429 after the allowed retries. */
  rateLimited: 'rate_limited',
  /** 5xx or a connection failure after the allowed retries. */
  unavailable: 'unavailable',
  /** No reply within the time given. */
  timeout: 'timeout',
  /** 200 with no choices, a body that is not JSON, or a reply cut off. */
  malformedReply: 'malformed_reply',
  /** 4xx other than 429: the request itself was refused (bad key, unknown model...). */
  rejected: 'rejected',
  /**
   * The model runs in this process and every slot and queue place is taken (the embedded model):
   * asked again in a moment, it answers.
   */
  busy: 'busy',
  /** The cloud provider refused who we are: no credentials, or expired or invalid ones. */
  credentialsRejected: 'credentials_rejected',
  /** The identity may not call the model: its IAM policy lacks the action. */
  permissionDenied: 'permission_denied',
  /** The account has not been given this model in this region (or the region has no such model). */
  modelAccessDenied: 'model_access_denied',
} as const;
export type LanguageModelFailure = (typeof LanguageModelFailure)[keyof typeof LanguageModelFailure];

export class LanguageModelError extends Error {
  override readonly name = 'LanguageModelError';
  constructor(
    readonly failure: LanguageModelFailure,
    message: string,
    readonly attempts: number,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
