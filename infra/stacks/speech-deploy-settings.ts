import { isTranscribeLanguage } from '../../shared/adapters/config/speech-config';
import { type ContextLookup, contextReader } from './context-values';

/**
 * Where the deployed functions that speak get their voice. Not `embedded`: that synthesizer is
 * `npm start`'s alone and never in a Lambda bundle.
 */
export const deployedTtsProviders = ['polly', 'openai', 'none'] as const;
export type DeployedTtsProvider = (typeof deployedTtsProviders)[number];

/** Where the deployed functions that hear send a recording (STT_PROVIDER). */
export const deployedSttProviders = ['openai', 'transcribe'] as const;
export type DeployedSttProvider = (typeof deployedSttProviders)[number];

/** Polly's engines (POLLY_ENGINE); the voice must support the one chosen. */
export const pollyEngineNames = ['neural', 'standard', 'generative', 'long-form'] as const;
export type PollyEngineName = (typeof pollyEngineNames)[number];

/** Speech in and out of the deployed stack, read from CDK context like every deploy setting. */
export interface SpeechDeploySettings {
  /**
   * Speech out of the functions that speak: Amazon Polly (no key: the functions' roles may call
   * `polly:SynthesizeSpeech`), an OpenAI-compatible speech server, or none (the speech routes
   * answer 503 and the stream routes their JSON).
   */
  readonly ttsProvider: DeployedTtsProvider;
  /** TTS_VOICE; null for the provider's default (Polly: Joanna; openai: alloy). */
  readonly ttsVoice: string | null;
  readonly pollyEngine: PollyEngineName;
  /** TTS_BASE_URL, required with `ttsProvider: openai`. */
  readonly ttsBaseUrl: string | null;
  readonly ttsModel: string;
  /** The Secrets Manager secret holding the speech server's key (openai only); null: no key. */
  readonly ttsApiKeySecretName: string | null;
  /**
   * Speech in: `openai`, the OpenAI-compatible server `sttBaseUrl`; or `transcribe`, Amazon
   * Transcribe streaming (no key: the function that hears may call
   * `transcribe:StartStreamTranscription`), paced at real time, so not the default
   * (docs/decisions/2026-11-26-transcribe-streaming.md).
   */
  readonly sttProvider: DeployedSttProvider;
  /** TRANSCRIBE_LANGUAGE: Transcribe's language code, with `sttProvider: transcribe`. */
  readonly transcribeLanguage: string;
  /**
   * STT_BASE_URL of the transcription server; null turns speech in off (503). Unset, OpenAI's
   * with `modelProvider: openai`, none with Bedrock (whose deploy needs no secret); none with
   * `sttProvider: transcribe`.
   */
  readonly sttBaseUrl: string | null;
  readonly sttModel: string;
  /**
   * The secret holding the transcription server's key; by default the model's
   * (`openAiSecretName`), since the default server is OpenAI's. Null only with speech in off.
   */
  readonly sttApiKeySecretName: string | null;
}

export const defaultSpeechDeploySettings = {
  sttProvider: 'openai',
  transcribeLanguage: 'en-US',
  ttsProvider: 'polly',
  ttsVoice: null,
  pollyEngine: 'neural',
  ttsBaseUrl: null,
  ttsModel: 'tts-1',
  ttsApiKeySecretName: null,
  sttModel: 'whisper-1',
} as const satisfies Omit<SpeechDeploySettings, 'sttApiKeySecretName' | 'sttBaseUrl'>;

/** OpenAI's transcription: speech in by default when the model is OpenAI's too (one key). */
export const openAiSttBaseUrl = 'https://api.openai.com/v1';

/**
 * The speech settings from context, each missing one defaulted; problems are pushed to `issues`.
 * An empty string turns an optional setting off (`sttBaseUrl: ""`: no speech in).
 */
export function parseSpeechSettings(
  lookup: ContextLookup,
  model: { readonly provider: 'bedrock' | 'openai'; readonly openAiSecretName: string },
  issues: string[],
): SpeechDeploySettings {
  const { openAiSecretName } = model;
  const defaults = defaultSpeechDeploySettings;
  const { optional, required, oneOf, url } = contextReader<keyof SpeechDeploySettings>(
    lookup,
    issues,
  );
  const sttProvider = oneOf('sttProvider', deployedSttProviders, defaults.sttProvider);
  const transcribed = sttProvider === 'transcribe';
  const sttBaseUrl = transcribed
    ? null
    : url('sttBaseUrl', model.provider === 'openai' ? openAiSttBaseUrl : null);
  const settings: SpeechDeploySettings = {
    sttProvider,
    transcribeLanguage: required('transcribeLanguage', defaults.transcribeLanguage),
    ttsProvider: oneOf('ttsProvider', deployedTtsProviders, defaults.ttsProvider),
    ttsVoice: optional('ttsVoice', defaults.ttsVoice),
    pollyEngine: oneOf('pollyEngine', pollyEngineNames, defaults.pollyEngine),
    ttsBaseUrl: url('ttsBaseUrl', defaults.ttsBaseUrl),
    ttsModel: required('ttsModel', defaults.ttsModel),
    ttsApiKeySecretName: optional('ttsApiKeySecretName', defaults.ttsApiKeySecretName),
    sttBaseUrl,
    sttModel: required('sttModel', defaults.sttModel),
    sttApiKeySecretName:
      sttBaseUrl === null ? null : optional('sttApiKeySecretName', openAiSecretName),
  };
  if (transcribed && !isTranscribeLanguage(settings.transcribeLanguage)) {
    issues.push(
      `transcribeLanguage is not a language code such as en-US: ${settings.transcribeLanguage}`,
    );
  }
  if (settings.ttsProvider === 'openai' && settings.ttsBaseUrl === null) {
    issues.push('ttsProvider openai needs ttsBaseUrl, the speech server (…/v1)');
  }
  return settings;
}
