import {
  type LlamaContext,
  type LlamaContextSequence,
  LlamaGrammarEvaluationState,
  type LlamaModel,
  type Token,
} from 'node-llama-cpp';
import {
  type LanguageModel,
  LanguageModelError,
  LanguageModelFailure,
  type ModelCallOptions,
  type ModelReply,
  type ModelRequest,
} from '../../ports/language-model';
import { QueueFullError, QueueWaitEndedError, SlotQueue } from '../system/slot-queue';
import { systemTiming, type Timing } from '../system/timing';
import { ChatTemplatePrompt } from './chat-template-prompt';
import { type Sampling, samplingFor } from './embedded-sampling';
import { QwenCallPlanner } from './qwen-call-planner';
import { type GeneratedText, readModelFormatReply } from './read-model-format-reply';
import { SegmentTokenizer } from './segment-tokenizer';
import { ToolCallGrammars } from './tool-call-grammars';

export interface EmbeddedLanguageModelOptions {
  /** The banner's and the error messages' name of the model (its file or reference). */
  readonly name: string;
  /** MODEL_MAX_TOKENS: the most tokens a reply may have unless the request asks fewer. */
  readonly maxTokens: number;
  /** MODEL_THINKING. */
  readonly thinking: 'off' | 'on';
  /** Requests that may wait for a sequence beyond those running; one more is refused (busy). */
  readonly queuePlaces: number;
  /**
   * Constrain a required call's JSON to the tools' schemas by a grammar (bench/embedded-model-bench.ts
   * measures its cost); off by default.
   */
  readonly toolCallGrammar?: boolean;
  /**
   * The prompt is evaluated this many tokens at a time, the deadline checked between: a turn past
   * its deadline stops within one chunk's (or one generated token's) time.
   */
  readonly promptChunkTokens?: number;
  /**
   * Jump-forward decoding (on unless false): the call block's text that is determined by what
   * the model wrote is evaluated as one batch instead of one step per token (QwenCallPlanner).
   */
  readonly jumpForward?: boolean;
  /** How tokens are picked; `samplingFor(null, thinking)` unless set. */
  readonly sampling?: Sampling;
  readonly timing?: Timing;
}

/** What the model is doing, and what it has done since it was loaded (the bench reads it). */
export interface EmbeddedModelActivity {
  readonly running: number;
  readonly queued: number;
  readonly promptTokensEvaluated: number;
  /** Generation steps: tokens the model chose, one evaluation each. */
  readonly tokensGenerated: number;
  /** Tokens jump-forward wrote without a step: evaluated in a batch with the token before. */
  readonly tokensForced: number;
}

const DEFAULT_PROMPT_CHUNK_TOKENS = 128;

const failureSummaries: Record<LanguageModelFailure, string> = {
  rate_limited: 'the embedded model is rate limiting us',
  unavailable: 'the embedded model is unavailable',
  timeout: 'the embedded model ran out of time',
  malformed_reply: 'the embedded model wrote an unreadable reply',
  rejected: 'the embedded model cannot take the request',
  busy: 'the embedded model is busy',
  // AWS refusals: never this model's, but the record names every failure.
  credentials_rejected: 'the embedded model refused the credentials',
  permission_denied: 'the embedded model refused the permission',
  model_access_denied: 'the embedded model refused access',
};

class DeadlinePassedError extends Error {
  override readonly name = 'DeadlinePassedError';
}

/**
 * The LanguageModel port over llama.cpp in this process (node-llama-cpp): the request rendered by
 * the model's own chat template, the reply read back from the model's own tool-call format by the
 * code that reads every server's reply. Each request in flight has a context sequence of its own;
 * a sequence keeps the tokens it evaluated, so a request sharing a prefix with the last one
 * (every turn of a command set after its warm-up) evaluates only what differs. Past the
 * deadline or the caller's signal, evaluation stops between two chunks or two tokens.
 */
export class EmbeddedLanguageModel implements LanguageModel {
  readonly #model: LlamaModel;
  readonly #context: LlamaContext;
  readonly #prompt: ChatTemplatePrompt;
  readonly #tokenizer: SegmentTokenizer;
  readonly #queue: SlotQueue<LlamaContextSequence>;
  readonly #options: EmbeddedLanguageModelOptions;
  readonly #timing: Timing;
  readonly #chunk: number;
  readonly #grammars: ToolCallGrammars | null;
  readonly #sampling: Sampling;
  /** The requests running, a warm-up finishing its prompt after its answer included. */
  readonly #working = new Set<Promise<void>>();
  #stopping = false;
  #promptTokensEvaluated = 0;
  #tokensGenerated = 0;
  #tokensForced = 0;

  constructor(model: LlamaModel, context: LlamaContext, options: EmbeddedLanguageModelOptions) {
    const template = model.fileInfo.metadata.tokenizer?.chat_template;
    this.#model = model;
    this.#context = context;
    this.#options = options;
    this.#timing = options.timing ?? systemTiming;
    this.#chunk = options.promptChunkTokens ?? DEFAULT_PROMPT_CHUNK_TOKENS;
    this.#prompt = new ChatTemplatePrompt(typeof template === 'string' ? template : '', {
      thinking: options.thinking,
    });
    this.#tokenizer = new SegmentTokenizer(model);
    this.#grammars = options.toolCallGrammar === true ? new ToolCallGrammars(model) : null;
    this.#sampling = options.sampling ?? samplingFor(null, options.thinking);
    const sequences = Array.from({ length: context.sequencesLeft }, () => context.getSequence());
    this.#queue = new SlotQueue(sequences, options.queuePlaces, this.#timing);
  }

  get activity(): EmbeddedModelActivity {
    return {
      running: this.#queue.running,
      queued: this.#queue.queued,
      promptTokensEvaluated: this.#promptTokensEvaluated,
      tokensGenerated: this.#tokensGenerated,
      tokensForced: this.#tokensForced,
    };
  }

  async complete(request: ModelRequest, options: ModelCallOptions): Promise<ModelReply> {
    const deadline = this.#timing.monotonic() + options.timeoutMs;
    const prompt = this.#prompt.render(request);
    const tokens = this.#tokenizer.tokenize(prompt.text);
    const contextSize = this.#context.contextSize;
    if (tokens.length >= contextSize) {
      throw this.#error(
        LanguageModelFailure.rejected,
        `the prompt is ${tokens.length} tokens, the context ${contextSize} (set LLM_CONTEXT_SIZE higher)`,
      );
    }
    const sequence = await this.#acquire(tokens, deadline, options.signal);
    return new Promise<ModelReply>((resolve, reject) => {
      const fail = (error: unknown) =>
        reject(
          error instanceof DeadlinePassedError
            ? this.#error(LanguageModelFailure.timeout, error.message)
            : error,
        );
      const work = (async () => {
        try {
          return await this.#generate(sequence, tokens, prompt.opening, request, {
            deadline,
            signal: options.signal,
            // A warm-up answered `timeout` goes on with its prompt, for the next request to reuse.
            answerLate: options.finishPromptPastTimeout === true ? fail : null,
          });
        } finally {
          // Free before the caller hears back: its next request finds the sequence free.
          this.#queue.release(sequence);
        }
      })().then((generated) => {
        const reply = readModelFormatReply(generated);
        if (reply.ok) resolve(reply.value);
        else fail(this.#error(LanguageModelFailure.malformedReply, reply.issues.join('; ')));
      }, fail);
      this.#working.add(work);
      void work.finally(() => this.#working.delete(work));
    });
  }

  /**
   * Stops every request between two chunks or two tokens (a warm-up finishing its prompt
   * included) and resolves once none runs: the context can then be disposed.
   */
  async stop(): Promise<void> {
    this.#stopping = true;
    await Promise.allSettled([...this.#working]);
  }

  async #acquire(
    tokens: Token[],
    deadline: number,
    signal: AbortSignal | undefined,
  ): Promise<LlamaContextSequence> {
    const longestPrefix = (free: readonly LlamaContextSequence[]) => {
      const shared = free.map(
        (sequence) => sequence.compareContextTokens(tokens).firstDifferentIndex,
      );
      return shared.indexOf(Math.max(...shared));
    };
    try {
      if (signal?.aborted) throw new QueueWaitEndedError('the caller gave up before the call');
      return await this.#queue.acquire(deadline - this.#timing.monotonic(), signal, longestPrefix);
    } catch (error) {
      if (error instanceof QueueFullError) {
        throw this.#error(LanguageModelFailure.busy, error.message);
      }
      if (error instanceof QueueWaitEndedError) {
        throw this.#error(LanguageModelFailure.timeout, error.message);
      }
      throw error;
    }
  }

  async #generate(
    sequence: LlamaContextSequence,
    tokens: Token[],
    opening: string,
    request: ModelRequest,
    limits: {
      readonly deadline: number;
      readonly signal: AbortSignal | undefined;
      /** Set: past the deadline, the caller is answered with this and the prompt finished. */
      readonly answerLate: ((error: DeadlinePassedError) => void) | null;
    },
  ): Promise<GeneratedText> {
    const check = (what: string) => {
      if (this.#stopping) throw new DeadlinePassedError(`the model stopped ${what}`);
      if (limits.signal?.aborted) throw new DeadlinePassedError(`the caller stopped ${what}`);
      if (this.#timing.monotonic() >= limits.deadline) {
        throw new DeadlinePassedError(`the deadline passed ${what}`);
      }
    };
    // At least the last prompt token is evaluated again: its logits give the first reply token.
    const reused = Math.min(
      sequence.compareContextTokens(tokens).firstDifferentIndex,
      tokens.length - 1,
    );
    if (sequence.nextTokenIndex > reused) {
      await sequence.eraseContextTokenRanges([{ start: reused, end: sequence.nextTokenIndex }]);
    }
    let next = reused;
    let late: DeadlinePassedError | null = null;
    const checkPrompt = () => {
      const what = `evaluating the prompt (${next} of ${tokens.length} tokens)`;
      if (late !== null) {
        if (this.#stopping) throw late;
        return;
      }
      try {
        check(what);
      } catch (error) {
        if (!(error instanceof DeadlinePassedError) || limits.answerLate === null) throw error;
        if (this.#stopping) throw error;
        late = error;
        limits.answerLate(error);
      }
    };
    while (tokens.length - next > this.#chunk) {
      checkPrompt();
      await sequence.evaluateWithoutGeneratingNewTokens(tokens.slice(next, next + this.#chunk));
      next += this.#chunk;
      this.#promptTokensEvaluated += this.#chunk;
    }
    checkPrompt();
    if (late !== null) {
      // Answered already: the whole prompt evaluated for the next request, nothing generated.
      await sequence.evaluateWithoutGeneratingNewTokens(tokens.slice(next));
      this.#promptTokensEvaluated += tokens.length - next;
      throw late;
    }
    const maxTokens = Math.min(
      request.maxTokens ?? this.#options.maxTokens,
      this.#context.contextSize - tokens.length,
    );
    const grammar =
      opening === '' || this.#grammars === null ? null : await this.#grammars.for(request.tools);
    // Forced tokens bypass the sampler, so a grammar's state would not see them: the two are not
    // combined, the grammar (a required call's, LLM_TOOL_GRAMMAR=on) takes precedence.
    const planner =
      grammar === null && this.#options.jumpForward !== false
        ? new QwenCallPlanner(request.tools)
        : null;
    // Every token written to the reply: those the model generated and those jump-forward forced
    // (the usage's completion tokens count both, as the reply's text holds both).
    const written: Token[] = [];
    let text = opening;
    const write = (added: readonly Token[]) => {
      for (const token of added) {
        written.push(token);
        // The planner reads the format's ASCII; a character cut between two tokens only blurs
        // a string value's text, which it never forces.
        text += this.#model.detokenize([token], true);
      }
    };
    /** The tokens determined after the text so far, within max_tokens (see QwenCallPlanner). */
    const forcedNext = (): Token[] => {
      const forced = planner?.forcedAfter(text) ?? '';
      if (forced === '') return [];
      // The forced text alone: its first token starts where the model's last one ended, and the
      // planner ends it where Qwen's pre-tokenizer cuts, so these are the model's own tokens.
      // Special tokens are not parsed (a key's text can never become `<|im_end|>`); `</tool_call>`
      // is an added token the tokenizer matches anyway.
      const tokens = this.#model.tokenize(forced, false).slice(0, maxTokens - written.length);
      this.#tokensForced += tokens.length;
      write(tokens);
      return tokens;
    };
    // The evaluation also ends by itself when a grammar is complete: that is a stop too.
    let ended: GeneratedText['ended'] = 'stop';
    // A required call's opening is the prompt's: what follows it may be determined already.
    const opened = forcedNext();
    this.#promptTokensEvaluated += tokens.length - next;
    const result = () => ({
      text: `${opening}${this.#model.detokenize(written, true)}`,
      ended,
      usage: {
        promptTokens: tokens.length,
        cachedTokens: reused,
        completionTokens: written.length,
      },
    });
    if (written.length >= maxTokens) {
      // Forced text filled the reply: the prompt is still evaluated, for the next request.
      await sequence.evaluateWithoutGeneratingNewTokens(tokens.slice(next));
      ended = 'length';
      return result();
    }
    const evaluation = sequence.evaluate([...tokens.slice(next), ...opened], {
      ...this.#sampling,
      ...(grammar === null
        ? {}
        : {
            grammarEvaluationState: new LlamaGrammarEvaluationState({
              model: this.#model,
              grammar,
            }),
          }),
    });
    try {
      let step = await evaluation.next();
      while (step.done !== true) {
        const token = step.value;
        if (this.#model.isEogToken(token)) break;
        write([token]);
        this.#tokensGenerated += 1;
        if (written.length >= maxTokens) {
          ended = 'length';
          break;
        }
        check(`after ${written.length} tokens written`);
        const forced = forcedNext();
        if (written.length >= maxTokens) {
          // Cut at max_tokens within forced text: written, not evaluated (as a last sampled token).
          ended = 'length';
          break;
        }
        // The sampled token and the text determined after it, evaluated as one batch.
        step = await evaluation.next(forced.length === 0 ? undefined : [token, ...forced]);
      }
    } finally {
      await evaluation.return();
    }
    return result();
  }

  #error(failure: LanguageModelFailure, detail: string): LanguageModelError {
    return new LanguageModelError(
      failure,
      `${failureSummaries[failure]} (model ${this.#options.name}): ${detail}`,
      1,
    );
  }
}
