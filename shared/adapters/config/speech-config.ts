import { type ApiKeySource, apiKeySource } from './api-key-source';
import type { ReadSettings } from './read-settings';
import type { pollyEngines } from './settings-table';

/**
 * Speech in: an OpenAI-compatible transcription server (OpenAI, Groq, a whisper server), or
 * Amazon Transcribe streaming (no key: the AWS credentials sign it).
 */
export type SpeechToTextConfig =
  | {
      readonly provider: 'openai';
      readonly baseURL: string;
      readonly model: string;
      readonly apiKey: ApiKeySource;
    }
  | {
      readonly provider: 'transcribe';
      readonly region: string;
      readonly languageCode: string;
      /** TRANSCRIBE_ENDPOINT; null for AWS's. */
      readonly endpoint: string | null;
    };

/** Transcribe's language codes: `en-US`, `de-CH`, `zh-TW`... */
const TRANSCRIBE_LANGUAGE = /^[a-z]{2,3}-[A-Z]{2}$/;

/** Whether `code` has the form of a Transcribe language code (the handlers' and the stack's check). */
export const isTranscribeLanguage = (code: string): boolean => TRANSCRIBE_LANGUAGE.test(code);

/** How an OpenAI-compatible speech server answers: raw PCM at a known rate, or WAV. */
export type OpenAiSpeechFormat =
  | { readonly kind: 'pcm'; readonly sampleRate: number }
  | { readonly kind: 'wav' };

/** Speech out, by provider. */
export type TextToSpeechConfig =
  | {
      readonly provider: 'openai';
      readonly baseURL: string;
      readonly model: string;
      readonly voice: string;
      readonly format: OpenAiSpeechFormat;
      readonly apiKey: ApiKeySource;
    }
  | {
      readonly provider: 'polly';
      readonly voice: string;
      readonly engine: (typeof pollyEngines)[number];
    }
  | { readonly provider: 'embedded'; readonly voice: string };

/** The voices built into the embedded Flite synthesizer. */
export const embeddedVoices = ['slt', 'kal16', 'kal', 'awb', 'rms'] as const;

const defaultVoices = { openai: 'alloy', polly: 'Joanna', embedded: 'slt' } as const;

/**
 * Speech in when STT_PROVIDER is transcribe or STT_BASE_URL is set. Settings of a provider not
 * chosen are ignored, not refused: the stack declares every setting, at its default, on every
 * function.
 */
export function readSpeechToText(
  read: ReadSettings,
  problems: string[],
): SpeechToTextConfig | null {
  const { values: settings } = read;
  if (settings.STT_PROVIDER === 'transcribe') {
    if (!isTranscribeLanguage(settings.TRANSCRIBE_LANGUAGE)) {
      problems.push(
        `TRANSCRIBE_LANGUAGE must be a language code such as en-US, got "${settings.TRANSCRIBE_LANGUAGE}"`,
      );
    }
    return {
      provider: 'transcribe',
      region: settings.TRANSCRIBE_REGION ?? settings.AWS_REGION ?? settings.AWS_DEFAULT_REGION,
      languageCode: settings.TRANSCRIBE_LANGUAGE,
      endpoint: settings.TRANSCRIBE_ENDPOINT,
    };
  }
  if (settings.STT_BASE_URL === null) return null;
  return {
    provider: 'openai',
    baseURL: settings.STT_BASE_URL,
    model: settings.STT_MODEL,
    apiKey: apiKeySource(settings.STT_API_KEY, settings.STT_API_KEY_SECRET),
  };
}

/** Speech out when TTS_PROVIDER is set, with what its provider needs checked. */
export function readTextToSpeech(
  read: ReadSettings,
  problems: string[],
): TextToSpeechConfig | null {
  const { values: settings, given } = read;
  const provider = settings.TTS_PROVIDER;
  if (provider === null || provider === 'none') return null;
  const voice = settings.TTS_VOICE ?? defaultVoices[provider];
  switch (provider) {
    case 'openai':
      if (!given.has('TTS_BASE_URL')) {
        problems.push('TTS_BASE_URL is required when TTS_PROVIDER is openai');
      }
      return {
        provider,
        baseURL: settings.TTS_BASE_URL ?? '',
        model: settings.TTS_MODEL,
        voice,
        format:
          settings.TTS_RESPONSE_FORMAT === 'wav'
            ? { kind: 'wav' }
            : { kind: 'pcm', sampleRate: settings.TTS_PCM_SAMPLE_RATE },
        apiKey: apiKeySource(settings.TTS_API_KEY, settings.TTS_API_KEY_SECRET),
      };
    case 'polly':
      return { provider, voice, engine: settings.POLLY_ENGINE };
    case 'embedded':
      if (!(embeddedVoices as readonly string[]).includes(voice)) {
        problems.push(
          `TTS_VOICE must be one of ${embeddedVoices.join(', ')} when TTS_PROVIDER is embedded, got "${voice}"`,
        );
      }
      return { provider, voice };
  }
}
