/**
 * The speech metrics, in the EMF of every request (namespace `POWERTOOLS_METRICS_NAMESPACE`,
 * dimensions `service` and `route`, as request-metrics.ts publishes them). The dashboard and the
 * provider-error alarm of the stack read these names from here (jcc-metrics.ts).
 * - `audio_seconds_transcribed` (Seconds): the duration of each recording transcribed;
 * - `characters_synthesized` (Count): the characters of each text sent to the synthesizer;
 * - `time_to_first_audio_byte` (Milliseconds): from asking the synthesizer to its first bytes
 *   (on the voice stream routes, the turn before it is in `latency`);
 * - `speech_provider_errors` (Count): a provider call that failed, before or during the audio;
 * - `speech_fallbacks` (Count): a stream route that answered its 202 JSON because the speech
 *   failed before its first byte.
 */
export const SPEECH_METRICS = {
  audioSecondsTranscribed: 'audio_seconds_transcribed',
  charactersSynthesized: 'characters_synthesized',
  timeToFirstAudioByte: 'time_to_first_audio_byte',
  providerErrors: 'speech_provider_errors',
  fallbacks: 'speech_fallbacks',
} as const;
