import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type ArmDeadline, WorkerIsolation } from '../../shared/adapters/isolation';
import { eventFor, useRealHandlers } from './handler-harness';
import { multipliedRequest } from './multiplied-requests';

/** `npm test` runs a few; `npm run fuzz` sets FUZZ_GENERATOR_RUNS higher. */
const RUNS = Math.ceil(Number(process.env.FUZZ_GENERATOR_RUNS ?? 40) / 4);
const fuzz = {
  numRuns: RUNS,
  endOnFailure: true,
  ...(process.env.FUZZ_SEED ? { seed: Number(process.env.FUZZ_SEED) } : {}),
};

/** The worker's real deadlines, counted: a 502 reply_check_failed must be one that fired. */
let deadlinesFired = 0;
const countingDeadline: ArmDeadline = (onOverrun, ms) => {
  const timer = setTimeout(() => {
    deadlinesFired += 1;
    onOverrun();
  }, ms);
  return () => clearTimeout(timer);
};
const handlers = useRealHandlers(new WorkerIsolation({ armDeadline: countingDeadline }));
const NOTES = {
  available_commands: [
    { command_name: 'store_note', parameters: [{ name: 'text', type: 'string', required: true }] },
  ],
};

async function send(path: string, body: unknown) {
  const response = await handlers().invoke(path, eventFor(path, JSON.stringify(body)));
  const json = JSON.parse(response.body);
  const shown = JSON.stringify(json).slice(0, 300);
  // Every answer is JSON; every refusal names itself in the error body; never a 500.
  if (response.statusCode >= 400) {
    expect(json.error, shown).toMatchObject({ code: expect.any(String) });
  }
  expect(response.statusCode, shown).not.toBe(500);
  return { status: response.statusCode, json, shown };
}

describe('multiplied requests through the real handlers and the real worker (issue 18 item 8)', () => {
  it(`${RUNS} registrations × replies with every knob at once: answered, counted, usable`, async () => {
    await fc.assert(
      fc.asyncProperty(multipliedRequest, async (hostile) => {
        const conversationId = `multiplied-request-${Math.random().toString(36).slice(2)}`;
        const start = '/api/v0/conversation/start';
        let started = await send(start, {
          conversation_id: conversationId,
          ...hostile.registration,
        });
        expect([200, 400, 413, 422], started.shown).toContain(started.status);
        // A refused registration still leaves the reply side to attack: a plain one instead.
        if (started.status !== 200) {
          started = await send(start, { conversation_id: conversationId, ...NOTES });
          expect(started.status, started.shown).toBe(200);
        }
        handlers().llm.reset();
        handlers().llm.enqueue(...hostile.modelReplies);
        const firedBefore = deadlinesFired;
        const request = hostile.request ?? { path: '/api/v0/voice/command', body: {} };
        const answer = await send(request.path, {
          conversation_id: conversationId,
          ...request.body,
        });

        const fired = deadlinesFired - firedBefore;
        if (answer.status === 502 && answer.json.error.code === 'reply_check_failed') {
          expect(fired, answer.shown).toBeGreaterThan(0);
        } else {
          expect(answer.status, answer.shown).toBe(200);
          expect(fired).toBe(0);
        }
        // Usable afterwards: what was handed out can be continued, and a new utterance works.
        handlers().llm.reset();
        handlers().llm.enqueue({ reply: { content: 'Fine.' } }, { reply: { content: 'Fine.' } });
        const handedOut: { id: string }[] = answer.json.tool_calls ?? [];
        if (handedOut.length > 0) {
          const results = handedOut.map((call) => ({ tool_call_id: call.id, output: 'done' }));
          const continued = await send('/api/v0/voice/command/continue', {
            conversation_id: conversationId,
            tool_results: results,
          });
          expect(continued.status, continued.shown).toBe(200);
        }
        const next = await send('/api/v0/voice/command', {
          conversation_id: conversationId,
          voice_command: 'hello',
        });
        expect(next.status, next.shown).toBe(200);
      }),
      fuzz,
    );
  }, 600_000);
});
