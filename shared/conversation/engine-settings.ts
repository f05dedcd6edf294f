import type { NormalizationPolicy } from '../params';

/** Plain values the engine runs by; the config adapter reads and checks them once at start-up. */
export interface EngineSettings {
  readonly normalization: NormalizationPolicy;
  /** Validation and must-call retries allowed in one turn. */
  readonly maxValidationRetries: number;
  /** Model calls allowed in one turn, server-tool rounds and retries included. */
  readonly maxModelCalls: number;
  /** Wall-clock budget of one turn, kept below API Gateway's 29 s. */
  readonly turnDeadlineMs: number;
  /** Sliding expiry of a conversation after its last write. */
  readonly conversationTtlSeconds: number;
  /** Upper bound of the stored history, in characters of its JSON. */
  readonly maxHistoryCharacters: number;
  /** Upper bound of one stored tool output, in characters. */
  readonly maxToolOutputCharacters: number;
}

export const DEFAULT_ENGINE_SETTINGS: EngineSettings = {
  normalization: 'lossless',
  maxValidationRetries: 2,
  maxModelCalls: 6,
  turnDeadlineMs: 25_000,
  conversationTtlSeconds: 86_400,
  maxHistoryCharacters: 160_000,
  maxToolOutputCharacters: 8_000,
};
