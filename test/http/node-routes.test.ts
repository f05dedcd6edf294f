import { describe, expect, it } from 'vitest';
import { type ApiClient, type ApiResponse, ROUTES } from '../support/api-client';
import { useLocalStack } from '../support/local-stack-harness';
import {
  acknowledgementModel,
  dateContextModel,
  strictClientProblems,
  toolCallingResponseModel,
} from '../support/strict-node-models';
import { callsReply, startWithFixture, textReply, toolCall } from './http-fixtures';
import { expectError, expectVoiceResponse, type VoiceResponse } from './response-contract';

// These tests pin what a server that does not speak answers (npm start speaks unless told not to);
// test/http/voice-stream.test.ts covers the one that does.
const harness = useLocalStack({ env: { TTS_PROVIDER: 'none' } });

/** Every 2xx a strict node client parses: checked against the node's own response models. */
function parsedByNode(response: ApiResponse, model: Record<string, unknown>): void {
  expect(response.status, response.text).toBeGreaterThanOrEqual(200);
  expect(response.status, response.text).toBeLessThan(300);
  expect(strictClientProblems(model, response.json)).toEqual([]);
}

/** A voice response the node accepts, for the turn opened by `utterance`. */
function nodeTurn(response: ApiResponse, utterance: string, status = 200): VoiceResponse {
  parsedByNode(response, toolCallingResponseModel);
  const body = expectVoiceResponse(response, undefined, status);
  expect(body.request_information.voice_command).toBe(utterance);
  return body;
}

const post = (client: ApiClient, path: string, body: Record<string, unknown>) =>
  client.post(path, body);

describe('every response of every route parses in a strict node client', () => {
  it('date context, start, acknowledge, a stream turn of two tool rounds, a clarification, a direct answer', async () => {
    const client = harness.client();
    const dates = await client.get(`${ROUTES.dateContext}?timezone=America/New_York`);
    parsedByNode(dates, dateContextModel);
    const id = await startWithFixture(client, 'strict-node');
    const math = 'what is 12 times 7, plus 3';
    parsedByNode(
      await post(client, ROUTES.acknowledge, { voice_command: math }),
      acknowledgementModel,
    );

    harness.llm.enqueue(
      callsReply(toolCall('calculate', { num1: 12, num2: 7, operation: 'multiply' }, 'call_1')),
      callsReply(toolCall('calculate', { num1: 84, num2: 3, operation: 'add' }, 'call_2')),
      textReply('Twelve times seven plus three is 87.'),
    );
    const first = nodeTurn(
      await post(client, ROUTES.commandStream, { conversation_id: id, voice_command: math }),
      math,
      202,
    );
    const results = (callId: string, value: number) => ({
      conversation_id: id,
      tool_results: [{ tool_call_id: callId, output: { success: true, result: value } }],
    });
    expect(
      (await post(client, ROUTES.continueStream, results(first.tool_calls[0]?.id ?? '', 84)))
        .status,
    ).toBe(202);
    const second = nodeTurn(await post(client, ROUTES.continue, results('call_1', 84)), math);
    expect(second.stop_reason).toBe('tool_calls');
    const done = nodeTurn(await post(client, ROUTES.continue, results('call_2', 87)), math);
    expect(done).toMatchObject({
      stop_reason: 'complete',
      assistant_message: 'Twelve times seven plus three is 87.',
    });

    const timer = 'set a timer';
    harness.llm.enqueue(
      callsReply(
        toolCall(
          'request_validation',
          { question: 'For how long?', parameter_name: 'duration_seconds' },
          'call_ask',
        ),
      ),
      callsReply(toolCall('set_timer', { duration_seconds: 300 }, 'call_timer')),
    );
    const asked = nodeTurn(
      await post(client, ROUTES.command, { conversation_id: id, voice_command: timer }),
      timer,
    );
    expect(asked.stop_reason).toBe('validation_required');
    const answer = {
      answer: 'five minutes',
      parameter_name: asked.validation_request?.parameter_name,
      question: asked.validation_request?.question,
      options: asked.validation_request?.options,
    };
    const called = nodeTurn(
      await post(client, ROUTES.continue, {
        conversation_id: id,
        tool_results: [{ tool_call_id: asked.validation_request?.tool_call_id, output: answer }],
      }),
      timer,
    );
    expect(called.tool_calls.map((call) => call.function.name)).toEqual(['set_timer']);

    const joke = 'tell me something nice';
    harness.llm.enqueue(textReply('You are doing great.'));
    const direct = nodeTurn(
      await post(client, ROUTES.command, { conversation_id: id, voice_command: joke }),
      joke,
    );
    expect(direct.stop_reason).toBe('complete');
  });
});

describe('POST /api/v0/voice/command/stream, on a server that does not speak', () => {
  it('is the voice/command turn answered 202: the same body, and the same request id replays it there', async () => {
    const client = harness.client();
    const id = await startWithFixture(client, 'stream');
    harness.llm.enqueue(textReply('Hello!'));
    const body = { conversation_id: id, voice_command: 'hi', request_id: 'stream-1' };

    const streamed = await post(client, ROUTES.commandStream, body);
    const replayed = await post(client, ROUTES.command, body);

    expect(streamed.status).toBe(202);
    expect(replayed.status).toBe(200);
    expect(replayed.headers.get('idempotent-replayed')).toBe('true');
    expect(replayed.json).toEqual(streamed.json);
    expect(harness.llm.requests).toHaveLength(1);
  });

  it.each([
    ['no key', null, { voice_command: 'hi', conversation_id: 'x' }, 401],
    ['a body that fails the schema', undefined, { voice_command: 'hi' }, 400],
    ['an unknown conversation', undefined, { voice_command: 'hi', conversation_id: 'nope' }, 404],
  ])('answers %s as voice/command does: %s', async (_case, key, body, status) => {
    const options = key === null ? { key: null } : {};
    const streamed = await harness.client().post(ROUTES.commandStream, body, options);
    const blocking = await harness.client().post(ROUTES.command, body, options);
    expectError(streamed, status);
    expect(streamed.json).toEqual(blocking.json);
  });
});

describe('POST /api/v0/voice/command/continue/stream, on a server that does not speak', () => {
  it('answers 202 "use the blocking route" and changes nothing: continue then does the work once', async () => {
    const client = harness.client();
    const id = await startWithFixture(client, 'continue-stream');
    harness.llm.enqueue(
      callsReply(toolCall('set_timer', { duration_seconds: 60 }, 'call_t')),
      textReply('Timer set.'),
    );
    await post(client, ROUTES.command, { conversation_id: id, voice_command: 'one minute timer' });
    const results = {
      conversation_id: id,
      tool_results: [{ tool_call_id: 'call_t', output: 'ok' }],
    };

    const fallback = await post(client, ROUTES.continueStream, results);
    const again = await post(client, ROUTES.continueStream, results);
    const done = await post(client, ROUTES.continue, results);

    expect(fallback.status).toBe(202);
    expect(fallback.json).toMatchObject({ status: 'use_blocking_route', route: ROUTES.continue });
    expect(again.json).toEqual(fallback.json);
    expect(expectVoiceResponse(done, 'complete').assistant_message).toBe('Timer set.');
    expect(harness.llm.requests).toHaveLength(2);
  });

  it('checks the key and the body first', async () => {
    const results = { conversation_id: 'x', tool_results: [{ tool_call_id: 'c', output: 1 }] };
    expectError(await harness.client().post(ROUTES.continueStream, results, { key: null }), 401);
    expectError(await harness.client().post(ROUTES.continueStream, { conversation_id: 'x' }), 400);
  });
});

describe('POST /api/v0/voice/acknowledge', () => {
  it('answers a short phrase without asking the model, even one that would fail', async () => {
    harness.llm.enqueue({ status: 500 });

    const response = await harness.client().post(ROUTES.acknowledge, {
      voice_command: "what's the weather tomorrow",
    });

    expect(response.status).toBe(200);
    expect(response.json).toEqual({ text: 'Checking the forecast.' });
    expect(harness.llm.requests).toHaveLength(0);
  });

  it('refuses a missing key (401) and an empty utterance (400)', async () => {
    expectError(
      await harness.client().post(ROUTES.acknowledge, { voice_command: 'hi' }, { key: null }),
      401,
    );
    expectError(await harness.client().post(ROUTES.acknowledge, { voice_command: '' }), 400);
  });
});

describe('GET /api/v0/generate/date-context', () => {
  it('answers in the registered zone, not the one the node asks for', async () => {
    const response = await harness.client().get(`${ROUTES.dateContext}?timezone=Asia/Kolkata`);

    parsedByNode(response, dateContextModel);
    expect(response.json).toMatchObject({ timezone: { user_timezone: 'America/New_York' } });
  });

  it('refuses a request without the node key (401) and a POST (405)', async () => {
    const anonymous = await fetch(`${harness.stack.url}${ROUTES.dateContext}`);
    const posted = await harness.client().post(ROUTES.dateContext, {});

    expect(anonymous.status).toBe(401);
    expect(posted.status).toBe(405);
    expect(posted.headers.get('allow')).toBe('GET');
  });
});
