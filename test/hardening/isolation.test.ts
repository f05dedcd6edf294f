import { beforeEach, describe, expect, it } from 'vitest';
import { type ArmDeadline, WorkerIsolation } from '../../shared/adapters/isolation';
import { eventFor, startTimerConversation, useRealHandlers } from './handler-harness';

/**
 * The last line of defence (issue 18, item 2) through the real handlers and the real worker.
 * The deadline is the one thing faked: a test marks the next job as overrun and the deadline
 * fires at once, so a miss is counted, never timed.
 */
let overrunNext = false;
let deadlinesFired = 0;
const armDeadline: ArmDeadline = (onOverrun, ms) => {
  if (!overrunNext) {
    const timer = setTimeout(onOverrun, ms);
    return () => clearTimeout(timer);
  }
  overrunNext = false;
  deadlinesFired += 1;
  onOverrun();
  return () => {};
};
const handlers = useRealHandlers(new WorkerIsolation({ armDeadline }));
const START = '/api/v0/conversation/start';
const COMMAND = '/api/v0/voice/command';
let conversation = 0;

beforeEach(() => {
  handlers().llm.reset();
  overrunNext = false;
  deadlinesFired = 0;
});

const send = (path: string, body: unknown) =>
  handlers().invoke(path, eventFor(path, JSON.stringify(body)));
const errorOf = (response: { body: string }) => JSON.parse(response.body).error;

async function started(): Promise<string> {
  conversation += 1;
  const conversationId = `isolation-${conversation}`;
  await startTimerConversation(handlers().invoke, conversationId);
  return conversationId;
}

describe('untrusted work past its limit costs one request, never the process', () => {
  it('a reply not checked in time is a 502 reply_check_failed; the conversation goes on', async () => {
    // Prepare
    const conversationId = await started();
    const call = { name: 'set_timer', arguments: '{"duration_seconds": 300}' };
    handlers().llm.enqueue({ reply: { tool_calls: [call] } }, { reply: { tool_calls: [call] } });

    // Act
    overrunNext = true;
    const missed = await send(COMMAND, { conversation_id: conversationId, voice_command: 'timer' });
    const next = await send(COMMAND, { conversation_id: conversationId, voice_command: 'timer' });

    // Assess
    expect(deadlinesFired).toBe(1);
    expect(missed.statusCode).toBe(502);
    expect(errorOf(missed)).toMatchObject({
      code: 'reply_check_failed',
      details: [{ limit: 'time', limit_ms: 1_000 }],
    });
    // Nothing was saved: the next utterance is answered by a fresh worker, from a clean history.
    expect(next.statusCode).toBe(200);
    const answer = JSON.parse(next.body);
    expect(answer.tool_calls).toHaveLength(1);
    expect(answer.tool_calls[0].function).toMatchObject({ name: 'set_timer' });
    const secondRequest = handlers().llm.requests.at(-1)?.body as { messages: unknown[] };
    expect(
      secondRequest.messages.filter((m) => (m as { role: string }).role === 'user'),
    ).toHaveLength(1);
  });

  it('a registration not compiled in time is a 422 command_set_too_costly; nothing is stored', async () => {
    // Prepare
    const conversationId = `isolation-start-${++conversation}`;
    const registration = {
      conversation_id: conversationId,
      available_commands: [{ command_name: 'lights_on', parameters: [] }],
    };

    // Act
    overrunNext = true;
    const refused = await send(START, registration);
    const command = await send(COMMAND, { conversation_id: conversationId, voice_command: 'hi' });
    const again = await send(START, registration);

    // Assess
    expect(deadlinesFired).toBe(1);
    expect(refused.statusCode).toBe(422);
    expect(errorOf(refused)).toMatchObject({
      code: 'command_set_too_costly',
      details: [{ limit: 'time', limit_ms: 2_000 }],
    });
    expect(command.statusCode).toBe(404);
    expect(again.statusCode).toBe(200);
  });
});
