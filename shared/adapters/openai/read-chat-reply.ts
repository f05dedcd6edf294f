import { cutPastLimit, REPLY_LIMITS } from '../../conversation/tool-calls/reply-limits';
import { isJsonObject, type JsonObject } from '../../params';
import type { ModelReply, RawToolCall, TokenUsage } from '../../ports/language-model';
import { failure, type Result, success } from '../../result';

/**
 * Reads our `ModelReply` out of a Chat Completions response body without trusting its shape:
 * small local servers send odd things. Only what makes the reply unusable is an issue (no body
 * object, no choice, no message, tool calls that are not a list of calls); everything the engine
 * can judge itself (empty ids, arguments that are objects or broken JSON) passes through as sent,
 * except that a text or an arguments string over REPLY_LIMITS (never read) is cut just past it.
 */
export function readChatReply(body: unknown): Result<ModelReply, string> {
  if (!isJsonObject(body)) {
    return failure([`the body is not a JSON object (got ${describe(body)})`]);
  }
  const choices = body.choices;
  if (!Array.isArray(choices) || choices.length === 0) {
    return failure(['the reply has no choices']);
  }
  const choice: unknown = choices[0];
  if (!isJsonObject(choice) || !isJsonObject(choice.message)) {
    return failure(['the first choice has no message']);
  }
  const toolCalls = readToolCalls(choice.message);
  if (!toolCalls.ok) {
    return toolCalls;
  }
  const usage = readUsage(body.usage);
  return success({
    content:
      typeof choice.message.content === 'string'
        ? cutPastLimit(choice.message.content, REPLY_LIMITS.textBytes)
        : null,
    toolCalls: toolCalls.value,
    finishReason: typeof choice.finish_reason === 'string' ? choice.finish_reason : null,
    ...(usage === null ? {} : { usage }),
  });
}

const count = (value: unknown): number =>
  typeof value === 'number' && Number.isFinite(value) && value >= 0 ? Math.round(value) : 0;

/**
 * The usage block (`prompt_tokens`, `completion_tokens`, and OpenAI's
 * `prompt_tokens_details.cached_tokens` and `completion_tokens_details.reasoning_tokens`); null
 * when the server sent none.
 */
function readUsage(usage: unknown): TokenUsage | null {
  if (!isJsonObject(usage)) return null;
  const details = isJsonObject(usage.prompt_tokens_details) ? usage.prompt_tokens_details : {};
  const completion = isJsonObject(usage.completion_tokens_details)
    ? usage.completion_tokens_details
    : {};
  return {
    promptTokens: count(usage.prompt_tokens),
    completionTokens: count(usage.completion_tokens),
    cachedTokens: count(details.cached_tokens),
    ...(completion.reasoning_tokens === undefined
      ? {}
      : { reasoningTokens: count(completion.reasoning_tokens) }),
  };
}

function readToolCalls(message: JsonObject): Result<readonly RawToolCall[], string> {
  const calls = message.tool_calls;
  if (calls === undefined || calls === null) {
    // Servers that still speak the deprecated single `function_call` shape.
    return success(
      isJsonObject(message.function_call) ? [toRawToolCall(message.function_call, null)] : [],
    );
  }
  if (!Array.isArray(calls)) {
    return failure([`tool_calls is not a list (got ${describe(calls)})`]);
  }
  const read: RawToolCall[] = [];
  for (const [index, call] of calls.entries()) {
    if (!isJsonObject(call) || !isJsonObject(call.function)) {
      return failure([`tool_calls[${index}] has no function`]);
    }
    const id = typeof call.id === 'string' && call.id !== '' ? call.id : null;
    read.push(toRawToolCall(call.function, id));
  }
  return success(read);
}

const toRawToolCall = (callFunction: JsonObject, id: string | null): RawToolCall => ({
  id,
  // A nameless call is kept so the engine can answer "unknown tool" and retry.
  name: typeof callFunction.name === 'string' ? callFunction.name : '',
  arguments:
    typeof callFunction.arguments === 'string'
      ? cutPastLimit(callFunction.arguments, REPLY_LIMITS.argumentsBytes)
      : callFunction.arguments,
});

const describe = (value: unknown): string => {
  if (typeof value === 'string') {
    return `text of ${value.length} characters`;
  }
  return Array.isArray(value) ? 'a list' : String(value === null ? 'null' : typeof value);
};
