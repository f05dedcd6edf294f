import { createSocket, type Socket } from 'node:dgram';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { OpenAiSpeechToText } from '../../../shared/adapters/speech/openai-speech-to-text';
import { OpenAiTextToSpeech } from '../../../shared/adapters/speech/openai-text-to-speech';
import { collect, tonePcm, wavFile } from '../../support/speech-audio';
import { useScriptedAudioServer } from '../../support/use-scripted-audio-server';

const TRACE = '1-5759e988-bd862e3fe1be46a994272793';
const PARENT = '53995c3f42cd8ad8';
const audio = useScriptedAudioServer();

/** A stand-in for the X-Ray daemon on loopback: every document it is sent. */
let daemon: Socket;
const received: Record<string, unknown>[] = [];
beforeAll(async () => {
  daemon = createSocket('udp4');
  daemon.on('message', (message) => {
    received.push(JSON.parse(message.toString('utf8').split('\n')[1] ?? ''));
  });
  await new Promise<void>((resolve) => daemon.bind(0, '127.0.0.1', resolve));
});
afterAll(() => daemon.close());
afterEach(() => {
  vi.unstubAllEnvs();
  received.length = 0;
});

function traceInvocation(): void {
  vi.stubEnv('_X_AMZN_TRACE_ID', `Root=${TRACE};Parent=${PARENT};Sampled=1`);
  vi.stubEnv('AWS_XRAY_DAEMON_ADDRESS', `127.0.0.1:${daemon.address().port}`);
}
const documents = async (count: number) => {
  await vi.waitFor(() => expect(received.length).toBeGreaterThanOrEqual(count));
  return received;
};

const format = { sampleRate: 16_000, channels: 1, sampleWidth: 2 };

describe('X-Ray subsegments of speech calls', () => {
  it('reports a transcription with its URL, never the key', async () => {
    traceInvocation();
    audio.enqueueTranscription({ text: 'hi' });
    const stt = new OpenAiSpeechToText({
      baseURL: audio.baseURL,
      apiKey: 'k',
      model: 'whisper-1',
      maxCharacters: 2_000,
    });

    await stt.transcribe(
      { wav: wavFile(tonePcm(0.1, 16_000), format), format, durationSeconds: 0.1 },
      { timeoutMs: 10_000 },
    );

    const [document] = await documents(1);
    expect(document).toMatchObject({
      name: 'speech to text whisper-1',
      namespace: 'remote',
      trace_id: TRACE,
      parent_id: PARENT,
      http: { request: { url: `${audio.baseURL}/audio/transcriptions`, method: 'POST' } },
    });
    expect(JSON.stringify(document)).not.toContain('sk-hunter2');
  });

  it('reports a synthesis up to its first audio', async () => {
    traceInvocation();
    audio.enqueueSpeech({ audio: tonePcm(0.1, 24_000) });
    const tts = new OpenAiTextToSpeech({
      baseURL: audio.baseURL,
      apiKey: 'k',
      model: 'tts-1',
      voice: 'alloy',
      format: { kind: 'pcm', sampleRate: 24_000 },
    });

    await collect((await tts.synthesize('Hello.', { timeoutMs: 10_000 })).chunks);

    const [document] = await documents(1);
    expect(document).toMatchObject({
      name: 'text to speech tts-1',
      http: { request: { url: `${audio.baseURL}/audio/speech`, method: 'POST' } },
    });
  });
});
