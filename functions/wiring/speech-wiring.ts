import type { ServiceConfig } from '../../shared/adapters/config/service-config';
import type { SpeechDependencies } from './service-dependencies';

/** What a function does with speech: its route-table entry's `hears` and `speaks`. */
export interface SpeechUses {
  readonly hears: boolean;
  readonly speaks: boolean;
}

/** The speech keys, resolved (from the environment or Secrets Manager); null where unused. */
export interface SpeechKeys {
  readonly speechToText: string | null;
  readonly textToSpeech: string | null;
}

/**
 * Builds the speech adapters a function uses. Passed to lazyHandler by the entry of a function
 * that hears or speaks, so only those bundles hold speech adapters, and a function that only
 * speaks holds no transcription adapter (docs/decisions/2026-11-22-bundle-size.md):
 * `createSpeechDependencies` (in and out) or `createSpeechOutDependencies` (out only).
 */
export type SpeechWiring = (
  config: ServiceConfig,
  keys: SpeechKeys,
  uses: SpeechUses,
) => SpeechDependencies;

/** A function was wired without the speech adapters its table entry says it uses: a wiring slip. */
export class SpeechWiringMissingError extends Error {
  override readonly name = 'SpeechWiringMissingError';
  constructor(what: 'speech' | 'speech in' = 'speech') {
    super(`this function uses ${what}, but its entry passed no wiring for it to lazyHandler`);
  }
}
