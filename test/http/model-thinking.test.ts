import { describe, expect, it } from 'vitest';
import { ROUTES } from '../support/api-client';
import { useLocalStack } from '../support/local-stack-harness';
import { startWithFixture, textReply } from './http-fixtures';
import { expectVoiceResponse } from './response-contract';

// The scripted model listens on 127.0.0.1: MODEL_SERVER=auto sends it the chat-template switch.
const harness = useLocalStack();

/** The JSON lines the process wrote since `from` (Powertools logs and metrics). */
function jsonLinesSince(from: number): Record<string, unknown>[] {
  return harness.output
    .slice(from)
    .join('')
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

const completionWithReasoning = (reasoningTokens: number) => ({
  rawBody: JSON.stringify({
    choices: [{ message: { role: 'assistant', content: 'Hello there.' }, finish_reason: 'stop' }],
    usage: {
      prompt_tokens: 2747,
      completion_tokens: reasoningTokens + 4,
      completion_tokens_details: { reasoning_tokens: reasoningTokens },
    },
  }),
});

const refusal = {
  status: 400,
  body: {
    error: {
      message: 'Unrecognized request argument supplied: chat_template_kwargs',
      type: 'invalid_request_error',
    },
  },
};

const say = (conversationId: string) =>
  harness.client().post(ROUTES.command, { conversation_id: conversationId, voice_command: 'hi' });

// One container for the file: the refusal, once remembered, stays remembered (last test).
describe('MODEL_THINKING through npm start (default off, MODEL_SERVER auto)', () => {
  it('asks the model not to think, and counts the reasoning tokens it reports', async () => {
    // Prepare
    const conversationId = await startWithFixture(harness.client(), 'thinking');
    harness.llm.enqueue(completionWithReasoning(371));
    const from = harness.output.length;

    // Act
    const response = await say(conversationId);

    // Assess
    expectVoiceResponse(response);
    expect(harness.llm.requests[0]?.body).toMatchObject({
      chat_template_kwargs: { enable_thinking: false },
    });
    const lines = jsonLinesSince(from);
    const metrics = lines.find((line) => '_aws' in line && line.route === 'voice-command');
    expect(metrics?.reasoning_tokens).toBe(371);
    const turn = lines.find((line) => line.message === 'turn finished');
    expect(turn?.tokens).toMatchObject({ completion: 375, reasoning: 371 });
  });

  it('a server that refuses the field answers the turn anyway, and is never sent it again', async () => {
    // Prepare
    const conversationId = await startWithFixture(harness.client(), 'thinking-refused');
    harness.llm.enqueue(refusal, textReply('Hello there.'), textReply('Hello again.'));
    const from = harness.output.length;

    // Act
    const first = await say(conversationId);
    const second = await say(conversationId);

    // Assess
    expect([first.status, second.status]).toEqual([200, 200]);
    const sent = harness.llm.requests.map(
      (request) => 'chat_template_kwargs' in (request.body ?? {}),
    );
    expect(sent).toEqual([true, false, false]);
    const warnings = jsonLinesSince(from).filter((line) => line.level === 'WARN');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]?.message).toContain('refused the thinking field');
    expect(warnings[0]?.fields).toEqual(['chat_template_kwargs']);
  });
});

describe('npm start against a model on loopback', () => {
  it('gives a turn the local deadline; a setting the user gave (here the warm-up) wins', () => {
    // The harness sets WARMUP_TIMEOUT_MS=0 and leaves TURN_DEADLINE_MS unset.
    expect(harness.stack.timing).toEqual({
      turnDeadlineMs: 45_000,
      warmUpTimeoutMs: 0,
      setForLocalModel: ['TURN_DEADLINE_MS'],
    });
  });
});
