import { describe, expect, it, vi } from 'vitest';
import { routePath } from '../../functions/http/contract/api-routes';
import { ROUTES } from '../support/api-client';
import { apiKeyOf, NODE_A } from '../support/local-stack-harness';
import { releasable, tonePcm } from '../support/speech-audio';
import { callsReply, textReply, toolCall } from './http-fixtures';
import { SPEECH_RATE, useSpeechApi } from './speech-api';
import { ANSWER, nodeControl, postJson, read, start, UTTERANCE } from './speech-exchange';

const api = useSpeechApi();

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

  it.each([
    ['voice/command/stream', ROUTES.commandStream],
    ['media/tts/speak/stream', routePath('media-speak-stream')],
  ])(
    '%s: stops the synthesis when the node leaves before the first audio byte',
    async (_name, path) => {
      // Prepare: a provider that has not answered yet when the node leaves.
      const id = await start(api().speaking, 'stream-left-early');
      const held = releasable();
      api().llm.enqueue(textReply(ANSWER));
      api().audio.enqueueSpeech({
        audio: tonePcm(0.5, SPEECH_RATE),
        holdBeforeHeaders: held.promise,
      });
      const node = new AbortController();
      const body =
        path === ROUTES.commandStream
          ? { conversation_id: id, voice_command: UTTERANCE }
          : { text: ANSWER };

      // Act
      const answer = fetch(`${api().speaking.url}${path}`, {
        method: 'POST',
        headers: { 'x-api-key': apiKeyOf(NODE_A), 'content-type': 'application/json' },
        body: JSON.stringify(body),
        signal: node.signal,
      }).catch((error: unknown) => error);
      await vi.waitFor(() => expect(api().audio.requests).toHaveLength(1), { timeout: 10_000 });
      node.abort();

      // Assess: the provider's request is ended at once, not at the turn's deadline (25 s).
      await vi.waitFor(() => expect(api().audio.cancelled.length).toBe(1), { timeout: 5_000 });
      held.release();
      await answer;
      api().audio.enqueueSpeech({ audio: tonePcm(0.5, SPEECH_RATE) });
      const next = await postJson(api().speaking, routePath('media-speak-stream'), {
        text: ANSWER,
      });
      expect(next.status).toBe(200);
      await next.arrayBuffer();
    },
  );
});
