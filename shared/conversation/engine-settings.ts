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
  /** How long conversation/start waits for the model warm-up; 0: no warm-up. */
  readonly warmUpTimeoutMs: number;
  /** Sliding expiry of a conversation after its last write. */
  readonly conversationTtlSeconds: number;
  /**
   * Send each tool with `strict: true` in OpenAI's strict subset (structured outputs, grammar-
   * constrained servers); optional values then come back as null and are taken out again.
   */
  readonly strictToolSchemas: boolean;
  /** Upper bound of the stored history, in UTF-8 bytes of its JSON (less beside a large registration). */
  readonly maxHistoryBytes: number;
  /** Upper bound of one stored tool output, in UTF-8 bytes. */
  readonly maxToolOutputBytes: number;
  /** Upper bound of all the tool outputs of one `continue`, in UTF-8 bytes, shared among them. */
  readonly maxToolOutputsBytesPerRequest: number;
  /**
   * A `continue` whose every result is a node command's success with its spoken `message` ends
   * with those messages, the model not asked (turn/command-messages.ts).
   */
  readonly answerFromCommandMessages: boolean;
}

/**
 * The engine's defaults, the one place they are written: the configuration adapter's settings
 * table cites them for the variables that override them.
 */
export const DEFAULT_ENGINE_SETTINGS: EngineSettings = {
  normalization: 'lossless',
  maxValidationRetries: 2,
  maxModelCalls: 6,
  turnDeadlineMs: 25_000,
  // Long enough for a CPU model to read the whole prompt once (about 12 s on a small Q4 model):
  // the first utterance then pays only its own part. A hosted model takes about a second.
  warmUpTimeoutMs: 20_000,
  conversationTtlSeconds: 86_400,
  strictToolSchemas: false,
  maxHistoryBytes: 160_000,
  maxToolOutputBytes: 8_000,
  maxToolOutputsBytesPerRequest: 32_000,
  // The node's SDK documents `message` as what is spoken: a second model call only rephrases it.
  answerFromCommandMessages: true,
};
