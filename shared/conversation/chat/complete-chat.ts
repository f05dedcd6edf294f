/**
 * chat: the node's own messages to the model, as they are, with no tools and no conversation:
 * 1. a missing model is a 503, before anything else is read;
 * 2. refuse a `max_tokens` above the server's setting (400) and messages longer together than
 *    the limit (413), before the model is paid for;
 * 3. one model call within the turn deadline; its failures are those of a turn (502, 504);
 * 4. the answer without the model's `<think>` reasoning, as turns speak it.
 */
import type { ChatMessage } from '../../chat/chat-message';
import {
  type LanguageModel,
  LanguageModelError,
  LanguageModelFailure,
  type ModelReply,
  type ModelRequest,
  type TokenUsage,
} from '../../ports/language-model';
import { ModelFailedError, TurnTimeoutError } from '../errors';
import { stripThinkBlocks } from '../tool-calls/strip-think-blocks';
import { requireModel } from '../use-cases/load-conversation';
import { ChatMaxTokensError, ChatTooLargeError } from './chat-errors';
import { CHAT_LIMITS, chatCharacters } from './chat-limits';

export type ChatRole = 'system' | 'user' | 'assistant';

export interface ChatRequest {
  readonly messages: readonly { readonly role: ChatRole; readonly content: string }[];
  /** What the node asks for; null: the server's own `max_tokens`. */
  readonly maxTokens: number | null;
}

export interface ChatSettings {
  /** The whole call, retries included (the turn deadline). */
  readonly deadlineMs: number;
  /** The server's `max_tokens` (MODEL_MAX_TOKENS): the most a node may ask for; null: no cap known. */
  readonly maxTokens: number | null;
}

export interface ChatDependencies {
  /** Null when no model is configured: a 503. */
  readonly model: LanguageModel | null;
  readonly settings: ChatSettings;
}

export interface ChatAnswer {
  /** The reply's text without reasoning blocks, trimmed; empty when the model said nothing else. */
  readonly content: string;
  /** As the server sent it (`stop`, `length`...); null when it sent none. */
  readonly finishReason: string | null;
  readonly usage: TokenUsage | null;
}

/** The model's answer to `request`; the errors above, or the turn's, when there is none. */
export async function completeChat(
  dependencies: ChatDependencies,
  request: ChatRequest,
): Promise<ChatAnswer> {
  const model = requireModel(dependencies.model);
  const { deadlineMs, maxTokens } = dependencies.settings;
  if (request.maxTokens !== null && maxTokens !== null && request.maxTokens > maxTokens) {
    throw new ChatMaxTokensError(request.maxTokens, maxTokens);
  }
  const characters = request.messages.reduce(
    (sum, message) => sum + chatCharacters(message.content),
    0,
  );
  if (characters > CHAT_LIMITS.totalCharacters) {
    throw new ChatTooLargeError(characters, CHAT_LIMITS.totalCharacters);
  }
  const reply = await callModel(model, deadlineMs, {
    messages: request.messages.map(toChatMessage),
    // No tools: the adapter then sends neither `tools` nor `tool_choice` (servers refuse `[]`).
    tools: [],
    toolChoice: 'auto',
    ...(request.maxTokens === null ? {} : { maxTokens: request.maxTokens }),
  });
  return {
    content: stripThinkBlocks(reply.content ?? '').trim(),
    finishReason: reply.finishReason,
    usage: reply.usage ?? null,
  };
}

function toChatMessage(message: ChatRequest['messages'][number]): ChatMessage {
  return message.role === 'assistant'
    ? { role: 'assistant', content: message.content, toolCalls: [] }
    : { role: message.role, content: message.content };
}

async function callModel(
  model: LanguageModel,
  deadlineMs: number,
  request: ModelRequest,
): Promise<ModelReply> {
  try {
    return await model.complete(request, { timeoutMs: deadlineMs });
  } catch (error) {
    if (!(error instanceof LanguageModelError)) throw error;
    if (error.failure === LanguageModelFailure.timeout) {
      throw new TurnTimeoutError(deadlineMs, 1, { cause: error });
    }
    throw new ModelFailedError(error.failure, 1, { cause: error });
  }
}
