import { describe, expect, it } from 'vitest';
import { NO_COMMAND_ANSWER } from '../../shared/conversation/turn/direct-answer';
import { ROUTES } from '../support/api-client';
import { useLocalStack } from '../support/local-stack-harness';
import { MUST_CALL_COMMANDS } from '../support/probe-commands';
import { callsReply, conversationIdFor, messagesOf, textReply, toolCall } from './http-fixtures';
import { expectStarted, expectVoiceResponse, onlyCallOf } from './response-contract';

// Issue 29, item 3: where every command says allow_direct_answer: false, a turn never ends in the
// model's direct answer (docs/parameters.md, "Direct answers").
const harness = useLocalStack();

async function startMustCall(label: string): Promise<string> {
  const conversationId = conversationIdFor(label);
  const response = await harness
    .client()
    .post(ROUTES.start, { conversation_id: conversationId, ...MUST_CALL_COMMANDS });
  expectStarted(response, conversationId);
  return conversationId;
}

const say = (conversationId: string, utterance: string) =>
  harness
    .client()
    .post(ROUTES.command, { conversation_id: conversationId, voice_command: utterance });

const toolChoices = () => harness.llm.requests.map((request) => request.body?.tool_choice ?? null);

/** The JSON lines the process wrote since `from`. */
function warningsSince(from: number): Record<string, unknown>[] {
  return harness.output
    .slice(from)
    .join('')
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((line) => line.level === 'WARN');
}

describe('allow_direct_answer: false on every command, over HTTP', () => {
  it('a model that keeps answering in text: every retry asks with tool_choice required, the user hears that it could not be done', async () => {
    // Prepare
    const conversationId = await startMustCall('must-call-text');
    harness.llm.enqueue(
      textReply('Sure, timer set!'),
      textReply('Timer set for ten minutes.'),
      textReply('Done!'),
    );

    // Act
    const body = expectVoiceResponse(await say(conversationId, 'set a timer'), 'complete');

    // Assess
    expect(body.assistant_message).toBe(NO_COMMAND_ANSWER);
    expect(body.model_calls).toBe(3);
    expect(body.retries?.map((retry) => retry.reason)).toEqual([
      'must_call_tool',
      'must_call_tool',
    ]);
    expect(toolChoices()).toEqual(['auto', 'required', 'required']);
    expect(harness.llm.protocolViolations).toEqual([]);
  });

  it('the retry for invalid arguments asks with tool_choice required too', async () => {
    // Prepare
    const conversationId = await startMustCall('must-call-invalid');
    harness.llm.enqueue(
      callsReply(toolCall('set_timer', { duration_seconds: 'ten minutes' })),
      callsReply(toolCall('set_timer', { duration_seconds: 600 }, 'call_timer')),
    );

    // Act
    const body = expectVoiceResponse(await say(conversationId, 'ten minute timer'), 'tool_calls');

    // Assess
    expect(onlyCallOf(body).arguments).toEqual({ duration_seconds: 600 });
    expect(toolChoices()).toEqual(['auto', 'required']);
  });

  // Last: the refusal, once remembered, stays remembered for the container (the file's stack).
  it('a server that refuses tool_choice "required" is asked again without it, once, and never sent it again', async () => {
    // Prepare
    const conversationId = await startMustCall('must-call-refused');
    harness.llm.enqueue(
      textReply('Sure, timer set!'),
      {
        status: 400,
        body: {
          error: {
            message: 'tool_choice "required" is not supported',
            type: 'BadRequestError',
            param: 'tool_choice',
          },
        },
      },
      callsReply(toolCall('set_timer', { duration_seconds: 60 }, 'call_one')),
      textReply('Timer set.'),
      textReply('Timer set again.'),
      textReply('Still set.'),
      textReply('It is set.'),
    );
    const from = harness.output.length;

    // Act
    const first = expectVoiceResponse(await say(conversationId, 'one minute timer'), 'tool_calls');
    const resumed = await harness.client().post(ROUTES.continue, {
      conversation_id: conversationId,
      tool_results: [{ tool_call_id: 'call_one', output: { ok: true } }],
    });
    expectVoiceResponse(resumed, 'complete');
    const second = expectVoiceResponse(await say(conversationId, 'another timer'), 'complete');

    // Assess
    expect(onlyCallOf(first).name).toBe('set_timer');
    expect(second.assistant_message).toBe(NO_COMMAND_ANSWER);
    expect(toolChoices()).toEqual(['auto', 'required', null, 'auto', 'auto', null, null]);
    const warnings = warningsSince(from);
    expect(warnings.map((warning) => warning.message)).toEqual([
      'the model server refused tool_choice "required"; sent no more from this container',
    ]);
    expect(messagesOf(harness.llm.requests[2]).at(-1)?.role).toBe('system');
  });
});
