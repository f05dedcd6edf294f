import { beforeAll, describe, expect, it } from 'vitest';
import { createHandler } from '../../functions/speech';
import { createServiceDependencies } from '../../functions/wiring/create-service-dependencies';
import { localLambdaContext } from '../../infra/local/api-gateway-event';
import { readServiceConfig } from '../../shared/adapters/config/service-config';
import { OpenAiSpeechToText } from '../../shared/adapters/speech/openai-speech-to-text';
import { OpenAiTextToSpeech } from '../../shared/adapters/speech/openai-text-to-speech';
import {
  randomIds,
  systemClock,
  systemRandomness,
} from '../../shared/adapters/system/system-clock';
import { DYNALITE_REGION, useDynalite } from '../support/dynalite';
import { invokeBuffered } from '../support/function-handlers';
import { tonePcm } from '../support/speech-audio';
import { useScriptedAudioServer } from '../support/use-scripted-audio-server';
import { registerSamSampleNode, samSampleEvent } from './sam-samples';

const database = useDynalite();
const audio = useScriptedAudioServer();
let handler: ReturnType<typeof createHandler> | undefined;

beforeAll(async () => {
  const { endpoint, tableName, client } = database();
  const config = readServiceConfig({
    TABLE_NAME: tableName,
    DYNAMODB_ENDPOINT: endpoint,
    AWS_REGION: DYNALITE_REGION,
  });
  const audioOptions = { baseURL: audio.baseURL, apiKey: 'sk-sam-audio' };
  handler = createHandler(
    createServiceDependencies({
      config,
      apiKey: null,
      clock: systemClock,
      ids: randomIds,
      random: systemRandomness,
      speech: {
        speechToText: new OpenAiSpeechToText({
          ...audioOptions,
          model: 'whisper-1',
          maxCharacters: 2_000,
        }),
        textToSpeech: new OpenAiTextToSpeech({
          ...audioOptions,
          model: 'tts-1',
          voice: 'alloy',
          format: { kind: 'pcm', sampleRate: 24_000 },
        }),
      },
    }),
  );
  await registerSamSampleNode({ client, tableName });
});

/** One sample event through the speech function's streaming handler, as `sam local invoke` would. */
function invoke(name: string) {
  if (handler === undefined) throw new Error('the handler is built in beforeAll');
  return invokeBuffered(handler, samSampleEvent(name), localLambdaContext(name, 29_000));
}

describe('the speech samples of infra/sam/events through the speech function', () => {
  it('media-transcribe.json: its base64 multipart WAV is read and transcribed: 200 {"text"}', async () => {
    // Prepare
    audio.enqueueTranscription({ text: 'a quarter second of a tone' });

    // Act
    const result = await invoke('media-transcribe');

    // Assess
    expect(result.statusCode, result.body).toBe(200);
    expect(JSON.parse(result.body)).toEqual({ text: 'a quarter second of a tone' });
    expect(audio.requests[0]?.transcription?.file.subarray(0, 4)).toEqual(
      new TextEncoder().encode('RIFF'),
    );
  });

  it.each([
    ['media-speak', 'audio/wav', 44],
    ['media-speak-stream', 'audio/pcm', 0],
  ])('%s.json answers %s', async (name, contentType, header) => {
    // Prepare
    const pcm = tonePcm(0.1, 24_000);
    audio.enqueueSpeech({ audio: pcm });

    // Act
    const result = await invoke(name);

    // Assess
    expect(result.statusCode).toBe(200);
    expect(result.headers?.['Content-Type']).toBe(contentType);
    expect(Buffer.from(result.body, 'base64').length).toBe(header + pcm.length);
  });
});
