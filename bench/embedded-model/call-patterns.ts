// The first voice/command's call, one step a token and with jump-forward, for the embedded-model
// bench (run-embedded-model-bench.ts; `EMBEDDED_BENCH_ONLY=call` runs only these rows).
import type { LlamaContextSequence, LlamaModel, Token } from 'node-llama-cpp';
import { QwenCallPlanner } from '../../shared/adapters/embedded-model/qwen-call-planner';
import type { ToolDefinition } from '../../shared/chat/chat-message';
import type { BenchRow } from '../bench-row';
import { median, roundTo } from '../engine/percentile';
import { timed } from '../timed';

/** What the call patterns and the ceiling share with the run's other rows. */
export interface BenchRun {
  /** The shape's name, first in every row's name. */
  readonly label: string;
  /** The command set's tools, as the engine sends them. */
  readonly tools: readonly ToolDefinition[];
  readonly runs: number;
  readonly contextSize: number;
  readonly threads: number;
  /** Tokens of prompt evaluated in one batch. */
  readonly promptBatch: number;
  readonly progress: (step: string) => void;
}

/** `tokens` evaluated into `sequence` in batches of `batch`, nothing generated. */
export async function evaluateInBatches(
  sequence: LlamaContextSequence,
  tokens: readonly Token[],
  batch: number,
): Promise<void> {
  for (let next = 0; next < tokens.length; next += batch) {
    await sequence.evaluateWithoutGeneratingNewTokens(tokens.slice(next, next + batch));
  }
}

/**
 * The call a real model writes for the bench's command ("what's the weather tomorrow": the
 * fixture's get_weather, its required `resolved_datetimes` an ISO date-time, no city), as Qwen3
 * writes a call (its template's JSON spacing).
 */
const REALISTIC_CALL =
  '<tool_call>\n{"name": "get_weather", "arguments": {"resolved_datetimes": ["2026-11-27T12:00:00+01:00"]}}\n</tool_call>';
/** Each pattern this many times per run, the two alternating: ratios are taken pair by pair. */
const PATTERN_REPEATS = 3;

interface CallPattern {
  readonly ms: number;
  /** Generation steps (the end of turn's included), tokens forced, and the batches they took. */
  readonly steps: number;
  readonly forced: number;
  readonly batches: number;
}

/**
 * The first voice/command's model work with a realistic call, on the real sequence at the real
 * depth: the command prompt's prefix evaluated (what the warm-up leaves: everything before the
 * user's message), then its last tokens and the call. A random model writes no call, so each step
 * is steered: the sampled token (the step's cost) is replaced by the call's own next token
 * through the evaluation's replacement tokens. With jump-forward, the adapter's planner decides
 * the forced text after each token and it is evaluated in the same batch, tokenized alone as the
 * adapter does; the bench checks those are the call's own tokens. The end of turn is one more
 * step. Per request, the adapter adds its template and tokenizing (about 8 ms) to this.
 */
async function callPatterns(
  model: LlamaModel,
  commandPrompt: readonly Token[],
  run: BenchRun,
): Promise<{ readonly single: CallPattern[]; readonly jump: CallPattern[]; cached: number }> {
  const planner = new QwenCallPlanner(run.tools);
  const call = model.tokenize(REALISTIC_CALL, true);
  const userStart = model.tokenize('<|im_start|>user', true)[0];
  const cached = commandPrompt.lastIndexOf(userStart as Token);
  const single: CallPattern[] = [];
  const jump: CallPattern[] = [];
  const context = await model.createContext({
    contextSize: run.contextSize,
    threads: run.threads,
  });
  try {
    const sequence = context.getSequence();
    await evaluateInBatches(sequence, commandPrompt.slice(0, cached), run.promptBatch);
    const pattern = async (jumpForward: boolean): Promise<CallPattern> => {
      await sequence.eraseContextTokenRanges([{ start: cached, end: sequence.nextTokenIndex }]);
      let steps = 0;
      let forcedCount = 0;
      let batches = 0;
      const timing = await timed(async () => {
        const evaluation = sequence.evaluate(commandPrompt.slice(cached), { temperature: 0 });
        let text = '';
        let index = 0;
        try {
          let step = await evaluation.next();
          // Each sample is a step; past the call's last token, the sample is its end of turn.
          while (step.done !== true && index < call.length) {
            steps += 1;
            const token = call[index] as Token;
            index += 1;
            text += model.detokenize([token], true);
            const forcedText = jumpForward ? planner.forcedAfter(text) : '';
            const forced = forcedText === '' ? [] : model.tokenize(forcedText, false);
            if (forced.some((forcedToken, at) => forcedToken !== call[index + at])) {
              throw new Error(`forced ${JSON.stringify(forcedText)}: not the call's own tokens`);
            }
            index += forced.length;
            text += forcedText;
            forcedCount += forced.length;
            if (forced.length > 0) batches += 1;
            step = await evaluation.next([token, ...forced]);
          }
          steps += 1;
        } finally {
          await evaluation.return();
        }
      });
      return { ms: timing.ms, steps, forced: forcedCount, batches };
    };
    for (let repeat = 0; repeat < PATTERN_REPEATS; repeat += 1) {
      // Order swapped each time, so a trend in the machine's load falls on both.
      for (const jumpForward of repeat % 2 === 0 ? [false, true] : [true, false]) {
        const measured = await pattern(jumpForward);
        run.progress(
          `call pattern ${repeat + 1}, jump-forward ${jumpForward ? 'on' : 'off'}: ${Math.round(measured.ms)} ms`,
        );
        (jumpForward ? jump : single).push(measured);
      }
    }
  } finally {
    await context.dispose();
  }
  return { single, jump, cached };
}

export async function callPatternRows(
  model: LlamaModel,
  commandPrompt: readonly Token[],
  run: BenchRun,
): Promise<BenchRow[]> {
  const singles: number[] = [];
  const jumps: number[] = [];
  const ratios: number[] = [];
  let shape: { single: CallPattern; jump: CallPattern } | null = null;
  let cached = 0;
  for (let repeat = 0; repeat < run.runs; repeat += 1) {
    run.progress(`run ${repeat + 1}: a realistic call, one step a token and with jump-forward`);
    const patterns = await callPatterns(model, commandPrompt, run);
    cached = patterns.cached;
    patterns.single.forEach((single, index) => {
      const jump = patterns.jump[index] as CallPattern;
      singles.push(single.ms);
      jumps.push(jump.ms);
      ratios.push(jump.ms / single.ms);
      shape = { single, jump };
    });
  }
  if (shape === null) return [];
  const { single, jump } = shape as { single: CallPattern; jump: CallPattern };
  const seconds = (ms: number) => roundTo(ms / 1000, 2);
  const evaluated = commandPrompt.length - cached;
  return [
    {
      name: `${run.label}: first voice/command's model work, a realistic get_weather call, one step a token (${cached} cached, ${evaluated} evaluated, ${single.steps} steps)`,
      value: seconds(median(singles)),
      unit: 's',
    },
    {
      name: `${run.label}: the same with jump-forward (${jump.steps} steps, ${jump.forced} tokens forced in ${jump.batches} batches)`,
      value: seconds(median(jumps)),
      unit: 's',
    },
    {
      name: `${run.label}: jump-forward / one step a token, pair by pair back to back (median of ${ratios.length})`,
      value: roundTo(median(ratios), 2),
      unit: 'ratio',
    },
  ];
}
