import type { ServiceConfig } from '../../shared/adapters/config/service-config';
import { tracedEndpointUrl } from '../../shared/adapters/openai/traced-completions-url';
import { EmbeddedFliteTextToSpeech } from '../../shared/adapters/speech/embedded-flite-text-to-speech';
import { provideEmbeddedSynthesizer } from '../../shared/adapters/speech/embedded-synthesizer-slot';

/** What `npm start` hears and speaks with, in words for the banner; null: nothing. */
export interface LocalSpeech {
  readonly speaks: string | null;
  readonly hears: string | null;
}

/**
 * Speech out is on under `npm start` with no configuration: the embedded synthesizer unless
 * TTS_PROVIDER says otherwise (`none` turns it off). Set before the settings are read.
 */
export function defaultLocalSpeechOut(env: NodeJS.ProcessEnv): void {
  if (!env.TTS_PROVIDER?.trim()) env.TTS_PROVIDER = 'embedded';
}

/**
 * Hands the embedded synthesizer to the handlers' wiring. Only this local stack imports it,
 * so no Lambda bundle holds it (test/bundling/local-only-modules.test.ts).
 */
export function provideLocalSynthesizer(): void {
  provideEmbeddedSynthesizer((voice) => new EmbeddedFliteTextToSpeech({ voice }));
}

/** The banner's words for the configured speech; URLs without credentials. */
export function describeLocalSpeech(config: ServiceConfig): LocalSpeech {
  const where = (baseURL: string) => tracedEndpointUrl(baseURL, '');
  const tts = config.textToSpeech;
  const stt = config.speechToText;
  let speaks: string | null = null;
  if (tts?.provider === 'embedded') speaks = `embedded Flite, voice ${tts.voice}`;
  if (tts?.provider === 'polly') speaks = `Amazon Polly, voice ${tts.voice} (${tts.engine})`;
  if (tts?.provider === 'openai')
    speaks = `${tts.model}, voice ${tts.voice}, at ${where(tts.baseURL)}`;
  return { speaks, hears: stt === null ? null : `${stt.model} at ${where(stt.baseURL)}` };
}
