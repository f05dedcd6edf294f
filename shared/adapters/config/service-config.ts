import { DEFAULT_ENGINE_SETTINGS, type EngineSettings } from '../../conversation/engine-settings';
import { bedrockMantleBaseUrl } from '../openai/bedrock-endpoint';
import { type ApiKeySource, apiKeySource } from './api-key-source';
import { type ReadSettings, readSettings } from './read-settings';
import { defaultWarmUpTimeoutMs, type HandlerSettingValues } from './settings-table';
import {
  readSpeechToText,
  readTextToSpeech,
  type SpeechToTextConfig,
  type TextToSpeechConfig,
} from './speech-config';

interface LanguageModelConfig {
  /** The OpenAI-compatible server, or Bedrock's endpoint (its default, or BEDROCK_BASE_URL). */
  readonly baseURL: string;
  readonly model: string;
  /** Bedrock's: none (the requests are signed with the AWS credentials, never a key). */
  readonly apiKey: ApiKeySource;
  /** MODEL_PROVIDER=bedrock: the region every request is signed for; null for OpenAI's API. */
  readonly bedrock: { readonly region: string } | null;
  /** `max_tokens` of every request: a tool call or a spoken answer fits; a rambling reply stops. */
  readonly maxTokens: number;
  /** MODEL_THINKING: `off` asks a reasoning model not to think; `on` leaves the server's default. */
  readonly thinking: HandlerSettingValues['MODEL_THINKING'];
  /** MODEL_SERVER: which form of the thinking switch the server reads (`auto`: from the URL). */
  readonly server: HandlerSettingValues['MODEL_SERVER'];
}

export interface ServiceConfig {
  readonly tableName: string;
  readonly region: string;
  /** Set for local DynamoDB (dynalite, DynamoDB Local); absent in AWS. */
  readonly dynamoDbEndpoint: string | null;
  /** Null when no model is configured: the service starts and the voice routes answer 503. */
  readonly languageModel: LanguageModelConfig | null;
  /** Speech in (STT_*, TRANSCRIBE_*); null when none is set: the transcribe route answers 503. */
  readonly speechToText: SpeechToTextConfig | null;
  /** Speech out (TTS_PROVIDER and its settings); null when unset: no audio is synthesized. */
  readonly textToSpeech: TextToSpeechConfig | null;
  readonly engine: EngineSettings;
  /** A refused node key is answered no sooner than this (ms): timing tells no node id apart. */
  readonly authRejectionFloorMs: number;
  /** Requests per node per window, across every container; null when off (NODE_RATE_LIMIT=0). */
  readonly nodeRateLimit: { readonly requests: number; readonly windowSeconds: number } | null;
  /** Powertools names (POWERTOOLS_SERVICE_NAME, POWERTOOLS_METRICS_NAMESPACE). */
  readonly serviceName: string;
  readonly metricsNamespace: string;
}

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
  constructor(readonly problems: readonly string[]) {
    super(`invalid configuration: ${problems.join('; ')}`);
  }
}

/**
 * Reads and checks every setting once, at start-up; everything else gets plain values.
 * Every problem is reported at once. Secrets are never part of the error text.
 */
export function readServiceConfig(
  env: Readonly<Record<string, string | undefined>>,
): ServiceConfig {
  const read = readSettings(env);
  const { values: settings } = read;
  const problems = [...read.problems];
  const engine: EngineSettings = {
    ...DEFAULT_ENGINE_SETTINGS,
    normalization: settings.PARAM_NORMALIZATION,
    maxValidationRetries: settings.MAX_VALIDATION_RETRIES,
    turnDeadlineMs: settings.TURN_DEADLINE_MS,
    warmUpTimeoutMs:
      settings.WARMUP_TIMEOUT_MS ?? defaultWarmUpTimeoutMs(settings.TURN_DEADLINE_MS),
    strictToolSchemas: settings.STRICT_TOOL_SCHEMAS,
    conversationTtlSeconds: settings.CONVERSATION_TTL_SECONDS,
    answerFromCommandMessages: settings.ANSWER_FROM_COMMAND_MESSAGES === 'on',
  };
  if (engine.warmUpTimeoutMs >= engine.turnDeadlineMs && engine.warmUpTimeoutMs > 0) {
    problems.push(
      `WARMUP_TIMEOUT_MS (${engine.warmUpTimeoutMs}) must be below TURN_DEADLINE_MS (${engine.turnDeadlineMs}): conversation/start answers within a turn's time`,
    );
  }
  const languageModel = readLanguageModel(read, problems);
  const speechToText = readSpeechToText(read, problems);
  const textToSpeech = readTextToSpeech(read, problems);
  if (problems.length > 0) throw new ConfigError(problems);
  return {
    tableName: settings.TABLE_NAME ?? '',
    region: settings.AWS_REGION ?? settings.AWS_DEFAULT_REGION,
    dynamoDbEndpoint: settings.DYNAMODB_ENDPOINT,
    languageModel,
    speechToText,
    textToSpeech,
    engine,
    authRejectionFloorMs: settings.AUTH_REJECTION_FLOOR_MS,
    nodeRateLimit:
      settings.NODE_RATE_LIMIT === 0
        ? null
        : { requests: settings.NODE_RATE_LIMIT, windowSeconds: settings.NODE_RATE_WINDOW_SECONDS },
    serviceName: settings.POWERTOOLS_SERVICE_NAME,
    metricsNamespace: settings.POWERTOOLS_METRICS_NAMESPACE,
  };
}

/**
 * The model, when either of its two settings is given (even an invalid one): both are needed.
 * With MODEL_PROVIDER=bedrock, LLM_MODEL is needed and OPENAI_BASE_URL and the key are ignored
 * (the stack declares every setting on every function).
 */
function readLanguageModel(read: ReadSettings, problems: string[]): LanguageModelConfig | null {
  const { values: settings, given } = read;
  if (settings.MODEL_PROVIDER === 'bedrock') return readBedrockModel(read, problems);
  if (!given.has('OPENAI_BASE_URL') && !given.has('LLM_MODEL')) return null;
  if (!given.has('OPENAI_BASE_URL')) {
    problems.push('OPENAI_BASE_URL is required when LLM_MODEL is set');
  }
  if (!given.has('LLM_MODEL')) problems.push('LLM_MODEL is required when OPENAI_BASE_URL is set');
  return {
    baseURL: settings.OPENAI_BASE_URL ?? '',
    model: settings.LLM_MODEL ?? '',
    apiKey: apiKeySource(settings.OPENAI_API_KEY, settings.OPENAI_API_KEY_SECRET),
    bedrock: null,
    maxTokens: settings.MODEL_MAX_TOKENS,
    thinking: settings.MODEL_THINKING,
    server: settings.MODEL_SERVER,
  };
}

/** Bedrock's model: its id, and the region every request is signed for. */
function readBedrockModel(read: ReadSettings, problems: string[]): LanguageModelConfig {
  const { values: settings, given } = read;
  if (!given.has('LLM_MODEL')) {
    problems.push("LLM_MODEL is required when MODEL_PROVIDER is bedrock (Bedrock's model id)");
  }
  const region = settings.BEDROCK_REGION ?? settings.AWS_REGION ?? settings.AWS_DEFAULT_REGION;
  return {
    baseURL: settings.BEDROCK_BASE_URL ?? bedrockMantleBaseUrl(region),
    model: settings.LLM_MODEL ?? '',
    apiKey: { kind: 'value', value: '' },
    bedrock: { region },
    maxTokens: settings.MODEL_MAX_TOKENS,
    thinking: settings.MODEL_THINKING,
    server: settings.MODEL_SERVER === 'auto' ? 'bedrock' : settings.MODEL_SERVER,
  };
}
