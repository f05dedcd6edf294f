import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import type { LocalModelStack } from './local-model-stack';
import {
  type CallWindow,
  type ModelWriting,
  modeledCallMs,
  modelWritingDuring,
} from './modeled-time';

/** One API request as the bench saw it, its duration on the modeled clock. */
export interface TimedCall {
  readonly route: string;
  readonly status: number;
  /** `error.code` of a refusal, e.g. `turn_timeout`. */
  readonly errorCode: string | null;
  readonly stopReason: string | null;
  readonly modelCalls: number | null;
  readonly toolCallIds: readonly string[];
  /** What conversation/start says of its warm-up (`warmed`, `recently_warmed`...); null elsewhere. */
  readonly warmUp: string | null;
  readonly modeledMs: number;
  /** Of it, the model generating its reply: what no server in front of it can shorten. */
  readonly writing: ModelWriting;
  readonly window: CallWindow;
}

interface ResponseBody {
  readonly stop_reason?: unknown;
  readonly model_calls?: unknown;
  readonly tool_calls?: readonly { readonly id?: unknown }[];
  readonly warmup?: unknown;
  readonly error?: { readonly code?: unknown };
}

const REGISTRATION: Record<string, unknown> = JSON.parse(
  readFileSync(
    new URL('../../test/fixtures/voice-node-conversation-start.json', import.meta.url),
    'utf8',
  ),
);

/** The API routes a voice node calls in an exchange, timed and costed on the modeled clock. */
export class LocalModelClient {
  constructor(private readonly stack: LocalModelStack) {}

  /**
   * A start with the fixture's commands, the first description marked with `commandSet`: another
   * mark is another command set (another hash), one the API's container has never warmed.
   */
  start(conversationId: string, warmUp: boolean, commandSet: string): Promise<TimedCall> {
    const [first, ...rest] = REGISTRATION.available_commands as Record<string, unknown>[];
    return this.#post('/api/v0/conversation/start', {
      ...REGISTRATION,
      available_commands: [
        { ...first, description: `${String(first?.description)} (${commandSet})` },
        ...rest,
      ],
      conversation_id: conversationId,
      skip_warmup_inference: !warmUp,
    });
  }

  command(conversationId: string, utterance: string): Promise<TimedCall> {
    return this.#post('/api/v0/voice/command', {
      conversation_id: conversationId,
      voice_command: utterance,
    });
  }

  continue(
    conversationId: string,
    toolCallIds: readonly string[],
    output: unknown,
  ): Promise<TimedCall> {
    return this.#post('/api/v0/voice/command/continue', {
      conversation_id: conversationId,
      tool_results: toolCallIds.map((id) => ({ tool_call_id: id, output })),
    });
  }

  async #post(route: string, body: unknown): Promise<TimedCall> {
    const realStartMs = performance.now();
    const response = await fetch(`${this.stack.url}${route}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': this.stack.apiKey },
      body: JSON.stringify(body),
    });
    const text = await response.text();
    const window = { realStartMs, realEndMs: performance.now() };
    let parsed: ResponseBody = {};
    try {
      parsed = JSON.parse(text) as ResponseBody;
    } catch {
      // Not JSON: reported through the status.
    }
    const model = this.stack.model;
    return {
      route,
      status: response.status,
      errorCode: typeof parsed.error?.code === 'string' ? parsed.error.code : null,
      stopReason: typeof parsed.stop_reason === 'string' ? parsed.stop_reason : null,
      modelCalls: typeof parsed.model_calls === 'number' ? parsed.model_calls : null,
      toolCallIds: (parsed.tool_calls ?? []).map((call) => String(call.id)),
      warmUp: typeof parsed.warmup === 'string' ? parsed.warmup : null,
      modeledMs: modeledCallMs(window, model.served, model.timeScale),
      writing: modelWritingDuring(window, model.served),
      window,
    };
  }
}
