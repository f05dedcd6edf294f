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
 * reads them, the CDK declares them on every function, docs/settings.md lists them. The engine's
 * defaults are the core's (DEFAULT_ENGINE_SETTINGS), cited here, never restated. Problems are
 * reported in this order.
 */
export const handlerSettings = {
  PARAM_NORMALIZATION: {
    check: { kind: 'oneOf', values: policies },
    default: DEFAULT_ENGINE_SETTINGS.normalization,
    meaning:
      'how far invalid arguments are repaired: `strict`, `lossless` (only what cannot change ' +
      'meaning) or `lenient` (heuristics too); docs/parameters.md lists each rule',
  },
  TURN_DEADLINE_MS: {
    // Up to 10 minutes: a CPU model on a laptop is slow. Behind API Gateway the stack derives the
    // deadline, the Lambda timeout and the gateway's wait from one setting (turn-timing.ts).
    check: integer(1_000, 600_000),
    default: DEFAULT_ENGINE_SETTINGS.turnDeadlineMs,
    meaning:
      "one turn's budget, model retries included: past it a 504 saying how long the model took " +
      'and what to raise this to; up to 600000 for a slow CPU model. Deployed, the stack derives ' +
      "it, the Lambda timeout and API Gateway's wait from one setting (docs/deploy.md)",
  },
  MAX_VALIDATION_RETRIES: {
    check: integer(0, 5),
    default: DEFAULT_ENGINE_SETTINGS.maxValidationRetries,
    meaning:
      'model retries per turn for invalid arguments; past them the user is asked (a question ' +
      'naming the parameter)',
  },
  WARMUP_TIMEOUT_MS: {
    check: integer(0, 600_000),
    default: DEFAULT_ENGINE_SETTINGS.warmUpTimeoutMs,
    derived: true,
    meaning:
      "how long conversation/start waits for the model warm-up (one request of the turns' prompt " +
      'prefix, 1 token; `0` turns it off); unset, the default or 2 s below TURN_DEADLINE_MS, ' +
      'whichever is lower. Commands warmed in the last 5 minutes are not warmed again; commands not warmed in that ' +
      'time are warmed even with `skip_warmup_inference: true` ' +
      '(docs/decisions/2026-11-24-default-node-warm-up.md)',
  },
  STRICT_TOOL_SCHEMAS: {
    check: { kind: 'boolean' },
    default: DEFAULT_ENGINE_SETTINGS.strictToolSchemas,
    meaning:
      "send each tool with `strict: true` in OpenAI's strict subset (structured outputs, " +
      'grammar-constrained servers): optional values come back as `null` and are taken out; a ' +
      'schema the subset cannot express stays non-strict',
  },
  ANSWER_FROM_COMMAND_MESSAGES: {
    check: { kind: 'oneOf', values: ['on', 'off'] },
    default: DEFAULT_ENGINE_SETTINGS.answerFromCommandMessages ? 'on' : 'off',
    meaning:
      "`on`: a continue whose every result is a success with its command's spoken `message` " +
      '(`{"success": true, "message": "Timer set for 10 minutes"}`, as jarvis-node-setup sends ' +
      'it) ends with those messages as the answer (joined in call order, up to 500 characters; ' +
      "not when a result's `context` holds a list), without a second model request; `off`: the " +
      'model always writes the answer (docs/decisions/2026-11-24-answer-from-command-messages.md)',
  },
  CONVERSATION_TTL_SECONDS: {
    check: integer(60, 30 * 86_400),
    default: DEFAULT_ENGINE_SETTINGS.conversationTtlSeconds,
    meaning: 'sliding expiry of a conversation: each request that changes it starts the time again',
  },
  AUTH_REJECTION_FLOOR_MS: {
    check: integer(0, 1_000),
    default: 25,
    meaning:
      'a refused node key is answered no sooner than this, so timing tells no node id apart; ' +
      '`0` turns it off',
  },
  NODE_RATE_LIMIT: {
    check: integer(0, 100_000),
    default: 120,
    meaning:
      'requests one node may make per NODE_RATE_WINDOW_SECONDS, counted across containers, each ' +
      'reserving a twentieth of it per write (429 with `Retry-After` past it); `0` turns it off',
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
    meaning: 'the DynamoDB table of nodes and conversations (the stack sets it)',
  },
  MODEL_MAX_TOKENS: {
    check: integer(16, 65_536),
    default: 1_024,
    meaning:
      '`max_tokens` of every model request; a reply cut off there is asked again shorter, once, ' +
      'then a 502',
  },
  MODEL_THINKING: {
    check: { kind: 'oneOf', values: ['off', 'on'] },
    default: 'off',
    meaning:
      '`off` asks a reasoning model (Qwen3, DeepSeek-R1 distills, gpt-5, o-series) not to think ' +
      'before it answers, in the form its server documents; `on` sends nothing and leaves the ' +
      "server's default. A server that refuses the field is asked again without it, once per " +
      'container, and a warning is logged (docs/model-thinking.md)',
  },
  MODEL_SERVER: {
    check: {
      kind: 'oneOf',
      values: ['auto', 'openai', 'llama.cpp', 'vllm', 'sglang', 'ollama', 'bedrock'],
    },
    default: 'auto',
    meaning:
      'which form of the thinking switch to send; `auto` takes api.openai.com for OpenAI, port ' +
      '11434 for Ollama, `bedrock` with MODEL_PROVIDER=bedrock, anything else for the ' +
      'chat-template switch of llama.cpp, vLLM and SGLang',
  },
  MODEL_PROVIDER: {
    check: { kind: 'oneOf', values: ['openai', 'bedrock'] },
    default: 'openai',
    meaning:
      "openai: any OpenAI-compatible server (OPENAI_BASE_URL); bedrock: Amazon Bedrock's OpenAI-compatible endpoint, signed with the AWS credentials (no key)",
  },
  BEDROCK_REGION: {
    check: text,
    default: null,
    meaning: "Bedrock's region (MODEL_PROVIDER=bedrock); unset: AWS_REGION, the function's own",
  },
  BEDROCK_BASE_URL: {
    check: { kind: 'httpUrl' },
    default: null,
    meaning:
      'unset: https://bedrock-mantle.<region>.api.aws/v1; set for a model Bedrock serves under /openai/v1, or a stand-in',
  },
  OPENAI_BASE_URL: {
    check: { kind: 'httpUrl' },
    default: null,
    meaning:
      'the OpenAI-compatible model server (Ollama, llama.cpp, vLLM, OpenAI...), with LLM_MODEL; ' +
      'unset: `npm start` runs the embedded model, and a deployed function answers 503',
  },
  LLM_MODEL: {
    check: text,
    default: null,
    meaning:
      "the model the server runs, with OPENAI_BASE_URL; Bedrock's model id with " +
      'MODEL_PROVIDER=bedrock (`openai.gpt-oss-20b`); without either, under `npm start`, the ' +
      'embedded model: `hf:<user>/<repo>/<file>.gguf`, a path to a `.gguf`, or `none` (default: ' +
      'Qwen3-1.7B Q4_K_M, downloaded once; [models](models.md))',
  },
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
      "the STT_BASE_URL server's transcription model; under npm start, the embedded recognizer's model (its own column; docs/speech.md)",
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
  STT_PROVIDER: {
    check: { kind: 'oneOf', values: ['openai', 'transcribe'] },
    default: 'openai',
    meaning:
      '`openai`: the STT_BASE_URL server (unset: the embedded recognizer under npm start, none ' +
      'deployed); `transcribe`: Amazon Transcribe streaming, signed with the AWS credentials (no ' +
      'key), paced at real time, so a recording takes at least its own length (docs/speech.md)',
  },
  TRANSCRIBE_LANGUAGE: {
    check: text,
    default: 'en-US',
    meaning: "Transcribe's language code (STT_PROVIDER=transcribe), e.g. en-GB, de-DE, fr-FR",
  },
  TRANSCRIBE_REGION: {
    check: text,
    default: null,
    meaning: "Transcribe's region (STT_PROVIDER=transcribe); unset: AWS_REGION, the function's own",
  },
  TRANSCRIBE_ENDPOINT: {
    check: { kind: 'httpUrl' },
    default: null,
    meaning: "unset: AWS's endpoint of the region; set for a stand-in (the tests)",
  },
  TTS_PROVIDER: {
    check: { kind: 'oneOf', values: ttsProviders },
    default: null,
    meaning:
      'speech out: `polly` (Amazon Polly, IAM, no key), `openai` (any OpenAI-compatible speech ' +
      'server), `embedded` (CMU Flite in process, npm start only, refused in Lambda) or `none`; ' +
      'unset or `none`: no audio is synthesized (the speech routes answer 503)',
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
      'what the openai speech server is asked for: raw 16-bit mono `pcm` at TTS_PCM_SAMPLE_RATE, ' +
      'or `wav` (its header gives the format)',
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
    meaning: "Polly's engine (the voice must support it); Polly answers 16 kHz PCM",
  },
  AWS_REGION: {
    check: text,
    default: null,
    reservedByLambda: true,
    meaning: "the table's and the secrets' region (Lambda sets it)",
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
    meaning: "a DynamoDB other than AWS's (dynalite, DynamoDB Local); unset in AWS",
  },
  POWERTOOLS_SERVICE_NAME: {
    check: text,
    default: 'jcc',
    meaning: 'the service of the logs and metrics (the dashboard and alarms read it)',
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
