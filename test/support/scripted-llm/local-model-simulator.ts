import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { type RequestWork, requestWork, scheduleOnSlot } from './latency-arithmetic';
import type { LatencyProfile } from './latency-profile';
import { cachedPrefixLength, type PrefixCache, rememberTokens } from './prefix-cache';
import { qwen3ReplyText, qwen3Text, qwen3Tokens, renderQwen3Prompt } from './qwen3-chat';
import type { RecordedRequest, ReplyStep } from './script-types';

export interface LatencyOptions {
  readonly profile: LatencyProfile;
  /**
   * Modeled milliseconds per real millisecond: at 20 the server sleeps 1/20 of the modeled time,
   * and its clock (arrivals, the slot) runs 20 times faster than the real one. Default 1.
   */
  readonly timeScale?: number;
  /** How many evaluated prompts the server keeps for prefix reuse. Default 4. */
  readonly cacheCapacity?: number;
  /** Real milliseconds, monotonic; a fake one in tests. */
  readonly realNow?: () => number;
}

/** One chat request the simulated server worked on, in modeled milliseconds since it started. */
export interface ServedRequest extends RequestWork {
  readonly request: RecordedRequest;
  readonly arrivalMs: number;
  readonly startMs: number;
  readonly finishMs: number;
  readonly waitMs: number;
  /** Real time (`realNow`) of the arrival, and of the answer or the client's disconnect. */
  readonly realArrivalMs: number;
  realEndMs: number | null;
  /** The client went away before the answer: the slot still worked the request to its end. */
  abandoned: boolean;
}

/** A reply step as the simulated server sends it, and when. */
export interface TimedReply {
  readonly step: ReplyStep;
  readonly served: ServedRequest;
  readonly realDelayMs: number;
  readonly usage: Record<string, unknown>;
}

const DEFAULT_CACHE_CAPACITY = 4;

/**
 * A single-slot local model server (llama.cpp with one slot, as node-llama-cpp runs it): requests
 * run one at a time in arrival order, each pays its queue wait, its uncached prompt suffix and its
 * generation (`latency-arithmetic.ts`); a request whose client left keeps the slot until done.
 * Each request is costed when it arrives: in arrival order, everything before it will have been
 * evaluated (and cached) by the time it starts.
 */
export class LocalModelSimulator {
  #profile: LatencyProfile;
  #cache: PrefixCache = [];
  #slotFreeAtMs = 0;
  readonly #served: ServedRequest[] = [];
  readonly #timeScale: number;
  readonly #capacity: number;
  readonly #realNow: () => number;
  readonly #realStart: number;

  constructor(options: LatencyOptions) {
    this.#profile = options.profile;
    this.#timeScale = options.timeScale ?? 1;
    this.#capacity = options.cacheCapacity ?? DEFAULT_CACHE_CAPACITY;
    this.#realNow = options.realNow ?? (() => performance.now());
    this.#realStart = this.#realNow();
  }

  get profile(): LatencyProfile {
    return this.#profile;
  }

  get timeScale(): number {
    return this.#timeScale;
  }

  /** Every request served since the start or the last `forget`, in arrival order. */
  get served(): readonly ServedRequest[] {
    return this.#served;
  }

  /** Modeled milliseconds since the server started. */
  now(): number {
    return (this.#realNow() - this.#realStart) * this.#timeScale;
  }

  /** Costs a request that gets `step`, reserves the slot for it, and says when to answer. */
  admit(request: RecordedRequest, step: ReplyStep): TimedReply {
    const prompt = qwen3Tokens(renderQwen3Prompt(request.body));
    const reply = qwen3ReplyText(step.reply.content, step.reply.tool_calls ?? []);
    const replyTokens = qwen3Tokens(reply);
    const maxTokens = request.body?.max_tokens;
    const work = requestWork(this.#profile, {
      promptTokens: prompt.length,
      cachedTokens: cachedPrefixLength(this.#cache, prompt),
      replyTokens: replyTokens.length,
      maxTokens: typeof maxTokens === 'number' ? maxTokens : undefined,
    });
    // Only what was generated is in the slot afterwards.
    const generated = replyTokens.slice(0, work.generatedTokens);
    this.#cache = rememberTokens(this.#cache, [...prompt, ...generated], this.#capacity);
    const arrivalMs = this.now();
    const times = scheduleOnSlot(this.#slotFreeAtMs, arrivalMs, work.workMs);
    this.#slotFreeAtMs = times.finishMs;
    const served: ServedRequest = {
      ...work,
      ...times,
      request,
      arrivalMs,
      realArrivalMs: this.#realNow(),
      realEndMs: null,
      abandoned: false,
    };
    this.#served.push(served);
    return {
      step: work.cutOff ? cutOff(qwen3Text(generated)) : step,
      served,
      realDelayMs: (times.finishMs - arrivalMs) / this.#timeScale,
      usage: usageOf(served),
    };
  }

  /** Records when the answer went out, or that the client left first. */
  settle(served: ServedRequest, answered: boolean): void {
    served.realEndMs = this.#realNow();
    served.abandoned = !answered;
  }

  /** Resolves once the slot has finished everything admitted so far (abandoned work included). */
  async idle(): Promise<void> {
    const remainingMs = (this.#slotFreeAtMs - this.now()) / this.#timeScale;
    if (remainingMs > 0) await sleep(remainingMs);
  }

  /** Another model file: other speeds, and nothing of the old one cached. */
  useProfile(profile: LatencyProfile): void {
    this.#profile = profile;
    this.clearCache();
  }

  /** A server restarted: nothing cached. */
  clearCache(): void {
    this.#cache = [];
  }

  /** Forgets the record of served requests (not the cache, not the slot's work). */
  forget(): void {
    this.#served.length = 0;
  }
}

/** The reply a server sends when `max_tokens` ran out: the text so far, no parsed call. */
function cutOff(text: string): ReplyStep {
  return { reply: { content: text, finish_reason: 'length' } };
}

/** OpenAI's usage block (cached tokens as `prompt_tokens_details` says them), from the modeled work. */
function usageOf(served: ServedRequest): Record<string, unknown> {
  return {
    prompt_tokens: served.promptTokens,
    completion_tokens: served.generatedTokens,
    total_tokens: served.promptTokens + served.generatedTokens,
    prompt_tokens_details: { cached_tokens: served.cachedTokens },
  };
}
