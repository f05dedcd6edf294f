import { afterEach, describe, expect, it } from 'vitest';
import type { EmbeddedLanguageModelOptions } from '../../../shared/adapters/embedded-model/embedded-language-model';
import {
  type LoadedEmbeddedModel,
  loadEmbeddedModel,
} from '../../../shared/adapters/embedded-model/load-embedded-model';
import type { ToolDefinition } from '../../../shared/chat/chat-message';
import { requestPrefixFor } from '../../../shared/conversation/turn/run-turn';
import { WarmUp, warmUpModel } from '../../../shared/conversation/use-cases/warm-up-model';
import {
  LanguageModelError,
  LanguageModelFailure,
  type ModelRequest,
} from '../../../shared/ports/language-model';
import { compile, fixtureRegistration } from '../../support/engine-fixtures';
import { FakeTiming } from '../../support/fake-timing';
import { useTinyModelFile } from '../../support/random-gguf/tiny-model-file';

const tinyModelPath = useTinyModelFile();
const tinyModel = () => tinyModelPath;

const TOOLS: readonly ToolDefinition[] = [
  {
    type: 'function',
    function: {
      name: 'set_timer',
      description: 'Starts a timer.',
      parameters: {
        type: 'object',
        properties: { minutes: { type: 'integer', description: 'How long.' } },
        required: ['minutes'],
      },
    },
  },
  {
    type: 'function',
    function: {
      name: 'get_time',
      description: 'Says the time.',
      parameters: { type: 'object', properties: {} },
    },
  },
];

const SYSTEM = `You are a voice assistant in a kitchen. ${'Answer briefly and call a tool when one fits. '.repeat(8)}`;

const request = (utterance: string, overrides: Partial<ModelRequest> = {}): ModelRequest => ({
  messages: [
    { role: 'system', content: SYSTEM },
    { role: 'user', content: utterance },
  ],
  tools: TOOLS,
  toolChoice: 'auto',
  ...overrides,
});

/** A clock that moves `stepMs` each time it is read: a deadline passes after so many reads. */
class TickingTiming extends FakeTiming {
  readonly #stepMs: number;
  #elapsed = 0;

  constructor(stepMs: number, options: { instantSleeps?: boolean } = {}) {
    super(options);
    this.#stepMs = stepMs;
  }

  override monotonic(): number {
    this.#elapsed += this.#stepMs;
    return this.#elapsed;
  }
}

const loaded: LoadedEmbeddedModel[] = [];
afterEach(async () => {
  for (const model of loaded.splice(0)) await model.close();
});

async function load(
  options: Partial<EmbeddedLanguageModelOptions> & { parallel?: number; contextSize?: number } = {},
): Promise<LoadedEmbeddedModel> {
  const { parallel, contextSize, ...modelOptions } = options;
  const model = await loadEmbeddedModel(
    tinyModel(),
    { threads: 1, mmap: false, contextSize: contextSize ?? 2_048, parallel: parallel ?? 1 },
    {
      name: 'tiny',
      maxTokens: 64,
      thinking: 'off',
      queuePlaces: 2,
      sampling: { temperature: 0 },
      ...modelOptions,
    },
  );
  loaded.push(model);
  return model;
}

const failureOf = (error: unknown) =>
  error instanceof LanguageModelError ? error.failure : `not a LanguageModelError: ${error}`;

describe('EmbeddedLanguageModel: a random-weight Qwen3 through the real llama.cpp binding', () => {
  it('answers a request, cut at max tokens as `length`, with the usage of its tokens', async () => {
    // Prepare
    const { model } = await load();

    // Act
    const reply = await model.complete(request('set a timer for ten minutes', { maxTokens: 5 }), {
      timeoutMs: 60_000,
    });

    // Assess
    expect(reply.finishReason).toBe('length');
    expect(reply.usage).toMatchObject({ completionTokens: 5, cachedTokens: 0 });
    expect(reply.usage?.promptTokens).toBeGreaterThan(100);
    expect(model.activity).toMatchObject({ running: 0, queued: 0, tokensGenerated: 5 });
  });

  it('a warm-up of one token evaluates the prefix: the next request reuses it', async () => {
    // Prepare
    const { model } = await load();
    const warmUp = await model.complete(request('Hello.', { maxTokens: 1 }), { timeoutMs: 60_000 });

    // Act
    const reply = await model.complete(request('set a timer for ten minutes', { maxTokens: 2 }), {
      timeoutMs: 60_000,
    });

    // Assess: everything up to the user's words is served from the sequence.
    const warmUpPrompt = warmUp.usage?.promptTokens ?? 0;
    expect(reply.usage?.cachedTokens).toBeGreaterThan(warmUpPrompt - 20);
    expect(reply.usage?.cachedTokens).toBeLessThan(reply.usage?.promptTokens ?? 0);
    expect(model.activity.promptTokensEvaluated).toBeLessThan(
      warmUpPrompt + (reply.usage?.promptTokens ?? 0) - 100,
    );
  });

  it('stops generating once the deadline passes, and the next request runs', async () => {
    // Prepare: each read of the clock is 10 ms later, so 300 ms pass within a few dozen tokens.
    const { model } = await load({ maxTokens: 2_000, timing: new TickingTiming(10) });

    // Act
    const failure = await model
      .complete(request('tell me a long story'), { timeoutMs: 300 })
      .catch(failureOf);
    const generatedAtFailure = model.activity.tokensGenerated;
    await new Promise((resolve) => setTimeout(resolve, 200));

    // Assess
    expect(failure).toBe(LanguageModelFailure.timeout);
    expect(generatedAtFailure).toBeGreaterThan(0);
    expect(generatedAtFailure).toBeLessThan(40);
    expect(model.activity).toMatchObject({ running: 0, tokensGenerated: generatedAtFailure });
    const next = await model.complete(request('and now?', { maxTokens: 2 }), { timeoutMs: 1_000 });
    expect(next.usage?.completionTokens).toBe(2);
  });

  it('stops evaluating a long prompt between chunks once the deadline passes', async () => {
    // Prepare
    const { model } = await load({ timing: new TickingTiming(100), promptChunkTokens: 32 });

    // Act
    const failure = await model
      .complete(request('what is the weather like'), { timeoutMs: 250 })
      .catch(failureOf);

    // Assess
    expect(failure).toBe(LanguageModelFailure.timeout);
    expect(model.activity.promptTokensEvaluated).toBeLessThan(100);
    expect(model.activity.tokensGenerated).toBe(0);
  });

  it('a warm-up past its timeout is answered at once and finishes its prompt for the next request', async () => {
    // Prepare: the deadline passes within the first chunks; a wait in line lasts until a sequence
    // is free (sleeps never end by themselves).
    const { model } = await load({
      timing: new TickingTiming(100, { instantSleeps: false }),
      promptChunkTokens: 32,
    });
    const warmUp = request('Hello.', { maxTokens: 1 });

    // Act
    const failure = await model
      .complete(warmUp, { timeoutMs: 250, finishPromptPastTimeout: true })
      .catch(failureOf);
    const evaluatedWhenAnswered = model.activity.promptTokensEvaluated;
    const next = await model.complete(request('what is the weather like', { maxTokens: 1 }), {
      timeoutMs: 60_000,
    });

    // Assess: answered within the deadline's chunks; the next request waited for the rest and
    // found everything up to the user's words evaluated, nothing generated for the warm-up.
    expect(failure).toBe(LanguageModelFailure.timeout);
    expect(evaluatedWhenAnswered).toBeLessThan(100);
    expect(next.usage?.cachedTokens).toBeGreaterThan((next.usage?.promptTokens ?? 0) - 20);
    expect(model.activity).toMatchObject({ running: 0, tokensGenerated: 1 });
  });

  it("conversation/start's warm-up, past its timeout, leaves the command set's prompt evaluated", async () => {
    // Prepare: the fixture node's command set (about 2.7k tokens), a deadline within 2 chunks.
    const { model } = await load({
      contextSize: 4_096,
      timing: new TickingTiming(100, { instantSleeps: false }),
      promptChunkTokens: 256,
    });
    const commandSet = compile(fixtureRegistration());
    const settings = { warmUpTimeoutMs: 250, strictToolSchemas: false };

    // Act
    const warmUp = await warmUpModel(model, commandSet, settings);
    const { systemMessage, tools } = requestPrefixFor(commandSet);
    const command = await model.complete(
      {
        messages: [systemMessage, { role: 'user', content: 'set a timer for ten minutes' }],
        tools,
        toolChoice: 'auto',
        maxTokens: 1,
      },
      { timeoutMs: 600_000 },
    );

    // Assess
    expect(warmUp).toBe(WarmUp.timedOut);
    expect(command.usage?.promptTokens).toBeGreaterThan(2_000);
    expect(command.usage?.cachedTokens).toBeGreaterThan((command.usage?.promptTokens ?? 0) - 20);
  });

  it('a turn past its deadline does not finish its prompt, and stopping ends a finishing warm-up', async () => {
    // Prepare
    const timing = new TickingTiming(100, { instantSleeps: false });
    const { model } = await load({ timing, promptChunkTokens: 32 });
    const warmUp = request('Hello.', { maxTokens: 1 });
    const reference = (await load()).model;
    const full = await reference.complete(warmUp, { timeoutMs: 60_000 });

    // Act
    const turn = await model.complete(warmUp, { timeoutMs: 250 }).catch(failureOf);
    const afterTurn = model.activity.promptTokensEvaluated;
    const late = await model
      .complete(warmUp, { timeoutMs: 250, finishPromptPastTimeout: true })
      .catch(failureOf);
    await model.stop();

    // Assess: the turn stopped at its deadline; the warm-up's rest was cut short by stop().
    expect([turn, late]).toEqual([LanguageModelFailure.timeout, LanguageModelFailure.timeout]);
    expect(afterTurn).toBeLessThan(100);
    expect(model.activity.running).toBe(0);
    expect(model.activity.promptTokensEvaluated).toBeLessThan(full.usage?.promptTokens ?? 0);
  });

  it('a caller that already gave up gets a timeout and costs no evaluation', async () => {
    // Prepare
    const { model } = await load();

    // Act
    const failure = await model
      .complete(request('hello'), { timeoutMs: 60_000, signal: AbortSignal.abort() })
      .catch(failureOf);

    // Assess
    expect(failure).toBe(LanguageModelFailure.timeout);
    expect(model.activity.promptTokensEvaluated).toBe(0);
  });

  it('a full queue is refused at once as busy; the requests in line are answered', async () => {
    // Prepare: one sequence, one place in line.
    const { model } = await load({ queuePlaces: 1 });
    const ask = () =>
      model.complete(request('set a timer', { maxTokens: 8 }), { timeoutMs: 60_000 });

    // Act
    const outcomes = await Promise.allSettled([ask(), ask(), ask()]);

    // Assess
    expect(outcomes.map((outcome) => outcome.status)).toEqual([
      'fulfilled',
      'fulfilled',
      'rejected',
    ]);
    const refused = outcomes[2];
    expect(refused?.status === 'rejected' && failureOf(refused.reason)).toBe(
      LanguageModelFailure.busy,
    );
    expect(model.activity).toMatchObject({ running: 0, queued: 0 });
  });

  it('a request whose deadline passes in line is a timeout and leaves the line', async () => {
    // Prepare: waits end at once on the fake clock.
    const { model } = await load({ queuePlaces: 1, timing: new FakeTiming() });
    const first = model.complete(request('set a timer', { maxTokens: 8 }), { timeoutMs: 60_000 });

    // Act
    const waited = await model
      .complete(request('set a timer', { maxTokens: 8 }), { timeoutMs: 5_000 })
      .catch(failureOf);
    const whenRefused = model.activity;

    // Assess: refused while the first still runs, not after it.
    expect(waited).toBe(LanguageModelFailure.timeout);
    expect(whenRefused).toMatchObject({ running: 1, queued: 0 });
    expect((await first).usage?.completionTokens).toBe(8);
  });

  it('a prompt longer than the context is rejected before any evaluation', async () => {
    // Prepare
    const { model } = await load({ contextSize: 256 });

    // Act
    const failure = await model
      .complete(request('hello '.repeat(300)), { timeoutMs: 60_000 })
      .catch(failureOf);

    // Assess
    expect(failure).toBe(LanguageModelFailure.rejected);
    expect(model.activity.promptTokensEvaluated).toBe(0);
  });

  it('with the grammar on, a required call is one call to a declared tool', async () => {
    // Prepare: only get_time, whose arguments can only be {}: the grammar leaves nothing to chance.
    const { model } = await load({ toolCallGrammar: true, maxTokens: 200 });
    const tools = TOOLS.filter((tool) => tool.function.name === 'get_time');

    // Act
    const reply = await model.complete(
      request('what time is it', { tools, toolChoice: 'required' }),
      {
        timeoutMs: 60_000,
      },
    );

    // Assess
    expect(reply.finishReason).toBe('tool_calls');
    expect(reply.toolCalls).toEqual([{ id: null, name: 'get_time', arguments: '{}' }]);
    // Not combined with jump-forward: forced tokens would pass by the grammar's state.
    expect(model.activity.tokensForced).toBe(0);
  });

  it('jump-forward: a required call is forced up to its first value, counted in the usage', async () => {
    // Prepare: one tool, so its name and its required key are determined by the opening.
    const { model } = await load();
    const { model: stepping } = await load({ jumpForward: false });
    const tools = TOOLS.filter((tool) => tool.function.name === 'set_timer');
    const ask = request('set a timer for ten minutes', {
      tools,
      toolChoice: 'required',
      maxTokens: 24,
    });

    // Act
    const reply = await model.complete(ask, { timeoutMs: 60_000 });
    const stepped = await stepping.complete(ask, { timeoutMs: 60_000 });

    // Assess: the forced text was written without a step each; the usage counts every token.
    expect(reply.content).toMatch(/^<tool_call>\n\{"name": "set_timer", "arguments": \{"minutes":/);
    expect(reply.usage?.completionTokens).toBe(24);
    expect(model.activity.tokensForced).toBeGreaterThanOrEqual(12);
    expect(model.activity.tokensGenerated + model.activity.tokensForced).toBe(24);
    expect(stepping.activity).toMatchObject({ tokensGenerated: 24, tokensForced: 0 });
    expect(stepped.content).not.toMatch(/^<tool_call>\n\{"name": "set_timer"/);
  });

  it('jump-forward: a call whose text is all determined is read as the call', async () => {
    // Prepare: a tool that takes nothing and allows nothing more.
    const { model } = await load();
    const tools: readonly ToolDefinition[] = [
      {
        type: 'function',
        function: {
          name: 'get_time',
          description: 'Says the time.',
          parameters: { type: 'object', properties: {}, additionalProperties: false },
        },
      },
    ];

    // Act
    const reply = await model.complete(
      request('what time is it', { tools, toolChoice: 'required', maxTokens: 20 }),
      { timeoutMs: 60_000 },
    );

    // Assess: the whole block in the first batch, read by the same reader as every reply.
    expect(reply.toolCalls).toEqual([{ id: null, name: 'get_time', arguments: '{}' }]);
    expect(model.activity.tokensForced).toBeGreaterThanOrEqual(12);
    expect(reply.usage?.completionTokens).toBe(
      model.activity.tokensGenerated + model.activity.tokensForced,
    );
  });

  it('jump-forward: max_tokens cuts forced text, and the prompt is still evaluated', async () => {
    // Prepare
    const { model } = await load();
    const tools = TOOLS.filter((tool) => tool.function.name === 'set_timer');
    const ask = request('set a timer for ten minutes', { tools, toolChoice: 'required' });

    // Act
    const cut = await model.complete({ ...ask, maxTokens: 3 }, { timeoutMs: 60_000 });
    const next = await model.complete({ ...ask, maxTokens: 1 }, { timeoutMs: 60_000 });

    // Assess: three forced tokens, no step; the next request found the prompt evaluated.
    expect(cut.finishReason).toBe('length');
    expect(cut.toolCalls).toEqual([]);
    expect(cut.usage?.completionTokens).toBe(3);
    expect(model.activity.tokensGenerated).toBe(0);
    expect(next.usage?.cachedTokens).toBe((next.usage?.promptTokens ?? 0) - 1);
  });

  it('jump-forward: the deadline still stops a call between steps', async () => {
    // Prepare: each read of the clock is 10 ms later.
    const { model } = await load({ maxTokens: 2_000, timing: new TickingTiming(10) });
    const tools = TOOLS.filter((tool) => tool.function.name === 'set_timer');

    // Act
    const failure = await model
      .complete(request('set a timer', { tools, toolChoice: 'required' }), { timeoutMs: 300 })
      .catch(failureOf);

    // Assess
    expect(failure).toBe(LanguageModelFailure.timeout);
    expect(model.activity.tokensForced).toBeGreaterThan(0);
    expect(model.activity.tokensGenerated).toBeGreaterThan(0);
    expect(model.activity.tokensGenerated).toBeLessThan(40);
    expect(model.activity.running).toBe(0);
  });

  it('a file that is not a GGUF is one line naming it', async () => {
    // Act
    const failure = await loadEmbeddedModel(
      `${tinyModel()}.missing`,
      { threads: 1, mmap: false, contextSize: 512, parallel: 1 },
      { name: 'missing', maxTokens: 8, thinking: 'off', queuePlaces: 1 },
    ).catch((error: unknown) => error);

    // Assess
    expect(failure).toBeInstanceOf(Error);
    expect((failure as Error).name).toBe('EmbeddedModelLoadError');
    expect((failure as Error).message).toContain('tiny-qwen3.gguf.missing');
    expect((failure as Error).message).not.toContain('\n');
  });
});
