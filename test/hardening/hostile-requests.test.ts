import { describe, expect, it } from 'vitest';
import { eventFor, useRealHandlers } from './handler-harness';
import { HOSTILE_REQUEST_CASES } from './hostile-requests';

const handlers = useRealHandlers();

// Before issue 10 these rows took seconds of CPU or gigabytes, answered 500 or 502, or left the
// conversation unusable; here each gets its documented status and the conversation still works.
describe('the hostile corpus through the real handlers (issue 10)', () => {
  it.each(HOSTILE_REQUEST_CASES.map((hostile) => hostile.name))('%s', async (name) => {
    const hostile = HOSTILE_REQUEST_CASES.find((candidate) => candidate.name === name);
    if (hostile === undefined) throw new Error(`no case ${name}`);
    const { invoke, llm } = handlers();
    const conversationId = `hostile-${Math.random().toString(36).slice(2)}`;
    const send = async (path: string, body: unknown, anonymous = false) => {
      const headers = { 'content-type': 'application/json' };
      const event = anonymous
        ? eventFor(path, JSON.stringify(body), headers)
        : eventFor(path, JSON.stringify(body));
      const response = await invoke(path, event);
      return { status: response.statusCode, body: response.body };
    };
    llm.reset();

    const started = await send('/api/v0/conversation/start', {
      ...hostile.registration,
      conversation_id: conversationId,
    });
    llm.enqueue(...hostile.modelReplies);
    const answer =
      hostile.request === null
        ? started
        : await send(
            hostile.request.path,
            { conversation_id: conversationId, ...hostile.request.body },
            hostile.anonymous,
          );

    expect(hostile.expectedStatuses, answer.body.slice(0, 300)).toContain(answer.status);
    if (hostile.request !== null) {
      expect(started.status).toBe(200);
      llm.reset();
      llm.enqueue({ reply: { content: 'Okay.' } });
      const next = await send('/api/v0/voice/command', {
        conversation_id: conversationId,
        voice_command: 'thanks',
      });
      expect(next.status, next.body.slice(0, 300)).toBe(200);
    }
  });
});
