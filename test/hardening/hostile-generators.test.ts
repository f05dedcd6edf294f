import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { eventFor, useRealHandlers } from './handler-harness';
import { hostileArguments, hostileReply, hostileSchema } from './hostile-generators';

/** `npm test` runs a few hundred cases; `npm run fuzz` sets FUZZ_GENERATOR_RUNS higher. */
const RUNS = Number(process.env.FUZZ_GENERATOR_RUNS ?? 120);
const ANSWERABLE_ID = /^[\x21-\x7E]{1,128}$/;
const handlers = useRealHandlers();

const send = async (path: string, body: unknown) => {
  const response = await handlers().invoke(path, eventFor(path, JSON.stringify(body)));
  return { status: response.statusCode, json: JSON.parse(response.body) };
};
const newId = () => `generated-${Math.random().toString(36).slice(2)}`;
const TIMER_AND_CALCULATE = {
  available_commands: [
    {
      command_name: 'set_timer',
      parameters: [{ name: 'duration_seconds', type: 'int', required: true }],
    },
    {
      command_name: 'calculate',
      parameters: [
        { name: 'num1', type: 'float', required: true },
        { name: 'num2', type: 'float', required: true },
        { name: 'operation', type: 'string', required: true, enum_values: ['add', 'subtract'] },
      ],
    },
  ],
};
const fuzz = {
  numRuns: RUNS,
  endOnFailure: true,
  ...(process.env.FUZZ_SEED ? { seed: Number(process.env.FUZZ_SEED) } : {}),
};

/** Whatever the model sent, the node got something it can answer, and the next request works. */
async function expectAnswerable(
  id: string,
  answer: { status: number; json: Record<string, unknown> },
) {
  expect([200, 502], JSON.stringify(answer.json).slice(0, 300)).toContain(answer.status);
  if (answer.status !== 200) return;
  const calls = (answer.json.tool_calls ?? []) as {
    id: string;
    function: { name: string; arguments: string };
  }[];
  expect(new Set(calls.map((call) => call.id)).size).toBe(calls.length);
  expect(calls.length).toBeLessThanOrEqual(32);
  for (const call of calls) {
    expect(call.id).toMatch(ANSWERABLE_ID);
    expect(['set_timer', 'calculate']).toContain(call.function.name);
    expect(typeof JSON.parse(call.function.arguments)).toBe('object');
  }
  const said = [
    answer.json.assistant_message,
    (answer.json.validation_request as { question?: string } | null)?.question,
  ];
  for (const text of said.filter((value): value is string => typeof value === 'string')) {
    expect(text).not.toMatch(/unlock_front_door|<tool_call|<function=|```/);
  }
  const pending =
    answer.json.stop_reason === 'validation_required'
      ? [(answer.json.validation_request as { tool_call_id: string }).tool_call_id]
      : calls.map((call) => call.id);
  if (pending.length === 0) return;
  handlers().llm.reset();
  handlers().llm.enqueue({ reply: { content: 'Done.' } });
  const results = pending.map((toolCallId) => ({
    tool_call_id: toolCallId,
    output: { success: true },
  }));
  const continued = await send('/api/v0/voice/command/continue', {
    conversation_id: id,
    tool_results: results,
  });
  expect(continued.status, JSON.stringify(continued.json).slice(0, 300)).toBe(200);
}

describe('generated hostile schemas and model replies through the real handlers', () => {
  it(`${RUNS} hostile schemas: start answers 200, 400 or 413, and a registered one survives any arguments`, async () => {
    await fc.assert(
      fc.asyncProperty(hostileSchema, hostileArguments, async (schema, args) => {
        const id = newId();
        const registration = {
          conversation_id: id,
          client_tools: [{ type: 'function', function: { name: 'probe', parameters: schema } }],
        };
        const started = await send('/api/v0/conversation/start', registration);
        expect([200, 400, 413], JSON.stringify(started.json).slice(0, 300)).toContain(
          started.status,
        );
        if (started.status !== 200) return;
        handlers().llm.reset();
        const probe = {
          reply: { tool_calls: [{ name: 'probe', arguments: JSON.stringify(args) ?? '{}' }] },
        };
        handlers().llm.enqueue(probe, probe, probe);
        const answer = await send('/api/v0/voice/command', {
          conversation_id: id,
          voice_command: 'probe it',
        });
        expect([200, 502], JSON.stringify(answer.json).slice(0, 300)).toContain(answer.status);
        expect(handlers().llm.protocolViolations).toEqual([]);
      }),
      fuzz,
    );
  }, 600_000);

  it(`${RUNS} hostile model replies: the node only ever gets calls it can answer, and continue works`, async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(hostileReply, { minLength: 1, maxLength: 4 }), async (replies) => {
        const id = newId();
        expect(
          (
            await send('/api/v0/conversation/start', {
              ...TIMER_AND_CALCULATE,
              conversation_id: id,
            })
          ).status,
        ).toBe(200);
        handlers().llm.reset();
        handlers().llm.enqueue(...replies, ...replies, ...replies);
        const answer = await send('/api/v0/voice/command', {
          conversation_id: id,
          voice_command: 'do it',
        });
        expect(handlers().llm.protocolViolations).toEqual([]);
        await expectAnswerable(id, answer);
      }),
      fuzz,
    );
  }, 600_000);
});
