import { describe, expect, it } from 'vitest';
import { PollyTextToSpeech } from '../../../shared/adapters/speech/polly-text-to-speech';
import { startScriptedPollyServer } from '../../support/scripted-polly-server';
import { collect, tonePcm } from '../../support/speech-audio';
import { useLoopbackServer } from '../../support/use-loopback-server';

// What every text-to-speech provider must do is in text-to-speech-contract.test.ts; here, what
// only Polly does: its signed SynthesizeSpeech request.
const polly = useLoopbackServer('the scripted Polly', startScriptedPollyServer);

describe('PollyTextToSpeech', () => {
  it('asks SynthesizeSpeech for 16 kHz PCM, signed with SigV4', async () => {
    // Prepare
    polly.enqueue({ audio: tonePcm(0.2, 16_000), chunks: 4 });
    const adapter = new PollyTextToSpeech({
      region: 'eu-west-1',
      voice: 'Joanna',
      engine: 'neural',
      endpoint: polly.endpoint,
      credentials: { accessKeyId: 'AKIDTEST', secretAccessKey: 'test-secret' },
    });

    // Act
    const speech = await adapter.synthesize('Good morning.', { timeoutMs: 10_000 });
    await collect(speech.chunks);

    // Assess
    expect(polly.requests[0]).toMatchObject({
      path: '/v1/speech',
      authorization: expect.stringContaining('AWS4-HMAC-SHA256 Credential=AKIDTEST/'),
      body: {
        Engine: 'neural',
        OutputFormat: 'pcm',
        SampleRate: '16000',
        Text: 'Good morning.',
        TextType: 'text',
        VoiceId: 'Joanna',
      },
    });
  });
});
