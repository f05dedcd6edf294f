import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileCommandSet } from '../../shared/params';
import { instructionsVisited } from '../../shared/params/formats/linear-pattern/run-program';
import { costBound } from '../../shared/params/limits/cost-bound';
import { SCHEMA_LIMITS } from '../../shared/params/limits/limits';
import { eventFor, useRealHandlers } from './handler-harness';
import { argumentsAtLimits, multipliedParameters } from './multiplied-generators';

/** `npm test` runs a few dozen cases; `npm run fuzz` sets FUZZ_GENERATOR_RUNS higher. */
const RUNS = Number(process.env.FUZZ_GENERATOR_RUNS ?? 60);
const fuzz = {
  numRuns: RUNS,
  endOnFailure: true,
  ...(process.env.FUZZ_SEED ? { seed: Number(process.env.FUZZ_SEED) } : {}),
};
const handlers = useRealHandlers();
const send = async (path: string, body: unknown) => {
  const response = await handlers().invoke(path, eventFor(path, JSON.stringify(body)));
  return { status: response.statusCode, json: JSON.parse(response.body) };
};
const source = (parameters: unknown) => ({
  client_tools: [{ type: 'function', function: { name: 'probe', parameters } }],
});

describe('every knob at its limit at once, nested (issue 18 item 8)', () => {
  it(`${RUNS} multiplied schemas: refused at start, or validation within the proven bound (counted)`, () => {
    fc.assert(
      fc.property(multipliedParameters, argumentsAtLimits, (parameters, args) => {
        const compiled = compileCommandSet(source(parameters));
        if (!compiled.ok) return;
        const tool = compiled.value.tools[0];
        const bound = costBound(tool?.function.parameters).stepsPerByte;
        expect(bound).toBeLessThanOrEqual(SCHEMA_LIMITS.stepsPerByte);

        const before = instructionsVisited();
        const check = compiled.value.check({ name: 'probe', arguments: args }, 'lossless');
        const visited = instructionsVisited() - before;

        // Arguments over their limits are refused before any pattern runs.
        const bytes = new TextEncoder().encode(JSON.stringify(args)).length;
        expect(visited).toBeLessThanOrEqual(bound * bytes);
        expect(typeof check.ok).toBe('boolean');
      }),
      fuzz,
    );
  });

  it(`${Math.ceil(RUNS / 4)} multiplied registrations and calls through the real handlers: no process death, the conversation usable`, async () => {
    await fc.assert(
      fc.asyncProperty(multipliedParameters, argumentsAtLimits, async (parameters, args) => {
        const id = `multiplied-${Math.random().toString(36).slice(2)}`;
        const started = await send('/api/v0/conversation/start', {
          conversation_id: id,
          ...source(parameters),
        });
        expect([200, 400, 413], JSON.stringify(started.json).slice(0, 300)).toContain(
          started.status,
        );
        if (started.status !== 200) return;
        handlers().llm.reset();
        const probe = {
          reply: { tool_calls: [{ name: 'probe', arguments: JSON.stringify(args) }] },
        };
        handlers().llm.enqueue(probe, probe, probe, { reply: { content: 'Done.' } });
        const answer = await send('/api/v0/voice/command', {
          conversation_id: id,
          voice_command: 'probe',
        });
        expect([200, 502], JSON.stringify(answer.json).slice(0, 300)).toContain(answer.status);
        handlers().llm.reset();
        handlers().llm.enqueue({ reply: { content: 'Fine.' } });
        const next = await send('/api/v0/voice/command', {
          conversation_id: id,
          voice_command: 'hello',
        });
        expect(next.status, JSON.stringify(next.json).slice(0, 300)).toBe(200);
      }),
      { ...fuzz, numRuns: Math.ceil(RUNS / 4) },
    );
  }, 600_000);
});
