import {
  OpenAiLanguageModel,
  type OpenAiLanguageModelOptions,
} from '../../../shared/adapters/openai';
import type { ChatMessage, ToolDefinition } from '../../../shared/chat/chat-message';
import { LanguageModelError, type ModelRequest } from '../../../shared/ports/language-model';

/** Long and distinctive, so a leak into a message cannot go unnoticed. */
export const secretApiKey = 'sk-test-SECRET-0123456789abcdef';

/** The adapter as the tests drive it: short backoff so retries take milliseconds. */
export const modelFor = (
  baseURL: string,
  overrides: Partial<OpenAiLanguageModelOptions> = {},
): OpenAiLanguageModel =>
  new OpenAiLanguageModel({
    baseURL,
    apiKey: secretApiKey,
    model: 'test-model',
    backoff: { baseDelayMs: 10, maxDelayMs: 40, maxAttempts: 8 },
    ...overrides,
  });

export const weatherTool: ToolDefinition = {
  type: 'function',
  function: {
    name: 'get_weather',
    description: 'Forecast for a city',
    parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  },
};

export const userAsks = (content: string): ChatMessage => ({ role: 'user', content });

export const requestOf = (
  messages: readonly ChatMessage[],
  tools: readonly ToolDefinition[] = [weatherTool],
  toolChoice: ModelRequest['toolChoice'] = 'auto',
): ModelRequest => ({ messages, tools, toolChoice });

/** The `LanguageModelError` a call rejects with; fails the test when it resolves or throws another error. */
export async function failureOf(call: Promise<unknown>): Promise<LanguageModelError> {
  try {
    await call;
  } catch (error) {
    if (error instanceof LanguageModelError) {
      return error;
    }
    throw error;
  }
  throw new Error('expected the call to fail with a LanguageModelError, but it succeeded');
}
