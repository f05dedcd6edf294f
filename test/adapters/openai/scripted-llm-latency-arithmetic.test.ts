import { describe, expect, it } from 'vitest';
import {
  promptEvaluationMs,
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
  // 100 tokens/s, whatever the count.
  promptPoints: [{ tokens: 1_000, ms: 10_000 }],
  generationTokensPerSecond: 10,
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

  it.each([
    // profile, what, prompt tokens, cached, reply, max_tokens, modeled s, measured s (issue 21)
    ['q4_0', 'a warm-up start: the whole prompt, one token', 2_747, 0, 50, 1, 14.06, 14.0],
    ['q8_0', 'a warm-up start: the whole prompt, one token', 2_747, 0, 50, 1, 18.63, 18.6],
    [
      'q4_0',
      'a warm command: 46 uncached tokens, a 34-token call',
      2_747,
      2_701,
      34,
      1_024,
      3.276,
      3.3,
    ],
    [
      'q8_0',
      'a warm command: 46 uncached tokens, a 34-token call',
      2_747,
      2_701,
      34,
      1_024,
      3.276,
      3.4,
    ],
  ] as const)(
    '%s reproduces issue 21: %s',
    (profile, _what, promptTokens, cachedTokens, replyTokens, maxTokens, modeled, measured) => {
      // Act
      const work = requestWork(LOCAL_MODEL_PROFILES[profile], {
        promptTokens,
        cachedTokens,
        replyTokens,
        maxTokens,
      });

      // Assess: the modeled figure, within 5 % of the measured one
      expect(work.workMs / 1000).toBeCloseTo(modeled, 2);
      expect(Math.abs(work.workMs / 1000 - measured) / measured).toBeLessThan(0.05);
    },
  );

  it.each([
    ['below the first point: on the line from 0', 0.5, 32.26],
    ['at a point', 46, 1_082.35],
    ['between points', 1_000, 5_645.2],
    ["past the last: at the last segment's rate", 3_747, 18_782.7],
  ])('interpolates the prompt time %s', (_case, tokens, ms) => {
    expect(promptEvaluationMs(LOCAL_MODEL_PROFILES.q4_0.promptPoints, tokens)).toBeCloseTo(ms, 0);
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
