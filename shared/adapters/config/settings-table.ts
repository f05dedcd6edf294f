import { DEFAULT_ENGINE_SETTINGS } from '../../conversation/engine-settings';
import type { NormalizationPolicy } from '../../params';
import type { CheckedValue, SettingCheck } from './setting-checks';

/** One environment variable the handlers read. */
export interface HandlerSetting {
  readonly check: SettingCheck;
  /** Taken when the variable is unset or empty, or invalid; null: none. */
  readonly default: string | number | boolean | null;
  /** Unset or empty is reported. */
  readonly required?: true;
  /** Unset, its value is computed from other settings; `default` is then only its upper bound. */
  readonly derived?: true;
  /** Lambda sets it and refuses it in a function's environment. */
  readonly reservedByLambda?: true;
  readonly meaning: string;
}

const integer = (min: number, max: number) => ({ kind: 'integer', min, max }) as const;
const text = { kind: 'text' } as const;
const policies = [
  'strict',
  'lossless',
  'lenient',
] as const satisfies readonly NormalizationPolicy[];
/**
 * `embedded` is refused outside `npm start` (production wiring has no synthesizer to give it);
 * `none` turns speech out off where it is on by default (`npm start`).
 */
export const ttsProviders = ['polly', 'openai', 'embedded', 'none'] as const;
export const pollyEngines = ['neural', 'standard', 'generative', 'long-form'] as const;

/**
 * Every variable the handlers read: its check, its default and what it means. readServiceConfig
 * reads them, the CDK declares them on every function, the README lists them. The engine's
 * defaults are the core's (DEFAULT_ENGINE_SETTINGS), cited here, never restated. Problems are
 * reported in this order.
 */
export const handlerSettings = {
  PARAM_NORMALIZATION: {
    check: { kind: 'oneOf', values: policies },
    default: DEFAULT_ENGINE_SETTINGS.normalization,
    meaning: 'how far invalid arguments are repaired',
  },
  TURN_DEADLINE_MS: {
    // Up to 10 minutes: a CPU model on a laptop is slow. Behind API Gateway the stack derives the
    // deadline, the Lambda timeout and the gateway's wait from one setting (turn-timing.ts).
    check: integer(1_000, 600_000),
    default: DEFAULT_ENGINE_SETTINGS.turnDeadlineMs,
    meaning: "one turn's budget (504 past it)",
  },
  MAX_VALIDATION_RETRIES: {
    check: integer(0, 5),
    default: DEFAULT_ENGINE_SETTINGS.maxValidationRetries,
    meaning: 'model retries per turn for invalid arguments',
  },
  WARMUP_TIMEOUT_MS: {
    check: integer(0, 600_000),
    default: DEFAULT_ENGINE_SETTINGS.warmUpTimeoutMs,
    derived: true,
    meaning: 'how long conversation/start waits for the model warm-up; below TURN_DEADLINE_MS',
  },
  STRICT_TOOL_SCHEMAS: {
    check: { kind: 'boolean' },
    default: DEFAULT_ENGINE_SETTINGS.strictToolSchemas,
    meaning: "tools sent in OpenAI's strict subset",
  },
  ANSWER_FROM_COMMAND_MESSAGES: {
    check: { kind: 'oneOf', values: ['on', 'off'] },
    default: DEFAULT_ENGINE_SETTINGS.answerFromCommandMessages ? 'on' : 'off',
    meaning: "on: a continue whose results all carry their command's spoken message ends with them",
  },
  CONVERSATION_TTL_SECONDS: {
    check: integer(60, 30 * 86_400),
    default: DEFAULT_ENGINE_SETTINGS.conversationTtlSeconds,
    meaning: 'sliding expiry of a conversation',
  },
  AUTH_REJECTION_FLOOR_MS: {
    check: integer(0, 1_000),
    default: 25,
    meaning: 'a refused node key is answered no sooner (timing tells no node id apart)',
  },
  NODE_RATE_LIMIT: {
    check: integer(0, 100_000),
    default: 120,
    meaning: 'requests per node per window, across containers; 0: off',
  },
  NODE_RATE_WINDOW_SECONDS: {
    check: integer(1, 3_600),
    default: 60,
    meaning: "the rate limit's window",
  },
  TABLE_NAME: {
    check: text,
    default: null,
    required: true,
    meaning: 'the DynamoDB table of nodes and conversations',
  },
  MODEL_MAX_TOKENS: {
    check: integer(16, 65_536),
    default: 1_024,
    meaning: 'max_tokens of every model request',
  },
  MODEL_THINKING: {
    check: { kind: 'oneOf', values: ['off', 'on'] },
    default: 'off',
    meaning:
      "off asks a reasoning model not to think (docs/model-thinking.md); on: the server's default",
  },
  MODEL_SERVER: {
    check: {
      kind: 'oneOf',
      values: ['auto', 'openai', 'llama.cpp', 'vllm', 'sglang', 'ollama'],
    },
    default: 'auto',
    meaning: 'the kind of server, for the form of the thinking switch; auto guesses from the URL',
  },
  OPENAI_BASE_URL: {
    check: { kind: 'httpUrl' },
    default: null,
    meaning: 'the OpenAI-compatible server; with LLM_MODEL, or the voice routes answer 503',
  },
  LLM_MODEL: { check: text, default: null, meaning: 'the model; with OPENAI_BASE_URL' },
  OPENAI_API_KEY: {
    check: { kind: 'secret' },
    default: null,
    meaning: "the model's key, local runs only (many local servers need none)",
  },
  OPENAI_API_KEY_SECRET: {
    check: text,
    default: null,
    meaning: 'the Secrets Manager secret holding the key, when OPENAI_API_KEY is unset',
  },
  STT_BASE_URL: {
    check: { kind: 'httpUrl' },
    default: null,
    meaning:
      'the OpenAI-compatible transcription server (OpenAI, Groq, a whisper server); unset: the embedded recognizer under npm start, no speech in (503) deployed',
  },
  STT_MODEL: {
    check: text,
    default: 'whisper-1',
    meaning:
      "the transcription model; under npm start with no STT_BASE_URL, the embedded whisper.cpp model: hf:<user>/<repo>/<file>, a ggml file's path or none (default: base.en's pinned file, docs/speech.md)",
  },
  STT_API_KEY: {
    check: { kind: 'secret' },
    default: null,
    meaning: "the transcription server's key, local runs only",
  },
  STT_API_KEY_SECRET: {
    check: text,
    default: null,
    meaning: 'the Secrets Manager secret holding that key, when STT_API_KEY is unset',
  },
  TTS_PROVIDER: {
    check: { kind: 'oneOf', values: ttsProviders },
    default: null,
    meaning:
      'speech out: polly, openai (any OpenAI-compatible server) or embedded (npm start only); unset: none (503)',
  },
  TTS_BASE_URL: {
    check: { kind: 'httpUrl' },
    default: null,
    meaning: 'the OpenAI-compatible speech server; required with TTS_PROVIDER=openai',
  },
  TTS_MODEL: { check: text, default: 'tts-1', meaning: 'the speech model (TTS_PROVIDER=openai)' },
  TTS_VOICE: {
    check: text,
    default: null,
    meaning:
      'the voice; unset: alloy (openai), Joanna (polly), slt (embedded: slt, kal16, kal, awb, rms)',
  },
  TTS_RESPONSE_FORMAT: {
    check: { kind: 'oneOf', values: ['pcm', 'wav'] },
    default: 'pcm',
    meaning:
      'what the openai server is asked for: raw pcm (its rate in TTS_PCM_SAMPLE_RATE) or wav (the header says)',
  },
  TTS_PCM_SAMPLE_RATE: {
    check: integer(8_000, 48_000),
    default: 24_000,
    meaning: "the rate of the openai server's raw pcm (OpenAI: 24000, 16-bit mono)",
  },
  TTS_API_KEY: {
    check: { kind: 'secret' },
    default: null,
    meaning: "the speech server's key, local runs only",
  },
  TTS_API_KEY_SECRET: {
    check: text,
    default: null,
    meaning: 'the Secrets Manager secret holding that key, when TTS_API_KEY is unset',
  },
  POLLY_ENGINE: {
    check: { kind: 'oneOf', values: pollyEngines },
    default: 'neural',
    meaning: "Polly's engine (the voice must support it)",
  },
  AWS_REGION: {
    check: text,
    default: null,
    reservedByLambda: true,
    meaning: "the table's and the secret's region",
  },
  AWS_DEFAULT_REGION: {
    check: text,
    default: 'us-east-1',
    reservedByLambda: true,
    meaning: 'the region when AWS_REGION is unset',
  },
  DYNAMODB_ENDPOINT: {
    check: text,
    default: null,
    meaning: 'a local DynamoDB (dynalite, DynamoDB Local); unset in AWS',
  },
  POWERTOOLS_SERVICE_NAME: {
    check: text,
    default: 'jcc',
    meaning: 'the service dimension of logs and metrics (the dashboard reads it)',
  },
  POWERTOOLS_METRICS_NAMESPACE: {
    check: text,
    default: 'Jcc',
    meaning: 'the metrics namespace (the dashboard and alarms read it)',
  },
  POWERTOOLS_LOG_LEVEL: {
    check: text,
    default: 'INFO',
    meaning: "the Powertools Logger's level",
  },
} as const satisfies Readonly<Record<string, HandlerSetting>>;

export type HandlerSettingName = keyof typeof handlerSettings;

export const handlerSettingNames = Object.keys(handlerSettings) as readonly HandlerSettingName[];

/** What reading a setting yields: null when it has no default or its default is derived. */
type HandlerSettingValue<S extends HandlerSetting> =
  | CheckedValue<S['check']>
  | (S['default'] extends null ? null : never)
  | (S extends { readonly derived: true } ? null : never);

export type HandlerSettingValues = {
  readonly [K in HandlerSettingName]: HandlerSettingValue<(typeof handlerSettings)[K]>;
};

/** What the warm-up leaves a turn's time to answer in, by default. */
const WARM_UP_ANSWER_MARGIN_MS = 2_000;

/**
 * WARMUP_TIMEOUT_MS when unset: its default (or `ceilingMs`, npm start's for a local model), less
 * whatever would leave a turn under 2 s.
 */
export function defaultWarmUpTimeoutMs(
  turnDeadlineMs: number,
  ceilingMs: number = handlerSettings.WARMUP_TIMEOUT_MS.default,
): number {
  return Math.max(0, Math.min(ceilingMs, turnDeadlineMs - WARM_UP_ANSWER_MARGIN_MS));
}
