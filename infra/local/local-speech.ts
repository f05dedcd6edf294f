import { basename } from 'node:path';
import { SPEECH_LIMITS } from '../../functions/http/contract/speech-limits';
import { provideToHandlers } from '../../functions/wiring/npm-start-provisions';
import { readSettings } from '../../shared/adapters/config/read-settings';
import type { ServiceConfig } from '../../shared/adapters/config/service-config';
import { tracedEndpointUrl } from '../../shared/adapters/openai/traced-completions-url';
import { EmbeddedFliteTextToSpeech } from '../../shared/adapters/speech/embedded-flite-text-to-speech';
import { EmbeddedSpeechToText } from '../../shared/adapters/speech/embedded-speech-to-text';
import { LocalSettingsError, readLocalSetting } from './local-settings';
import { type LocalSpeechModel, localSpeechModel } from './local-speech-model';
import {
  embeddedModelServer,
  ModelCacheSettingsError,
  ModelFileError,
  ModelReferenceError,
  type ProgressSink,
  progressTo,
} from './model-files';

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
  if (!readSettings(env).given.has('TTS_PROVIDER')) env.TTS_PROVIDER = 'embedded';
}

/**
 * Hands the embedded synthesizer to the handlers' wiring. Only this local stack imports it,
 * so no Lambda bundle holds it (test/bundling/local-only-modules.test.ts).
 */
export function provideLocalSynthesizer(): void {
  provideToHandlers('synthesizer', (voice) => new EmbeddedFliteTextToSpeech({ voice }));
}

/** The embedded recognizer of npm start, once provided: the banner names it, the stack ends it. */
export interface LocalRecognizer {
  /** The banner's words for it; null when there is none. */
  readonly hears: string | null;
  close(): void;
}

const NO_RECOGNIZER: LocalRecognizer = { hears: null, close: () => undefined };

/**
 * Speech in under npm start when STT_BASE_URL is unset, by the engine STT_ENGINE names: Moonshine
 * on sherpa-onnx (the default), or whisper.cpp with the model STT_MODEL names (both read in
 * local-speech-model.ts); `none`: no speech in, the transcribe route's 503. Downloaded once into the model cache
 * (infra/local/model-files). Its process starts now and loads the model in the background, so
 * the first recording does not wait for it; a failed load is logged in one line (and each
 * recording then answers 502 speech_provider_failed saying why). A model that cannot be had is
 * one line at start (LocalSettingsError).
 */
export async function provideLocalRecognizer(
  env: NodeJS.ProcessEnv,
  log: (line: string) => void,
  progress: ProgressSink = progressTo(process.stderr),
): Promise<LocalRecognizer> {
  provideToHandlers('recognizer', null);
  if (embeddedModelServer(env, 'speech') !== null) return NO_RECOGNIZER;
  const threads = readLocalSetting(env, 'STT_THREADS');
  const heard = await speechModel(env, progress);
  if (heard === null) return NO_RECOGNIZER;
  const { model, path: modelPath } = heard;
  const what = model.engine === 'sherpa' ? 'sherpa-onnx, Moonshine model' : 'whisper.cpp, model';
  const recognizer = new EmbeddedSpeechToText({
    model,
    maxCharacters: SPEECH_LIMITS.transcriptCharacters,
    ...(threads === null ? {} : { threads }),
  });
  recognizer.warm().catch((error: unknown) => {
    log(`speech in: the model ${modelPath} did not load: ${(error as Error).message}`);
  });
  provideToHandlers('recognizer', recognizer);
  return {
    hears: `embedded ${what} ${basename(modelPath)} (${modelPath})`,
    close: () => {
      recognizer.close();
      provideToHandlers('recognizer', null);
    },
  };
}

/** The model STT_MODEL names, fetched into the cache if it is on the hub; null for `none`. */
async function speechModel(
  env: NodeJS.ProcessEnv,
  progress: ProgressSink,
): Promise<LocalSpeechModel | null> {
  try {
    return await localSpeechModel(env, progress);
  } catch (error) {
    const oneLine =
      error instanceof ModelFileError ||
      error instanceof ModelReferenceError ||
      error instanceof ModelCacheSettingsError;
    if (!oneLine) throw error;
    // A reference's own message names STT_MODEL already.
    const what = error instanceof ModelReferenceError ? 'speech model' : 'speech model (STT_MODEL)';
    throw new LocalSettingsError(
      `${what}: ${error.message} (STT_MODEL=none starts without speech in)`,
      { cause: error },
    );
  }
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
    hears:
      stt === null
        ? recognizer.hears
        : stt.provider === 'transcribe'
          ? `Amazon Transcribe streaming (${stt.languageCode}) in ${stt.region}`
          : `${stt.model} at ${where(stt.baseURL)}`,
  };
}
