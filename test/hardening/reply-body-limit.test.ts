import { describe, expect, it } from 'vitest';
import type { StreamedBodyStep } from '../support/scripted-llm-server';
import { eventFor, useRealHandlers } from './handler-harness';

const handlers = useRealHandlers();
const START = '/api/v0/conversation/start';
const COMMAND = '/api/v0/voice/command';
const NOTES = {
  available_commands: [
    { command_name: 'store_note', parameters: [{ name: 'text', type: 'string', required: true }] },
  ],
};

/** 16 MiB of call markup as a reply's text: never sent whole, since the client hangs up. */
const hugeBody = (): StreamedBodyStep => ({
  streamedBody: { chunk: '<function=store_note>{'.repeat(2_978), times: 256 },
  written: { bytes: 0, finished: false },
});

async function send(path: string, body: unknown) {
  const response = await handlers().invoke(path, eventFor(path, JSON.stringify(body)));
  return { status: response.statusCode, json: JSON.parse(response.body) };
}

describe('a model reply body over the byte limit, through the real handlers and the real SDK', () => {
  it('is retried unread and never spoken; every time over is a 502; the conversation is unchanged', async () => {
    // Prepare
    const conversationId = `reply-body-${Math.random().toString(36).slice(2)}`;
    expect((await send(START, { conversation_id: conversationId, ...NOTES })).status).toBe(200);
    const once = hugeBody();
    handlers().llm.reset();
    handlers().llm.enqueue(once, { reply: { content: 'Noted.' } });

    // Act: one oversized body, then a sane reply.
    const retried = await send(COMMAND, { conversation_id: conversationId, voice_command: 'hi' });

    // Assess
    expect(retried.status).toBe(200);
    expect(JSON.stringify(retried.json)).not.toContain('<function=');
    expect(JSON.stringify(retried.json)).toContain('Noted.');
    expect(handlers().llm.requests).toHaveLength(2);
    expect(once.written.finished).toBe(false);

    // Act: every attempt oversized.
    const always = Array.from({ length: 8 }, hugeBody);
    handlers().llm.reset();
    handlers().llm.enqueue(...always);
    const failed = await send(COMMAND, { conversation_id: conversationId, voice_command: 'again' });

    // Assess
    expect(failed.status).toBe(502);
    expect(failed.json.error.details[0]).toMatchObject({ failure: 'malformed_reply' });
    expect(always.every((body) => !body.written.finished)).toBe(true);

    // Act: a normal turn afterwards.
    handlers().llm.reset();
    handlers().llm.enqueue({ reply: { content: 'Fine.' } });
    const next = await send(COMMAND, { conversation_id: conversationId, voice_command: 'hello' });

    // Assess: the failed utterance left nothing in the history the model is sent.
    expect(next.status).toBe(200);
    const sent = JSON.stringify(handlers().llm.requests[0]?.body?.messages);
    expect(sent).toContain('Noted.');
    expect(sent).not.toContain('again');
  }, 120_000);
});
