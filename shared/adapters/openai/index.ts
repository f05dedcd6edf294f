export type { ChatRequestSettings } from './chat-request';
export { buildChatRequest, toOpenAiMessage, toOpenAiTool } from './chat-request';
export { OpenAiLanguageModel, type OpenAiLanguageModelOptions } from './openai-language-model';
export { readChatReply } from './read-chat-reply';
export { type BackoffSettings, defaultBackoff } from './retry-delay';
