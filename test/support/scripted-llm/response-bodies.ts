import type { RecordedRequest, ReplyStep } from './script-types';

/** Counters that make ids look real yet stay predictable within one server. */
export interface IdCounters {
  completions: number;
  toolCalls: number;
}

const estimateTokens = (text: string): number => Math.max(1, Math.ceil(text.length / 4));

/**
 * A 200 chat completion shaped like the real API's, with one choice. `usage` replaces the rough
 * estimate (the latency model counts tokens for real).
 */
export function completionBody(
  step: ReplyStep,
  request: RecordedRequest,
  counters: IdCounters,
  usage?: Record<string, unknown>,
): Record<string, unknown> {
  const toolCalls = (step.reply.tool_calls ?? []).map((call) => {
    counters.toolCalls += 1;
    const id = call.id === undefined ? `call_scripted_${counters.toolCalls}` : call.id;
    return {
      ...(id === null ? {} : { id }),
      type: 'function',
      function: { name: call.name, arguments: call.arguments },
    };
  });
  const message = {
    role: 'assistant',
    content:
      step.reply.content === undefined ? (toolCalls.length > 0 ? null : '') : step.reply.content,
    ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
    refusal: null,
    annotations: [],
  };
  counters.completions += 1;
  // The whole request, tools included, as a real server counts its prompt; and no second
  // serialization of the history per call (the instant model of the turn bench answers here).
  const promptTokens = Math.max(1, Math.ceil(request.bodyLength / 4));
  const completionTokens = estimateTokens(JSON.stringify(message));
  return {
    id: `chatcmpl-scripted-${counters.completions}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: typeof request.body?.model === 'string' ? request.body.model : 'scripted-model',
    choices: [
      {
        index: 0,
        message,
        logprobs: null,
        finish_reason: step.reply.finish_reason ?? (toolCalls.length > 0 ? 'tool_calls' : 'stop'),
      },
    ],
    usage: usage ?? {
      prompt_tokens: promptTokens,
      completion_tokens: completionTokens,
      total_tokens: promptTokens + completionTokens,
    },
    service_tier: 'default',
    system_fingerprint: 'fp_scripted',
  };
}

const errorTypes: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'invalid_request_error',
  403: 'invalid_request_error',
  404: 'invalid_request_error',
  429: 'requests',
};

/** An error body shaped like the real API's: `{error: {message, type, param, code}}`. */
export function errorBody(
  status: number,
  message: string,
  options: { param?: string | null; code?: string | null } = {},
): Record<string, unknown> {
  return {
    error: {
      message,
      type: errorTypes[status] ?? (status >= 500 ? 'server_error' : 'invalid_request_error'),
      param: options.param ?? null,
      code: options.code ?? null,
    },
  };
}

/** `GET /v1/models`: the one model this server pretends to serve. */
export function modelsBody(): Record<string, unknown> {
  return {
    object: 'list',
    data: [{ id: 'scripted-model', object: 'model', created: 1_700_000_000, owned_by: 'scripted' }],
  };
}
