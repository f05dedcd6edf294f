// The embedded-model bench's ceiling: llama-bench's method through node-llama-cpp's lowest API,
// what the binding itself does on this machine, for the adapter's rows to be read against
// (run-embedded-model-bench.ts).
import type { LlamaContextSequence, LlamaModel, Token } from 'node-llama-cpp';
import { samplingFor } from '../../shared/adapters/embedded-model/embedded-sampling';
import { median } from '../engine/percentile';
import { timed } from '../timed';
import { type BenchRun, evaluateInBatches } from './call-patterns';

/** Greedy tokens the ceiling generates: llama-bench's tg128 shortened to 64 on 2 cores. */
export const CEILING_GENERATE = 64;

/** What the binding itself does, in tokens per second, and how deep the command prompt is. */
export interface Ceiling {
  readonly prompt: number;
  readonly generation: number;
  /** The command prompt's own tokens, in the run's prompt batches, then greedy tokens after it. */
  readonly promptAtDepth: number;
  readonly generationAtDepth: number;
  /** The same, sampled as Qwen3 recommends (temperature 0.7, top-p 0.8, top-k 20). */
  readonly sampledAtDepth: number;
  readonly depth: number;
}

/** Qwen3's recommended sampling with thinking off (temperature 0.7, top-p 0.8, top-k 20). */
const QWEN3_SAMPLING = samplingFor(0.7);

/** `CEILING_GENERATE` tokens from `sequence` as it stands: tokens per second. */
async function generationRate(
  sequence: LlamaContextSequence,
  from: Token,
  sampling: { readonly temperature: number } = { temperature: 0 },
): Promise<number> {
  const generation = await timed(async () => {
    let count = 0;
    for await (const _token of sequence.evaluate([from], sampling)) {
      count += 1;
      if (count >= CEILING_GENERATE) break;
    }
    return count;
  });
  return generation.value / (generation.ms / 1000);
}

/**
 * llama-bench's method through the binding's lowest API: a batch of prompt, then greedy tokens;
 * at pp512 as llama-bench runs it, and after the command prompt's real tokens (about 2.7k deep,
 * where every turn generates: attention reads the whole cache for each token).
 */
export async function bindingCeiling(
  model: LlamaModel,
  commandPrompt: readonly Token[],
  run: BenchRun,
): Promise<Ceiling> {
  const rates: Record<Exclude<keyof Ceiling, 'depth'>, number[]> = {
    prompt: [],
    generation: [],
    promptAtDepth: [],
    generationAtDepth: [],
    sampledAtDepth: [],
  };
  const last = commandPrompt.length - 1;
  for (let repeat = 0; repeat < run.runs; repeat += 1) {
    run.progress(`run ${repeat + 1}: ceiling`);
    const context = await model.createContext({
      contextSize: run.contextSize,
      threads: run.threads,
    });
    try {
      const sequence = context.getSequence();
      const tokens = Array.from(
        { length: run.promptBatch },
        (_, index) => (1_000 + index * 37 + repeat) as Token,
      );
      const prompt = await timed(() => sequence.evaluateWithoutGeneratingNewTokens(tokens));
      rates.prompt.push(run.promptBatch / (prompt.ms / 1000));
      rates.generation.push(await generationRate(sequence, tokens[0] as Token));
      await sequence.clearHistory();
      run.progress(`run ${repeat + 1}: ceiling at ${commandPrompt.length} tokens deep`);
      const deep = await timed(() =>
        evaluateInBatches(sequence, commandPrompt.slice(0, last), run.promptBatch),
      );
      rates.promptAtDepth.push(last / (deep.ms / 1000));
      const from = commandPrompt[last] as Token;
      // Greedy and sampled alternately from the same evaluated prompt, each run's order swapped.
      for (const sampled of repeat % 2 === 0 ? [false, true] : [true, false]) {
        await sequence.eraseContextTokenRanges([{ start: last, end: sequence.nextTokenIndex }]);
        const rate = await generationRate(sequence, from, sampled ? QWEN3_SAMPLING : undefined);
        (sampled ? rates.sampledAtDepth : rates.generationAtDepth).push(rate);
      }
    } finally {
      await context.dispose();
    }
  }
  return {
    prompt: median(rates.prompt),
    generation: median(rates.generation),
    promptAtDepth: median(rates.promptAtDepth),
    generationAtDepth: median(rates.generationAtDepth),
    sampledAtDepth: median(rates.sampledAtDepth),
    depth: commandPrompt.length,
  };
}
