import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { SPEECH_LIMITS } from '../../functions/http/speech-limits';
import type { ServiceConfig } from '../../shared/adapters/config/service-config';
import { tracedEndpointUrl } from '../../shared/adapters/openai/traced-completions-url';
import { EmbeddedFliteTextToSpeech } from '../../shared/adapters/speech/embedded-flite-text-to-speech';
import { provideEmbeddedRecognizer } from '../../shared/adapters/speech/embedded-recognizer-slot';
import { provideEmbeddedSynthesizer } from '../../shared/adapters/speech/embedded-synthesizer-slot';
import { EmbeddedWhisperSpeechToText } from '../../shared/adapters/speech/embedded-whisper-speech-to-text';
import { LocalSettingsError } from './local-settings';

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

/** The embedded recognizer of npm start, once provided: the banner names it, the stack ends it. */
export interface LocalRecognizer {
  /** The banner's words for it; null when there is none. */
  readonly hears: string | null;
  close(): void;
}

const NO_RECOGNIZER: LocalRecognizer = { hears: null, close: () => undefined };

/**
 * Speech in under npm start when STT_BASE_URL is unset: whisper.cpp with the model STT_MODEL
 * names (a ggml file; `none`: no speech in, the transcribe route's 503), handed to the handlers'
 * wiring. Its process starts now and loads the model in the background, so the first recording
 * does not wait for it; a failed load is logged in one line (and each recording then answers
 * 502 speech_provider_failed saying why).
 */
export function provideLocalRecognizer(
  env: NodeJS.ProcessEnv,
  log: (line: string) => void,
): LocalRecognizer {
  const reference = env.STT_MODEL?.trim() ?? '';
  if (env.STT_BASE_URL?.trim() || reference === '' || reference === 'none') {
    provideEmbeddedRecognizer(null);
    return NO_RECOGNIZER;
  }
  const modelPath = resolve(reference);
  if (!existsSync(modelPath)) {
    throw new LocalSettingsError(
      `STT_MODEL names ${modelPath}, which does not exist; name a whisper.cpp ggml model file, or none`,
    );
  }
  const recognizer = new EmbeddedWhisperSpeechToText({
    modelPath,
    maxCharacters: SPEECH_LIMITS.transcriptCharacters,
  });
  recognizer.warm().catch((error: unknown) => {
    log(`speech in: the model ${modelPath} did not load: ${(error as Error).message}`);
  });
  provideEmbeddedRecognizer(recognizer);
  return {
    hears: `embedded whisper.cpp, model ${modelPath}`,
    close: () => {
      recognizer.close();
      provideEmbeddedRecognizer(null);
    },
  };
}

/** The banner's words for the configured speech; URLs without credentials. */
export function describeLocalSpeech(
  config: ServiceConfig,
  recognizer: LocalRecognizer = NO_RECOGNIZER,
): LocalSpeech {
  const where = (baseURL: string) => tracedEndpointUrl(baseURL, '');
  const tts = config.textToSpeech;
  const stt = config.speechToText;
  let speaks: string | null = null;
  if (tts?.provider === 'embedded') speaks = `embedded Flite, voice ${tts.voice}`;
  if (tts?.provider === 'polly') speaks = `Amazon Polly, voice ${tts.voice} (${tts.engine})`;
  if (tts?.provider === 'openai')
    speaks = `${tts.model}, voice ${tts.voice}, at ${where(tts.baseURL)}`;
  return {
    speaks,
    hears: stt === null ? recognizer.hears : `${stt.model} at ${where(stt.baseURL)}`,
  };
}
