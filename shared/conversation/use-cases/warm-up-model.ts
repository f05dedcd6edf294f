/**
 * The model warm-up of conversation/start: one request of exactly the system prompt and tools
 * every turn of this command set sends, asking for one token, so that a server with a prefix
 * cache (llama.cpp, vLLM, OpenAI's automatic caching) has processed the long, shared part of the
 * prompt before the first utterance. A local server keeps working on a request we stop waiting
 * for, and the embedded model is asked to (`finishPromptPastTimeout`), so even a warm-up cut short
 * by its timeout warms the cache. It never fails the start.
 */
import type { CompiledCommandSet } from '../../params';
import { type LanguageModel, LanguageModelError } from '../../ports/language-model';
import { withHomeBlock } from '../home/with-home-block';
import { requestPrefixFor } from '../turn/run-turn';

export const WarmUp = {
  warmed: 'warmed',
  /** The node asked for none (`skip_warmup_inference`), or the setting is 0. */
  skipped: 'skipped',
  /** This container warmed the model with this command set a moment ago: nothing to do. */
  recentlyWarmed: 'recently_warmed',
  noModel: 'no_model',
  timedOut: 'timed_out',
  failed: 'failed',
} as const;
export type WarmUp = (typeof WarmUp)[keyof typeof WarmUp];

/** The user message of the warm-up: the shortest a chat template accepts after the prefix. */
const WARM_UP_MESSAGE = 'Hello.';

/**
 * Warms `model` for `commandSet` within `timeoutMs`; the outcome, never an exception. The home
 * block, when the node reported one, is in front of the user message as on every turn, so it is
 * warmed too.
 */
export async function warmUpModel(
  model: LanguageModel | null,
  commandSet: CompiledCommandSet,
  settings: { readonly warmUpTimeoutMs: number; readonly strictToolSchemas: boolean },
  homePrompt: string | null = null,
): Promise<WarmUp> {
  const timeoutMs = settings.warmUpTimeoutMs;
  if (model === null) return WarmUp.noModel;
  if (timeoutMs <= 0) return WarmUp.skipped;
  const { systemMessage, tools } = requestPrefixFor(commandSet, settings.strictToolSchemas);
  try {
    await model.complete(
      {
        messages: withHomeBlock(
          [systemMessage, { role: 'user', content: WARM_UP_MESSAGE }],
          homePrompt,
        ),
        tools,
        toolChoice: 'auto',
        maxTokens: 1,
        cacheKey: commandSet.hash,
      },
      { timeoutMs, finishPromptPastTimeout: true },
    );
    return WarmUp.warmed;
  } catch (error) {
    if (error instanceof LanguageModelError && error.failure === 'timeout') return WarmUp.timedOut;
    if (error instanceof LanguageModelError) return WarmUp.failed;
    throw error;
  }
}
