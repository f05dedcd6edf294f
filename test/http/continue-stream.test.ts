import { describe, expect, it } from 'vitest';
import { ROUTES } from '../support/api-client';
import { tonePcm } from '../support/speech-audio';
import { callsReply, messagesOf, textReply, toolCall } from './http-fixtures';
import { expectVoiceResponse } from './response-contract';
import { SPEECH_RATE, useSpeechApi } from './speech-api';
import { ANSWER, nodeControl, postJson, read, results, start, UTTERANCE } from './speech-exchange';

const api = useSpeechApi();

describe('POST /api/v0/voice/command/continue/stream, then the blocking continue', () => {
  /** A conversation whose turn waits on the node's `calculate` call `call_mul`. */
  async function pendingCall(label: string): Promise<string> {
    const id = await start(api().speaking, label);
    api().llm.enqueue(
      callsReply(toolCall('calculate', { num1: 12, num2: 7, operation: 'multiply' }, 'call_mul')),
    );
    const first = await read(
      await postJson(api().speaking, ROUTES.commandStream, {
        conversation_id: id,
        voice_command: UTTERANCE,
      }),
    );
    expect(nodeControl(first).tool_calls[0]?.id).toBe('call_mul');
    return id;
  }

  /** How often the result of call_mul reached the model, over every request it got. */
  const resultsSent = () =>
    api()
      .llm.requests.at(-1)
      ?.body?.messages?.filter(
        (message) => message.role === 'tool' && message.tool_call_id === 'call_mul',
      ).length;

  it('streams the final answer of the continue as speech (200)', async () => {
    // Prepare
    const id = await pendingCall('continue-stream-answer');
    api().llm.enqueue(textReply(ANSWER));
    api().audio.enqueueSpeech({ audio: tonePcm(0.2, SPEECH_RATE) });

    // Act
    const response = await read(
      await postJson(api().speaking, ROUTES.continueStream, results(id, 'call_mul', 84)),
    );

    // Assess
    expect(response.status).toBe(200);
    expect(response.headers.get('x-audio-sample-rate')).toBe(String(SPEECH_RATE));
    expect(response.bytes.length).toBe(tonePcm(0.2, SPEECH_RATE).length);
    expect(api().llm.requests).toHaveLength(2);
    expect(resultsSent()).toBe(1);
  });

  it('hands a non-final outcome (202) to the blocking continue: one model call, the results recorded once', async () => {
    // Prepare
    const id = await pendingCall('continue-stream-handoff');
    api().llm.enqueue(
      callsReply(toolCall('calculate', { num1: 84, num2: 3, operation: 'add' }, 'call_add')),
      textReply('It is 87.'),
    );

    // Act
    const streamed = await read(
      await postJson(api().speaking, ROUTES.continueStream, results(id, 'call_mul', 84)),
    );
    const blocking = await read(
      await postJson(api().speaking, ROUTES.continue, results(id, 'call_mul', 84)),
    );
    const next = await read(
      await postJson(api().speaking, ROUTES.continue, results(id, 'call_add', 87)),
    );

    // Assess
    expect(streamed.status).toBe(202);
    expect(streamed.json).toMatchObject({ status: 'use_blocking_route', route: ROUTES.continue });
    const handed = expectVoiceResponse(blocking, 'tool_calls');
    expect(handed.tool_calls.map((call) => call.id)).toEqual(['call_add']);
    expect(blocking.headers.get('idempotent-replayed')).toBe('true');
    expect(expectVoiceResponse(next, 'complete').assistant_message).toBe('It is 87.');
    // The utterance, the continue/stream, the next continue: three model calls, no fourth.
    expect(api().llm.requests).toHaveLength(3);
    expect(resultsSent()).toBe(1);
    expect(api().audio.requests).toEqual([]);
  });

  it('replays the spoken answer to a blocking continue sent after a 200 the node could not play', async () => {
    // Prepare
    const id = await pendingCall('continue-stream-resend');
    api().llm.enqueue(textReply(ANSWER));
    api().audio.enqueueSpeech({ audio: tonePcm(0.2, SPEECH_RATE) });

    // Act
    const streamed = await read(
      await postJson(api().speaking, ROUTES.continueStream, results(id, 'call_mul', 84)),
    );
    const blocking = await read(
      await postJson(api().speaking, ROUTES.continue, results(id, 'call_mul', 84)),
    );

    // Assess
    expect(streamed.status).toBe(200);
    expect(expectVoiceResponse(blocking, 'complete').assistant_message).toBe(ANSWER);
    expect(api().llm.requests).toHaveLength(2);
  });

  it('answers 202 when the synthesis fails, and the blocking continue gets the answer without a model call', async () => {
    // Prepare
    const id = await pendingCall('continue-stream-speech-fails');
    api().llm.enqueue(textReply(ANSWER));
    api().audio.enqueueSpeech({ status: 500, body: { error: { message: 'down' } } });

    // Act
    const streamed = await read(
      await postJson(api().speaking, ROUTES.continueStream, results(id, 'call_mul', 84)),
    );
    const blocking = await read(
      await postJson(api().speaking, ROUTES.continue, results(id, 'call_mul', 84)),
    );

    // Assess
    expect(streamed.status).toBe(202);
    expect(expectVoiceResponse(blocking, 'complete').assistant_message).toBe(ANSWER);
    expect(api().llm.requests).toHaveLength(2);
    expect(resultsSent()).toBe(1);
  });

  it('hands the outcome over to a blocking continue that carries a request id of its own', async () => {
    // Prepare
    const id = await pendingCall('continue-stream-request-id');
    api().llm.enqueue(
      callsReply(toolCall('calculate', { num1: 84, num2: 3, operation: 'add' }, 'call_add')),
    );
    const streamed = await read(
      await postJson(api().speaking, ROUTES.continueStream, results(id, 'call_mul', 84)),
    );

    // Act
    const blocking = await read(
      await postJson(api().speaking, ROUTES.continue, {
        ...results(id, 'call_mul', 84),
        request_id: 'node-retry-7',
      }),
    );

    // Assess
    expect(streamed.status).toBe(202);
    expect(expectVoiceResponse(blocking, 'tool_calls').tool_calls[0]?.id).toBe('call_add');
    expect(api().llm.requests).toHaveLength(2);
  });

  it('other results for the same calls are not a replay: they meet the conversation as it is', async () => {
    // Prepare
    const id = await pendingCall('continue-stream-other-results');
    api().llm.enqueue(textReply(ANSWER));
    api().audio.enqueueSpeech({ audio: tonePcm(0.1, SPEECH_RATE) });
    await read(await postJson(api().speaking, ROUTES.continueStream, results(id, 'call_mul', 84)));

    // Act
    const other = await read(
      await postJson(api().speaking, ROUTES.continue, results(id, 'call_mul', 85)),
    );

    // Assess: nothing is pending any more, as without the stream route.
    expect(other.status).toBe(409);
    expect(other.json).toMatchObject({ error: { code: 'nothing_pending' } });
    expect(api().llm.requests).toHaveLength(2);
  });

  it('without speech out answers 202 at once and changes nothing: the blocking continue runs the turn', async () => {
    // Prepare
    const id = await start(api().silent, 'continue-stream-silent');
    api().llm.enqueue(
      callsReply(toolCall('calculate', { num1: 12, num2: 7, operation: 'multiply' }, 'call_mul')),
      textReply(ANSWER),
    );
    await read(
      await postJson(api().silent, ROUTES.command, {
        conversation_id: id,
        voice_command: UTTERANCE,
      }),
    );

    // Act
    const streamed = await read(
      await postJson(api().silent, ROUTES.continueStream, results(id, 'call_mul', 84)),
    );
    const calls = api().llm.requests.length;
    const blocking = await read(
      await postJson(api().silent, ROUTES.continue, results(id, 'call_mul', 84)),
    );

    // Assess
    expect(streamed.status).toBe(202);
    expect(calls).toBe(1);
    expect(expectVoiceResponse(blocking, 'complete').assistant_message).toBe(ANSWER);
    expect(messagesOf(api().llm.requests.at(-1)).filter((m) => m.role === 'tool')).toHaveLength(1);
  });
});
