import { describe, expect, it } from 'vitest';
import type { LocalApiServer } from '../../infra/local/local-api-server';
import { ROUTES } from '../support/api-client';
import { releasable, tonePcm } from '../support/speech-audio';
import { strictClientProblems, toolCallingResponseModel } from '../support/strict-node-models';
import {
  callsReply,
  conversationIdFor,
  fixtureStartBody,
  messagesOf,
  textReply,
  toolCall,
} from './http-fixtures';
import { expectStarted, expectVoiceResponse } from './response-contract';
import { postRaw, SPEECH_RATE, useSpeechApi } from './speech-api';

const api = useSpeechApi();
const ANSWER = 'Twelve times seven is 84, café included.';
const UTTERANCE = 'what is twelve times seven';

const postJson = (server: LocalApiServer, path: string, body: unknown) =>
  postRaw(server, path, JSON.stringify(body), { 'content-type': 'application/json' });

/** A response read to its end, as `requests` gives it to the node. */
async function read(response: Response) {
  const bytes = new Uint8Array(await response.arrayBuffer());
  const text = Buffer.from(bytes).toString('utf8');
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, json, text, bytes };
}

async function start(server: LocalApiServer, label: string): Promise<string> {
  const id = conversationIdFor(label);
  const started = await read(await postJson(server, ROUTES.start, fixtureStartBody(id)));
  expectStarted(started, id);
  return id;
}

/** A 202 the node's `send_command_unified` parses into its ToolCallingResponse. */
function nodeControl(response: Awaited<ReturnType<typeof read>>) {
  expect(response.status, response.text).toBe(202);
  expect(strictClientProblems(toolCallingResponseModel, response.json)).toEqual([]);
  return expectVoiceResponse(response, undefined, 202);
}

/** Tool results as the node sends them, in any order. */
const results = (id: string, callId: string, value: number) => ({
  conversation_id: id,
  tool_results: [{ tool_call_id: callId, output: { success: true, result: value } }],
});

describe('POST /api/v0/voice/command/stream', () => {
  it('streams a final answer as PCM with its text in X-Assistant-Message, first bytes before the provider is done', async () => {
    // Prepare
    const id = await start(api().speaking, 'stream-answer');
    const pcm = tonePcm(0.5, SPEECH_RATE);
    const rest = releasable();
    api().llm.enqueue(textReply(ANSWER));
    api().audio.enqueueSpeech({ audio: pcm, chunks: 4, holdAfterFirstChunk: rest.promise });

    // Act
    const response = await postJson(api().speaking, ROUTES.commandStream, {
      conversation_id: id,
      voice_command: UTTERANCE,
    });
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    const first = await reader.read();
    rest.release();
    const parts = [first.value as Uint8Array];
    for (let next = await reader.read(); !next.done; next = await reader.read()) {
      parts.push(next.value);
    }

    // Assess: what the node's send_command_unified reads on its audio path.
    expect(response.status).toBe(200);
    expect(decodeURIComponent(response.headers.get('x-assistant-message') ?? '')).toBe(ANSWER);
    expect(response.headers.get('x-audio-sample-rate')).toBe(String(SPEECH_RATE));
    expect(response.headers.get('x-audio-channels')).toBe('1');
    expect(response.headers.get('x-audio-sample-width')).toBe('2');
    expect(first.value?.length).toBeLessThan(pcm.length);
    expect(Buffer.concat(parts)).toEqual(Buffer.from(pcm));
    expect(api().audio.requests[0]?.speech).toMatchObject({ input: ANSWER });
  });

  it('answers tool calls with the 202 JSON, and synthesizes nothing', async () => {
    // Prepare
    const id = await start(api().speaking, 'stream-calls');
    api().llm.enqueue(
      callsReply(toolCall('calculate', { num1: 12, num2: 7, operation: 'multiply' })),
    );

    // Act
    const response = await read(
      await postJson(api().speaking, ROUTES.commandStream, {
        conversation_id: id,
        voice_command: UTTERANCE,
      }),
    );

    // Assess
    expect(nodeControl(response).stop_reason).toBe('tool_calls');
    expect(api().audio.requests).toEqual([]);
  });

  it('answers the 202 JSON with the answer when the synthesis fails before its first byte: the turn is not lost', async () => {
    // Prepare
    const id = await start(api().speaking, 'stream-speech-fails');
    api().llm.enqueue(textReply(ANSWER));
    api().audio.enqueueSpeech({ status: 503, body: { error: { message: 'overloaded' } } });

    // Act
    const response = await read(
      await postJson(api().speaking, ROUTES.commandStream, {
        conversation_id: id,
        voice_command: UTTERANCE,
      }),
    );

    // Assess
    const body = nodeControl(response);
    expect(body).toMatchObject({ stop_reason: 'complete', assistant_message: ANSWER });
    expect(api().llm.requests).toHaveLength(1);
    expect(api().output.join('')).toContain('"speech_fallbacks":1');
  });

  it('answers an answer longer than the speak limit with the 202 JSON, and synthesizes nothing', async () => {
    // Prepare
    const id = await start(api().speaking, 'stream-long-answer');
    const long = `${'All is well. '.repeat(250)}`.trim();
    api().llm.enqueue(textReply(long));

    // Act
    const response = await read(
      await postJson(api().speaking, ROUTES.commandStream, {
        conversation_id: id,
        voice_command: UTTERANCE,
      }),
    );

    // Assess
    expect(nodeControl(response)).toMatchObject({
      stop_reason: 'complete',
      assistant_message: long,
    });
    expect(api().audio.requests).toEqual([]);
  });

  it('answers the 202 JSON when no speech out is configured, as voice/command would', async () => {
    // Prepare
    const id = await start(api().silent, 'stream-silent');
    api().llm.enqueue(textReply(ANSWER));

    // Act
    const response = await read(
      await postJson(api().silent, ROUTES.commandStream, {
        conversation_id: id,
        voice_command: UTTERANCE,
        request_id: 'silent-1',
      }),
    );
    const replayed = await read(
      await postJson(api().silent, ROUTES.commandStream, {
        conversation_id: id,
        voice_command: UTTERANCE,
        request_id: 'silent-1',
      }),
    );

    // Assess
    expect(nodeControl(response)).toMatchObject({
      stop_reason: 'complete',
      assistant_message: ANSWER,
    });
    expect(replayed.json).toEqual(response.json);
    expect(replayed.headers.get('idempotent-replayed')).toBe('true');
    expect(api().llm.requests).toHaveLength(1);
  });
});

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
