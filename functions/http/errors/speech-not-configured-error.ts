import { speechNotConfigured } from '../../../shared/adapters/speech/speech-not-configured';

/** A speech route asked for a way of speech this deployment has no provider for (a 503). */
export class SpeechNotConfiguredError extends Error {
  override readonly name = 'SpeechNotConfiguredError';
  readonly settings: readonly string[];
  constructor(readonly direction: keyof typeof speechNotConfigured) {
    super(speechNotConfigured[direction].message);
    this.settings = speechNotConfigured[direction].settings;
  }
}
