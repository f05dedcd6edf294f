import { describe, expect, it } from 'vitest';
import type { OpenAiSpeechFormat } from '../../../shared/adapters/config/speech-config';
import { OpenAiTextToSpeech } from '../../../shared/adapters/speech/openai-text-to-speech';
import type { SynthesizedSpeech } from '../../../shared/ports/speech';
import { collect, tonePcm, wavFile } from '../../support/speech-audio';
import { speechFailureOf } from '../../support/speech-failure';
import { useScriptedAudioServer } from '../../support/use-scripted-audio-server';

// What every text-to-speech provider must do is in text-to-speech-contract.test.ts; here, what
// only an OpenAI-compatible server does: its request, and WAV answers.
const audio = useScriptedAudioServer();
const KEY = 'sk-tts-secret';
const PCM_24K: OpenAiSpeechFormat = { kind: 'pcm', sampleRate: 24_000 };
const options = { timeoutMs: 10_000 };

const adapter = (format: OpenAiSpeechFormat = PCM_24K) =>
  new OpenAiTextToSpeech({
    baseURL: audio.baseURL,
    apiKey: KEY,
    model: 'tts-1',
    voice: 'alloy',
    format,
  });

describe('OpenAiTextToSpeech', () => {
  it('asks audio/speech for the model, voice, text and format, with the key as a bearer token', async () => {
    // Prepare
    audio.enqueueSpeech({ audio: tonePcm(0.2, 24_000), chunks: 4 });

    // Act
    const speech = await adapter().synthesize('It is sunny tomorrow.', options);
    await collect(speech.chunks);

    // Assess
    expect(audio.requests[0]?.speech).toEqual({
      model: 'tts-1',
      voice: 'alloy',
      input: 'It is sunny tomorrow.',
      response_format: 'pcm',
    });
    expect(audio.requests[0]?.headers.authorization).toBe(`Bearer ${KEY}`);
  });

  it.each([
    ['wav was asked for', { kind: 'wav' } as const],
    ['pcm was asked for and the server sent wav anyway', PCM_24K],
  ])('reads the format from a WAV header split over chunks: %s', async (_case, format) => {
    // Prepare
    const pcm = tonePcm(0.1, 22_050);
    const wavFormat = { sampleRate: 22_050, channels: 1, sampleWidth: 2 };
    audio.enqueueSpeech({ audio: wavFile(pcm, wavFormat), chunks: 200 });

    // Act
    const speech = await adapter(format).synthesize('Hello.', options);
    const { bytes } = await collect(speech.chunks);

    // Assess
    expect(speech.format).toEqual(wavFormat);
    expect(Buffer.from(bytes)).toEqual(Buffer.from(pcm));
    expect(audio.requests[0]?.speech?.response_format).toBe(format.kind);
  });

  it('calls the reply malformed when WAV was asked for and raw bytes came', async () => {
    audio.enqueueSpeech({ audio: tonePcm(0.1, 16_000), chunks: 1 });

    const error = await speechFailureOf(
      adapter({ kind: 'wav' })
        .synthesize('Hello.', options)
        .then((speech: SynthesizedSpeech) => collect(speech.chunks)),
    );

    expect(error).toMatchObject({ failure: 'malformed_reply', direction: 'text_to_speech' });
  });
});
