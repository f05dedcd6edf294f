import { describe, expect, it } from 'vitest';
import {
  assistantText,
  IM_END,
  IM_START,
  renderPrompt,
} from '../../support/scripted-llm/chat-template';
import {
  modelTokens,
  requestWork,
  scheduleOnSlot,
} from '../../support/scripted-llm/latency-arithmetic';
import {
  type LatencyProfile,
  LOCAL_MODEL_PROFILES,
} from '../../support/scripted-llm/latency-profile';
import {
  cachedPrefixLength,
  commonPrefixLength,
  rememberTokens,
} from '../../support/scripted-llm/prefix-cache';

const round = {
  name: 'round',
  promptTokensPerSecond: 100,
  generationTokensPerSecond: 10,
  tokensPerO200kToken: 1,
} satisfies LatencyProfile;

describe('requestWork', () => {
  it.each([
    // name, prompt, cached, reply, max_tokens, uncached, generated, workMs
    ['cold prompt, whole reply', 1_000, 0, 50, undefined, 1_000, 50, 10_000 + 5_000],
    [
      'cached prefix: only the suffix is processed',
      1_000,
      900,
      50,
      undefined,
      100,
      50,
      1_000 + 5_000,
    ],
    [
      'fully cached: the last token is evaluated again',
      1_000,
      1_000,
      50,
      undefined,
      1,
      50,
      10 + 5_000,
    ],
    ['max_tokens 1 (a warm-up) generates one token', 1_000, 0, 50, 1, 1_000, 1, 10_000 + 100],
    ['max_tokens above the reply changes nothing', 1_000, 0, 50, 64, 1_000, 50, 10_000 + 5_000],
    ['a cache longer than the prompt counts as fully cached', 10, 20, 0, undefined, 1, 0, 10],
  ] as const)(
    '%s',
    (_name, promptTokens, cachedTokens, replyTokens, maxTokens, uncached, generated, workMs) => {
      // Act
      const work = requestWork(round, { promptTokens, cachedTokens, replyTokens, maxTokens });

      // Assess
      expect(work.uncachedTokens).toBe(uncached);
      expect(work.cachedTokens).toBe(promptTokens - uncached);
      expect(work.generatedTokens).toBe(generated);
      expect(work.cutOff).toBe(generated < replyTokens);
      expect(work.workMs).toBeCloseTo(workMs, 6);
    },
  );

  it('gives issue 11 figures for its cold first turn (3,900 prompt tokens + 64 generated)', () => {
    // Act
    const q4 = requestWork(LOCAL_MODEL_PROFILES.q4_0, {
      promptTokens: 3_900,
      cachedTokens: 0,
      replyTokens: 64,
    });
    const q8 = requestWork(LOCAL_MODEL_PROFILES.q8_0, {
      promptTokens: 3_900,
      cachedTokens: 0,
      replyTokens: 64,
    });

    // Assess: measured 19.6 s and 39 s
    expect(q4.workMs / 1000).toBeCloseTo(21.1, 1);
    expect(q8.workMs / 1000).toBeCloseTo(39.4, 1);
  });
});

describe('scheduleOnSlot', () => {
  it.each([
    ['idle slot: starts on arrival', 0, 100, 50, 100, 150, 0],
    ['busy slot: waits for the work before it', 400, 100, 50, 400, 450, 300],
    ['slot free exactly on arrival', 100, 100, 50, 100, 150, 0],
  ] as const)('%s', (_name, freeAt, arrival, work, start, finish, wait) => {
    expect(scheduleOnSlot(freeAt, arrival, work)).toEqual({
      startMs: start,
      finishMs: finish,
      waitMs: wait,
    });
  });
});

describe('modelTokens', () => {
  it('converts o200k tokens to the model tokenizer and rounds', () => {
    expect(modelTokens({ ...round, tokensPerO200kToken: 1.15 }, 3_400)).toBe(3_910);
    expect(modelTokens(round, 7)).toBe(7);
  });
});

describe('prefix cache', () => {
  it.each([
    [[1, 2, 3], [1, 2, 3], 3],
    [[1, 2, 3], [1, 2, 4], 2],
    [[1, 2], [1, 2, 3], 2],
    [[9], [1], 0],
    [[], [1], 0],
  ])('commonPrefixLength(%j, %j) = %i', (a, b, expected) => {
    expect(commonPrefixLength(a, b)).toBe(expected);
  });

  it('finds the longest prefix among the cached prompts', () => {
    // Prepare
    const cache = [[1, 2, 9], [1, 2, 3, 4, 8], [5]];

    // Act / Assess
    expect(cachedPrefixLength(cache, [1, 2, 3, 4, 5, 6])).toBe(4);
    expect(cachedPrefixLength(cache, [7])).toBe(0);
    expect(cachedPrefixLength([], [1])).toBe(0);
  });

  it('remembers the newest first and forgets the least recent past its capacity', () => {
    // Act
    let cache = rememberTokens([], [1], 2);
    cache = rememberTokens(cache, [2], 2);
    cache = rememberTokens(cache, [3], 2);

    // Assess
    expect(cache).toEqual([[3], [2]]);
  });

  it('drops an entry the new sequence extends, keeps one it only shares a prefix with', () => {
    // Act
    const cache = rememberTokens(
      [
        [1, 2],
        [1, 3],
        [1, 2, 3, 4, 5],
      ],
      [1, 2, 3, 4],
      4,
    );

    // Assess
    expect(cache).toEqual([
      [1, 2, 3, 4],
      [1, 3],
      [1, 2, 3, 4, 5],
    ]);
  });

  it('keeps nothing with capacity 0', () => {
    expect(rememberTokens([[1]], [2], 0)).toEqual([]);
  });
});

describe('renderPrompt', () => {
  const tool = {
    type: 'function',
    function: { name: 'get_weather', parameters: { type: 'object' } },
  };

  it('puts the tools after the system prompt, in the system message, then the turn to write', () => {
    // Act
    const pieces = renderPrompt({
      messages: [
        { role: 'system', content: 'You are Jarvis.' },
        { role: 'user', content: 'weather?' },
      ],
      tools: [tool],
    });

    // Assess
    expect(pieces[0]).toBe(IM_START);
    expect(pieces[1]).toBe('system\n');
    expect(pieces[2]).toMatch(/^You are Jarvis\.\n\n# Tools\n/);
    expect(pieces[2]).toContain(`<tools>\n${JSON.stringify(tool)}\n</tools>`);
    expect(pieces.slice(3)).toEqual([
      IM_END,
      '\n',
      IM_START,
      'user\n',
      'weather?',
      IM_END,
      '\n',
      IM_START,
      'assistant\n',
    ]);
  });

  it('renders a past tool call as the model wrote it, and a tool result as a tool_response', () => {
    // Prepare
    const call = {
      id: 'c1',
      type: 'function',
      function: { name: 'get_weather', arguments: '{"city":"LA"}' },
    };

    // Act
    const pieces = renderPrompt({
      messages: [
        { role: 'user', content: 'weather?' },
        { role: 'assistant', content: null, tool_calls: [call] },
        { role: 'tool', tool_call_id: 'c1', content: 'sunny' },
      ],
    });

    // Assess: no system message without a system prompt or tools
    expect(pieces.slice(0, 2)).toEqual([IM_START, 'user\n']);
    expect(pieces).toContain(
      '<tool_call>\n{"name": "get_weather", "arguments": {"city":"LA"}}\n</tool_call>',
    );
    expect(pieces).toContain('<tool_response>\nsunny\n</tool_response>');
  });

  it('writes a scripted reply exactly as the history will carry it back', () => {
    // Act
    const written = assistantText('On it.', [
      { name: 'set_timer', arguments: { duration_seconds: 60 } },
    ]);
    const carried = assistantText('On it.', [
      {
        id: 'x',
        type: 'function',
        function: { name: 'set_timer', arguments: '{"duration_seconds":60}' },
      },
    ]);

    // Assess
    expect(written).toBe(carried);
    expect(written).toBe(
      'On it.\n<tool_call>\n{"name": "set_timer", "arguments": {"duration_seconds":60}}\n</tool_call>',
    );
  });
});
