import { describe, expect, it } from 'vitest';
import { eventFor, startTimerConversation, useRealHandlers } from './handler-harness';

const handlers = useRealHandlers();
const COMMAND = '/api/v0/voice/command';

describe('a function that reaches its own timeout', () => {
  it('answers 504 function_timeout in the error format, not a 500', async () => {
    // Prepare: the model never answers, and the turn's deadline (25 s) is far past the function's.
    const { invoke, llm } = handlers();
    await startTimerConversation(invoke, 'function-timeout');
    llm.enqueue({ hangMs: 600_000 });
    const body = JSON.stringify({ conversation_id: 'function-timeout', voice_command: 'a timer' });

    // Act
    const response = await invoke(COMMAND, eventFor(COMMAND, body), 1_000);

    // Assess
    expect(response.statusCode).toBe(504);
    expect(JSON.parse(response.body)).toEqual({
      error: {
        code: 'function_timeout',
        message: 'The function ran out of time before it could answer; retry the request.',
        details: [],
      },
    });
  });
});
