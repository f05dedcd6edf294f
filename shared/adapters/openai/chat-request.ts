import type {
  ChatCompletionCreateParamsNonStreaming,
  ChatCompletionFunctionTool,
  ChatCompletionMessageParam,
} from 'openai/resources/chat/completions';
import type { ChatMessage, ToolDefinition } from '../../chat/chat-message';
import type { ModelRequest } from '../../ports/language-model';
import type { ThinkingFields } from './thinking-fields';

/** What the adapter adds to every request besides the conversation itself. */
export interface ChatRequestSettings {
  readonly model: string;
  readonly temperature?: number;
  readonly maxTokens?: number;
  /** Send `prompt_cache_key` (OpenAI takes it; other servers may refuse unknown fields). */
  readonly sendPromptCacheKey?: boolean;
}

/**
 * Our `ChatMessage` in the Chat Completions wire shape. Assistant tool calls become
 * `tool_calls` of type `function`; tool results carry their `tool_call_id`.
 */
export function toOpenAiMessage(message: ChatMessage): ChatCompletionMessageParam {
  switch (message.role) {
    case 'system':
    case 'user':
      return { role: message.role, content: message.content };
    case 'tool':
      return { role: 'tool', tool_call_id: message.toolCallId, content: message.content };
    case 'assistant':
      // The API rejects an empty `tool_calls` array, and a null content without tool calls.
      if (message.toolCalls.length === 0) {
        return { role: 'assistant', content: message.content ?? '' };
      }
      return {
        role: 'assistant',
        content: message.content,
        tool_calls: message.toolCalls.map((call) => ({
          id: call.id,
          type: 'function',
          function: { name: call.name, arguments: call.arguments },
        })),
      };
  }
}

/** A tool declaration in the Chat Completions wire shape (a mutable copy the SDK accepts). */
export function toOpenAiTool(tool: ToolDefinition): ChatCompletionFunctionTool {
  return {
    type: 'function',
    function: {
      name: tool.function.name,
      description: tool.function.description,
      parameters: { ...tool.function.parameters },
      ...(tool.function.strict === true ? { strict: true } : {}),
    },
  };
}

/**
 * The body of one `/chat/completions` call. `tools` and `tool_choice` are left out together when
 * there are no tools: the API rejects an empty `tools` array and a `tool_choice` without tools.
 * `max_tokens` rather than `max_completion_tokens`, because every OpenAI-compatible server
 * (vLLM, llama.cpp, Ollama) understands the older name. `thinking` holds the fields that ask the
 * server not to think, in its own form (thinking-fields.ts); the SDK sends fields it does not type.
 * `sendToolChoice` false leaves `tool_choice` out (a server that refused `required`).
 */
export function buildChatRequest(
  request: ModelRequest,
  settings: ChatRequestSettings,
  thinking: ThinkingFields = {},
  sendToolChoice = true,
): ChatCompletionCreateParamsNonStreaming {
  const { model, ...fields } = requestFields(request, settings, thinking, sendToolChoice);
  return {
    model,
    messages: request.messages.map(toOpenAiMessage),
    ...(request.tools.length > 0 ? { tools: request.tools.map(toOpenAiTool) } : {}),
    ...fields,
  };
}

/**
 * `JSON.stringify(buildChatRequest(...))`, from each message's and each tool list's JSON written
 * once. A request sends the whole history and every tool, though a turn adds a message or two
 * and a command set's tools never change (a 38 KB request: 113 µs encoded whole, 12 µs from
 * the kept texts). The history's messages and the tool list are the same objects from one
 * call to the next (the container keeps the history it read; run-turn.ts keeps a set's tools).
 */
export function chatRequestText(
  request: ModelRequest,
  settings: ChatRequestSettings,
  thinking: ThinkingFields = {},
  sendToolChoice = true,
): string {
  const { model, ...fields } = requestFields(request, settings, thinking, sendToolChoice);
  const messages = request.messages.map(messageText).join(',');
  const tools = request.tools.length > 0 ? `,"tools":${toolsText(request.tools)}` : '';
  const rest = JSON.stringify(fields).slice(1, -1);
  return `{"model":${JSON.stringify(model)},"messages":[${messages}]${tools}${rest === '' ? '' : `,${rest}`}}`;
}

const messageTexts = new WeakMap<ChatMessage, string>();
const toolTexts = new WeakMap<readonly ToolDefinition[], string>();

function messageText(message: ChatMessage): string {
  let text = messageTexts.get(message);
  if (text === undefined) {
    text = JSON.stringify(toOpenAiMessage(message));
    messageTexts.set(message, text);
  }
  return text;
}

function toolsText(tools: readonly ToolDefinition[]): string {
  let text = toolTexts.get(tools);
  if (text === undefined) {
    text = JSON.stringify(tools.map(toOpenAiTool));
    toolTexts.set(tools, text);
  }
  return text;
}

/** Every field of the body but the messages and the tools, in the order they are sent. */
function requestFields(
  request: ModelRequest,
  settings: ChatRequestSettings,
  thinking: ThinkingFields,
  sendToolChoice: boolean,
): Omit<ChatCompletionCreateParamsNonStreaming, 'messages' | 'tools'> {
  return {
    model: settings.model,
    ...(request.tools.length > 0 && sendToolChoice ? { tool_choice: request.toolChoice } : {}),
    ...(settings.temperature === undefined ? {} : { temperature: settings.temperature }),
    ...maxTokensOf(request.maxTokens ?? settings.maxTokens),
    ...(settings.sendPromptCacheKey === true && request.cacheKey !== undefined
      ? { prompt_cache_key: request.cacheKey }
      : {}),
    ...thinking,
  };
}

function maxTokensOf(maxTokens: number | undefined): { max_tokens?: number } {
  return maxTokens === undefined ? {} : { max_tokens: maxTokens };
}
