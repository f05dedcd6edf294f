import type OpenAI from 'openai';
import {
  type LanguageModel,
  LanguageModelError,
  LanguageModelFailure,
  type ModelCallOptions,
  type ModelReply,
  type ModelRequest,
} from '../../ports/language-model';
import { systemTiming, type Timing } from '../system/timing';
import {
  errorOutcome,
  faultOutcome,
  type SubsegmentOutcome,
  throttleOutcome,
} from '../tracing/subsegment-outcome';
import { traced } from '../tracing/xray-subsegments';
import { SentSecrets } from './bedrock-signing-fetch';
import { type AttemptOutcome, attemptChat } from './chat-attempt';
import { type ChatRequestSettings, chatRequestText } from './chat-request';
import type { AttemptFailure, Redact } from './classify-failure';
import { type OpenAiServer, openAiSdkClient, redactKey } from './openai-sdk-client';
import { REPLY_BODY_LIMIT_BYTES } from './reply-body-limit';
import { type BackoffSettings, backoffDelayMs, defaultBackoff } from './retry-delay';
import { ThinkingControl, type ThinkingSettings, type ThinkingWarning } from './thinking-control';
import { ToolChoiceControl } from './tool-choice-control';
import { tracedCompletionsUrl } from './traced-completions-url';

export interface OpenAiLanguageModelOptions extends OpenAiServer {
  readonly model: string;
  readonly temperature?: number;
  readonly maxTokens?: number;
  readonly backoff?: Partial<BackoffSettings>;
  /** Send OpenAI's `prompt_cache_key`; default: only to api.openai.com, which documents it. */
  readonly sendPromptCacheKey?: boolean;
  /** MODEL_THINKING and MODEL_SERVER; unset, nothing about thinking is sent. */
  readonly thinking?: ThinkingSettings;
  /** Told once when the server refuses the thinking field (the container's logger). */
  readonly warn?: ThinkingWarning;
  /** The clock of the deadlines, the jitter of the backoff and its waits; the system's by default. */
  readonly timing?: Timing;
}

const isOpenAi = (baseURL: string): boolean => {
  try {
    return new URL(baseURL).hostname === 'api.openai.com';
  } catch {
    return false;
  }
};

const failureSummaries: Record<LanguageModelFailure, string> = {
  rate_limited: 'the model server is rate limiting us',
  unavailable: 'the model server is unavailable',
  timeout: 'the model call ran out of time',
  malformed_reply: 'the model server sent a malformed reply',
  rejected: 'the model server rejected the request',
  busy: 'the model server is busy',
  credentials_rejected: 'AWS refused the credentials of the model call',
  permission_denied: 'the role may not call the model',
  model_access_denied: 'the account has no access to the model',
};

/**
 * The LanguageModel port over the `openai` SDK's Chat Completions API. The SDK's own retries are
 * off: this class retries 429, 5xx, connection failures and timeouts itself, with backoff, so the
 * caller's deadline (`timeoutMs`) rules every wait and every attempt. A malformed reply is not
 * retried: the server did answer, and a second full generation rarely fixes what a broken proxy or
 * server sends while it eats the time the turn has left; but a body over REPLY_BODY_LIMIT_BYTES
 * is cut off unread and retried, since another generation may be of a sane size.
 */
export class OpenAiLanguageModel implements LanguageModel {
  readonly #client: OpenAI;
  readonly #settings: ChatRequestSettings;
  readonly #backoff: BackoffSettings;
  readonly #redact: Redact;
  readonly #timing: Timing;
  /** Where the calls go, for traces (never the key, nor a credential in the URL). */
  readonly #completionsUrl: string;
  readonly #thinking: ThinkingControl;
  readonly #toolChoice: ToolChoiceControl;
  readonly #aws: { readonly region: string } | null;

  constructor(options: OpenAiLanguageModelOptions) {
    const sent = new SentSecrets();
    const withoutKey = redactKey(options.apiKey);
    this.#redact = (text) => sent.redact(withoutKey(text));
    this.#completionsUrl = tracedCompletionsUrl(options.baseURL);
    const signed = options.bedrock === undefined ? {} : { bedrock: { ...options.bedrock, sent } };
    this.#client = openAiSdkClient({ ...options, ...signed }, REPLY_BODY_LIMIT_BYTES);
    this.#settings = {
      model: options.model,
      ...(options.temperature === undefined ? {} : { temperature: options.temperature }),
      ...(options.maxTokens === undefined ? {} : { maxTokens: options.maxTokens }),
      sendPromptCacheKey: options.sendPromptCacheKey ?? isOpenAi(options.baseURL),
    };
    this.#backoff = { ...defaultBackoff, ...options.backoff };
    this.#thinking = new ThinkingControl(
      options.thinking ?? { thinking: 'on', server: 'auto' },
      { baseURL: options.baseURL, model: options.model, bedrock: options.bedrock !== undefined },
      options.warn ?? (() => undefined),
    );
    this.#toolChoice = new ToolChoiceControl(options.warn ?? (() => undefined));
    this.#timing = options.timing ?? systemTiming;
    this.#aws = options.bedrock === undefined ? null : { region: options.bedrock.region };
  }

  /**
   * One chat completion, retried within `options.timeoutMs`; failures throw `LanguageModelError`.
   * In a traced invocation it is its own X-Ray subsegment (`model <name>`, retries included).
   */
  complete(request: ModelRequest, options: ModelCallOptions): Promise<ModelReply> {
    const facts = {
      name: `model ${this.#settings.model}`,
      namespace: 'remote' as const,
      http: { request: { url: this.#completionsUrl, method: 'POST' } },
      outcome: modelCallOutcome,
      timing: this.#timing,
    };
    return traced(facts, () => this.#complete(request, options));
  }

  async #complete(request: ModelRequest, options: ModelCallOptions): Promise<ModelReply> {
    const deadline = this.#timing.monotonic() + options.timeoutMs;
    let lastFailure: AttemptFailure | null = null;
    for (let attempt = 1; ; attempt += 1) {
      const remainingMs = deadline - this.#timing.monotonic();
      if (!(remainingMs > 0) || options.signal?.aborted) {
        // Only reached when the time was gone before the first attempt, or a timer fired late.
        throw lastFailure === null
          ? this.#error(LanguageModelFailure.timeout, 'no time left to call the model', attempt - 1)
          : this.#failedAfter(lastFailure, attempt - 1);
      }
      const outcome = await this.#attemptAsking(request, remainingMs, options.signal);
      if (outcome.ok) {
        return outcome.reply;
      }
      lastFailure = outcome.failed;
      if (!lastFailure.retryable || attempt >= this.#backoff.maxAttempts) {
        throw this.#failedAfter(lastFailure, attempt);
      }
      const delayMs =
        lastFailure.retryAfterMs ?? backoffDelayMs(attempt, this.#backoff, this.#timing.random());
      if (this.#timing.monotonic() + delayMs >= deadline) {
        // Never sleep past the deadline: waiting for a retry there is no time to make is useless.
        const late = `${lastFailure.detail}; a retry in ${Math.round(delayMs)} ms would end past the deadline`;
        throw this.#failedAfter({ ...lastFailure, detail: late }, attempt);
      }
      await this.#pause(delayMs, options.signal, lastFailure, attempt);
    }
  }

  /**
   * One attempt with the thinking fields and the tool choice; a server that refuses one of them
   * (a 400 naming it) is asked again at once without it, and never sent it again: a turn never
   * fails for them. Each is dropped once, so this asks at most three times.
   */
  async #attemptAsking(
    request: ModelRequest,
    remainingMs: number,
    signal: AbortSignal | undefined,
  ): Promise<AttemptOutcome> {
    for (;;) {
      const sent = this.#thinking.fields;
      const sendsChoice = this.#toolChoice.sends(request.toolChoice);
      const outcome = await this.#attempt(
        chatRequestText(request, this.#settings, sent, sendsChoice),
        remainingMs,
        signal,
      );
      if (outcome.ok) return outcome;
      const choice = sendsChoice ? request.toolChoice : null;
      const refused =
        this.#thinking.refusedBy(outcome.failed, sent) ||
        this.#toolChoice.refusedBy(outcome.failed, choice);
      // A refusal comes back at once: the time left is what it was.
      if (!refused) return outcome;
    }
  }

  #attempt(
    body: string,
    remainingMs: number,
    signal: AbortSignal | undefined,
  ): Promise<AttemptOutcome> {
    const attempt = {
      client: this.#client,
      redact: this.#redact,
      now: () => this.#timing.now(),
      aws: this.#aws,
    };
    return attemptChat(attempt, body, remainingMs, signal);
  }

  async #pause(
    delayMs: number,
    signal: AbortSignal | undefined,
    lastFailure: AttemptFailure,
    attempts: number,
  ): Promise<void> {
    try {
      await this.#timing.sleep(delayMs, signal);
    } catch {
      throw this.#error(
        LanguageModelFailure.timeout,
        `the call was cancelled by the caller while waiting to retry (${lastFailure.detail})`,
        attempts,
        lastFailure.cause,
      );
    }
  }

  #failedAfter(failed: AttemptFailure, attempts: number): LanguageModelError {
    return this.#error(failed.failure, failed.detail, attempts, failed.cause);
  }

  #error(
    failure: LanguageModelFailure,
    detail: string,
    attempts: number,
    cause?: Error,
  ): LanguageModelError {
    const message = `${failureSummaries[failure]} (model ${this.#settings.model}, ${attempts} attempt${
      attempts === 1 ? '' : 's'
    }): ${detail}`;
    return new LanguageModelError(failure, this.#redact(message), attempts, cause ? { cause } : {});
  }
}

/**
 * How a failed model call shows in X-Ray: a refusal (4xx) is an error of the request, rate
 * limiting (429) a throttle, and a server that failed, timed out or sent garbage a fault.
 */
const modelCallOutcome = (error: unknown): SubsegmentOutcome => {
  if (!(error instanceof LanguageModelError)) return faultOutcome;
  if (error.failure === LanguageModelFailure.rateLimited) return throttleOutcome;
  return error.failure === LanguageModelFailure.rejected ? errorOutcome : faultOutcome;
};
