import { describe, expect, it } from 'vitest';
import { MODELED_DEADLINE_MS, TIME_SCALE } from '../../bench/local-model/local-model-stack';
import { modeledCallMs, modelWritingDuring } from '../../bench/local-model/modeled-time';

const scale = 20;
/** A model request answered in `modeledMs`, that arrived at real `arrival` and was answered at real `end`. */
const answered = (arrival: number, end: number, modeledMs: number) => ({
  realArrivalMs: arrival,
  realEndMs: end,
  arrivalMs: arrival * scale,
  finishMs: arrival * scale + modeledMs,
  abandoned: false,
});

describe('modeledCallMs', () => {
  it('is the real time of a call that made no model request', () => {
    expect(modeledCallMs({ realStartMs: 100, realEndMs: 105 }, [], scale)).toBe(5);
  });

  it('replaces the real wait for each answered model request by its modeled time', () => {
    // Prepare: 3 ms of the API's own work around two model requests of 2,000 and 500 modeled ms
    const requests = [answered(101, 201, 2_000), answered(202, 228, 500)];

    // Act
    const modeled = modeledCallMs({ realStartMs: 100, realEndMs: 229 }, requests, scale);

    // Assess
    expect(modeled).toBe(3 + 2_000 + 500);
  });

  it('counts a request the API gave up on as the scaled real time it waited: its deadline', () => {
    // Prepare: the API waited its scaled deadline (45 s / 20 = 2,250 real ms) and hung up; the
    // model went on for 60 modeled seconds
    const waitedMs = MODELED_DEADLINE_MS / TIME_SCALE;
    const requests = [{ ...answered(101, 101 + waitedMs, 60_000), abandoned: true }];

    // Act
    const modeled = modeledCallMs(
      { realStartMs: 100, realEndMs: 102 + waitedMs },
      requests,
      TIME_SCALE,
    );

    // Assess: 2 ms of the API's own, then the modeled deadline (npm start's for a local model)
    expect(TIME_SCALE).toBe(scale);
    expect(modeled).toBe(2 + 45_000);
  });

  it('leaves out model requests that arrived outside the call', () => {
    // Prepare
    const requests = [answered(50, 90, 800), answered(300, 310, 200)];

    // Act / Assess
    expect(modeledCallMs({ realStartMs: 100, realEndMs: 110 }, requests, scale)).toBe(10);
  });
});

describe('modelWritingDuring', () => {
  it("sums the generation of the call's model requests, and only theirs", () => {
    // Prepare: two requests during the call (30 and 20 tokens), one before it
    const writes = (arrival: number, generatedTokens: number) => ({
      ...answered(arrival, arrival + 10, 5_000),
      generatedTokens,
      generationMs: generatedTokens * 65,
    });
    const requests = [writes(90, 99), writes(101, 30), writes(150, 20)];

    // Act
    const writing = modelWritingDuring({ realStartMs: 100, realEndMs: 200 }, requests);

    // Assess
    expect(writing).toEqual({ tokens: 50, ms: 50 * 65 });
  });
});
