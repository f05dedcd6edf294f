// One shape of the embedded-model bench, in its own process (so its RSS is its own):
// `npx tsx bench/embedded-model/run-embedded-model-bench.ts <1.7b|0.6b> <q4_k_m|q8_0>`.
// Prints its rows as one JSON line after RESULT_MARKER.
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { getLlama, type LlamaContext, LlamaLogLevel, type LlamaModel } from 'node-llama-cpp';
import { ChatTemplatePrompt } from '../../shared/adapters/embedded-model/chat-template-prompt';
import {
  EmbeddedLanguageModel,
  type EmbeddedLanguageModelOptions,
} from '../../shared/adapters/embedded-model/embedded-language-model';
import { samplingFor } from '../../shared/adapters/embedded-model/embedded-sampling';
import { defaultThreads } from '../../shared/adapters/embedded-model/load-embedded-model';
import { SegmentTokenizer } from '../../shared/adapters/embedded-model/segment-tokenizer';
import type { ChatMessage } from '../../shared/chat/chat-message';
import { requestPrefixFor } from '../../shared/conversation/turn/run-turn';
import { WarmUp, warmUpModel } from '../../shared/conversation/use-cases/warm-up-model';
import type { ModelRequest } from '../../shared/ports/language-model';
import {
  type Quantization,
  QWEN3_0_6B,
  QWEN3_1_7B,
  type Qwen3Shape,
  writeRandomQwen3Gguf,
} from '../../test/support/random-gguf/write-random-gguf';
import type { BenchRow } from '../bench-row';
import { compileForEngine, fixtureRegistration } from '../engine/fixture-registration';
import { median, roundTo } from '../engine/percentile';
import { timed } from '../timed';
import { bindingCeiling, CEILING_GENERATE, type Ceiling } from './binding-ceiling';
import { type BenchRun, callPatternRows } from './call-patterns';

const RESULT_MARKER = 'EMBEDDED_MODEL_ROWS ';
const SHAPES: Record<string, Qwen3Shape> = { '1.7b': QWEN3_1_7B, '0.6b': QWEN3_0_6B };
const RUNS = Number(process.env.EMBEDDED_BENCH_RUNS ?? 3);
const THREADS = Number(process.env.LLM_THREADS ?? defaultThreads());
const CONTEXT_SIZE = 8_192;
/**
 * Tokens of the reply the default-node bench counts for a get_weather call (the `<tool_call>`
 * block and the end of turn, Qwen3's tokens): bench/local-model-bench.ts, 73.
 */
const CALL_TOKENS = 73;
/** A one-sentence spoken answer after the tool result. */
const ANSWER_TOKENS = 25;
/** llama-bench's pp512: the ceiling's prompt batch, and the batch the prompt rows use. */
const CEILING_PROMPT = 512;
/**
 * The adapter's sampling: npm start's default unless EMBEDDED_BENCH_TEMPERATURE is set (0 greedy;
 * above 0 that temperature with Qwen3's top-p and top-k), to compare the two back to back.
 */
const BENCH_TEMPERATURE = process.env.EMBEDDED_BENCH_TEMPERATURE;
const SAMPLING =
  BENCH_TEMPERATURE === undefined ? undefined : samplingFor(Number(BENCH_TEMPERATURE));
const SAMPLING_NAME =
  BENCH_TEMPERATURE === undefined ? 'the default sampling' : `temperature ${BENCH_TEMPERATURE}`;

const [shapeName = '1.7b', quantization = 'q4_k_m'] = process.argv.slice(2);
const shape = SHAPES[shapeName];
if (shape === undefined || (quantization !== 'q4_k_m' && quantization !== 'q8_0')) {
  throw new Error('usage: run-embedded-model-bench.ts <1.7b|0.6b> <q4_k_m|q8_0>');
}
const label = `${shapeName} ${quantization}`;
const rssMb = () => Math.round(process.memoryUsage().rss / 2 ** 20);

/** The random-weight file of this shape, written once and kept in the system's temp folder. */
function modelFile(): string {
  const directory = join(tmpdir(), 'jcc-bench-gguf');
  mkdirSync(directory, { recursive: true });
  const path = join(directory, `qwen3-${shapeName}-random-${quantization}.gguf`);
  if (!existsSync(path) || statSync(path).size === 0) {
    writeRandomQwen3Gguf(path, shape as Qwen3Shape, quantization as Quantization);
  }
  return path;
}

/** A line on stderr per step: a full-size run takes minutes. */
const progress = (step: string) => process.stderr.write(`embedded ${label}: ${step}\n`);

const commandSet = compileForEngine(fixtureRegistration());
const { systemMessage, tools } = requestPrefixFor(commandSet);
const COMMAND: ChatMessage = { role: 'user', content: "what's the weather tomorrow" };
const CALL_ID = 'call_weather_1';
const exchange: readonly ChatMessage[] = [
  systemMessage,
  COMMAND,
  {
    role: 'assistant',
    content: null,
    toolCalls: [
      { id: CALL_ID, name: 'get_weather', arguments: '{"location":"Berlin","date":"tomorrow"}' },
    ],
  },
  {
    role: 'tool',
    toolCallId: CALL_ID,
    content: '{"forecast":"sunny","high_c":21,"low_c":12,"precipitation_chance":0.1}',
  },
];
const commandRequest = (maxTokens: number, toolChoice: ModelRequest['toolChoice'] = 'auto') => ({
  messages: exchange.slice(0, 2),
  tools,
  toolChoice,
  maxTokens,
});

const GRAMMAR_TOOLS = tools.filter((tool) =>
  ['get_weather', 'set_timer'].includes(tool.function.name),
);
const shortRequired = (maxTokens: number): ModelRequest => ({
  messages: [COMMAND],
  tools: GRAMMAR_TOOLS.length > 0 ? GRAMMAR_TOOLS : tools.slice(0, 2),
  toolChoice: 'required',
  maxTokens,
});

/** What the call patterns share with this run's other rows. */
const benchRun: BenchRun = {
  label,
  tools,
  runs: RUNS,
  contextSize: CONTEXT_SIZE,
  threads: THREADS,
  promptBatch: CEILING_PROMPT,
  progress,
};

async function adapterFigures(model: LlamaModel, ceilingRates: Ceiling): Promise<BenchRow[]> {
  const options: EmbeddedLanguageModelOptions = {
    name: label,
    maxTokens: 1_024,
    thinking: 'off',
    queuePlaces: 4,
    ...(SAMPLING === undefined ? {} : { sampling: SAMPLING }),
  };
  const warmUps: number[] = [];
  const firstCommands: number[] = [];
  const firstWritten: number[] = [];
  const cached: number[] = [];
  const generationRates: number[] = [];
  const continuePrompts: number[] = [];
  const grammarMsPerToken: number[] = [];
  const freeMsPerToken: number[] = [];
  let promptTokens = 0;
  for (let run = 0; run < RUNS; run += 1) {
    // A fresh context each run: the warm-up evaluates the whole prefix, as after a start.
    const context: LlamaContext = await model.createContext({
      contextSize: CONTEXT_SIZE,
      threads: THREADS,
    });
    try {
      const adapter = new EmbeddedLanguageModel(model, context, options);
      progress(`run ${run + 1}: warm-up`);
      const warmUp = await timed(() =>
        warmUpModel(adapter, commandSet, { warmUpTimeoutMs: 600_000, strictToolSchemas: false }),
      );
      if (warmUp.value !== WarmUp.warmed) throw new Error(`the warm-up ended ${warmUp.value}`);
      warmUps.push(warmUp.ms);
      progress(`run ${run + 1}: warm-up ${Math.round(warmUp.ms)} ms; first command`);
      // The first command after the warm-up, one request: its own words, then a call's tokens
      // (a random model writes no call; it is cut at CALL_TOKENS unless it ends its turn first).
      const first = await timed(() =>
        adapter.complete(commandRequest(CALL_TOKENS), { timeoutMs: 600_000 }),
      );
      firstCommands.push(first.ms);
      firstWritten.push(first.value.usage?.completionTokens ?? 0);
      cached.push(first.value.usage?.cachedTokens ?? 0);
      promptTokens = first.value.usage?.promptTokens ?? 0;
      // Generation at that depth (the prompt evaluated: one token to redo), as many as a call.
      const written = await timed(() =>
        adapter.complete(commandRequest(CALL_TOKENS), { timeoutMs: 600_000 }),
      );
      const count = written.value.usage?.completionTokens ?? 0;
      if (count > 0) generationRates.push(count / (written.ms / 1000));
      const next = await timed(() =>
        adapter.complete(
          { messages: exchange, tools, toolChoice: 'auto', maxTokens: 1 },
          { timeoutMs: 600_000 },
        ),
      );
      continuePrompts.push(next.ms);
    } finally {
      await context.dispose();
    }
    // A required call, free and with the grammar of the tools' schemas, each on its own context
    // warmed first: milliseconds per token written. Two tools and no system prompt, so the cold
    // prompts cost little (the grammar's cost is per token, not per prompt token).
    for (const [grammar, sink] of [
      [false, freeMsPerToken],
      [true, grammarMsPerToken],
    ] as const) {
      progress(`run ${run + 1}: required call, grammar ${grammar ? 'on' : 'off'}`);
      const own = await model.createContext({ contextSize: CONTEXT_SIZE, threads: THREADS });
      try {
        // Without jump-forward (not combined with the grammar): both rows count steps alike.
        const constrained = new EmbeddedLanguageModel(model, own, {
          ...options,
          toolCallGrammar: grammar,
          jumpForward: false,
        });
        await constrained.complete(shortRequired(1), { timeoutMs: 600_000 });
        const call = await timed(() =>
          constrained.complete(shortRequired(CALL_TOKENS), { timeoutMs: 600_000 }),
        );
        const tokens = call.value.usage?.completionTokens ?? 0;
        if (tokens > 0) sink.push(call.ms / tokens);
      } finally {
        await own.dispose();
      }
    }
  }
  const generation = median(generationRates);
  const firstCommand = median(firstCommands);
  const continueTurn = median(continuePrompts) + (ANSWER_TOKENS / generation) * 1000;
  const seconds = (ms: number) => roundTo(ms / 1000, 2);
  const warmUp = median(warmUps);
  const depth = ceilingRates.depth;
  return [
    {
      name: `${label}: warm-up, cold prefix of ${promptTokens} tokens`,
      value: seconds(warmUp),
      unit: 's',
    },
    {
      name: `${label}: warm-up prompt rate (chunks of 128; ceiling ${roundTo(ceilingRates.promptAtDepth, 1)} in batches of ${CEILING_PROMPT})`,
      value: roundTo(promptTokens / (warmUp / 1000), 1),
      unit: 'tokens/s',
    },
    {
      name: `${label}: first voice/command, one request (${median(cached)} cached, ${median(firstWritten)} tokens written)`,
      value: seconds(firstCommand),
      unit: 's',
    },
    {
      name: `${label}: generation through the adapter, ${depth} deep (${SAMPLING_NAME}; ceiling greedy ${roundTo(ceilingRates.generationAtDepth, 1)}, sampled ${roundTo(ceilingRates.sampledAtDepth, 1)})`,
      value: roundTo(generation, 1),
      unit: 'tokens/s',
    },
    {
      name: `${label}: continue (prompt + ${ANSWER_TOKENS} tokens, summed)`,
      value: seconds(continueTurn),
      unit: 's',
    },
    {
      name: `${label}: full exchange (first command + continue)`,
      value: seconds(firstCommand + continueTurn),
      unit: 's',
    },
    {
      name: `${label}: required call, free (ms per token)`,
      value: roundTo(median(freeMsPerToken), 1),
      unit: 'ms',
    },
    {
      name: `${label}: required call, grammar (ms per token)`,
      value: roundTo(median(grammarMsPerToken), 1),
      unit: 'ms',
    },
  ];
}

progress(`writing or reusing the random GGUF, ${THREADS} threads`);
const path = modelFile();
const rssBefore = rssMb();
const llama = await getLlama({
  build: 'never',
  gpu: false,
  maxThreads: THREADS,
  logLevel: LlamaLogLevel.error,
});
const load = await timed(() => llama.loadModel({ modelPath: path, useMmap: false, gpuLayers: 0 }));
const model = load.value;
const commandPrompt = model.tokenize(
  new ChatTemplatePrompt(String(model.fileInfo.metadata.tokenizer?.chat_template), {
    thinking: 'off',
  }).render(commandRequest(1)).text,
  true,
);

/** A turn's tokenizing: the whole prompt's text each time, or by message with those in use kept. */
function tokenizingMs(): { readonly whole: number; readonly byMessage: number } {
  const prompt = new ChatTemplatePrompt(String(model.fileInfo.metadata.tokenizer?.chat_template), {
    thinking: 'off',
  });
  const segments = new SegmentTokenizer(model);
  const whole: number[] = [];
  const byMessage: number[] = [];
  for (let turn = 0; turn < 11; turn += 1) {
    const text = prompt.render({
      ...commandRequest(1),
      messages: [exchange[0] as ChatMessage, { role: 'user', content: `utterance ${turn}` }],
    }).text;
    let start = performance.now();
    model.tokenize(text, true);
    whole.push(performance.now() - start);
    start = performance.now();
    segments.tokenize(text);
    // The first turn tokenizes the system prompt and tools: the cost of a new command set.
    if (turn > 0) byMessage.push(performance.now() - start);
  }
  return { whole: median(whole), byMessage: median(byMessage) };
}
/** Every row; `EMBEDDED_BENCH_ONLY=call` measures only the call patterns (minutes less). */
async function allRows(): Promise<BenchRow[]> {
  const tokenizing = tokenizingMs();
  const limit = await bindingCeiling(model, commandPrompt, benchRun);
  const patternRows = await callPatternRows(model, commandPrompt, benchRun);
  const adapterRows = await adapterFigures(model, limit);
  return [
    { name: `${label}: file`, value: Math.round(statSync(path).size / 2 ** 20), unit: 'MB' },
    { name: `${label}: load (useMmap false)`, value: roundTo(load.ms / 1000, 2), unit: 's' },
    {
      name: `${label}: ceiling, prompt (binding, pp${CEILING_PROMPT})`,
      value: roundTo(limit.prompt, 1),
      unit: 'tokens/s',
    },
    {
      name: `${label}: ceiling, generation (binding, tg${CEILING_GENERATE} after ${CEILING_PROMPT})`,
      value: roundTo(limit.generation, 1),
      unit: 'tokens/s',
    },
    {
      name: `${label}: a turn's tokenizing, the whole ${limit.depth}-token prompt's text`,
      value: roundTo(tokenizing.whole, 2),
      unit: 'ms',
    },
    {
      name: `${label}: a turn's tokenizing, by message (the system prompt's kept)`,
      value: roundTo(tokenizing.byMessage, 2),
      unit: 'ms',
    },
    {
      name: `${label}: ceiling, generation ${limit.depth} deep (greedy)`,
      value: roundTo(limit.generationAtDepth, 1),
      unit: 'tokens/s',
    },
    {
      name: `${label}: ceiling, generation ${limit.depth} deep (Qwen3's sampling)`,
      value: roundTo(limit.sampledAtDepth, 1),
      unit: 'tokens/s',
    },
    ...adapterRows,
    ...patternRows,
  ];
}

const rows: BenchRow[] = [
  ...(process.env.EMBEDDED_BENCH_ONLY === 'call'
    ? await callPatternRows(model, commandPrompt, benchRun)
    : await allRows()),
  {
    name: `${label}: process peak RSS (${THREADS} threads, context ${CONTEXT_SIZE}; ${rssBefore} MB before the model)`,
    value: Math.round(process.resourceUsage().maxRSS / 1024),
    unit: 'MB',
  },
];
await model.dispose();
console.log(`${RESULT_MARKER}${JSON.stringify(rows)}`);
