import { DEFAULT_ENGINE_SETTINGS, type EngineSettings } from '../../conversation/engine-settings';
import type { NormalizationPolicy } from '../../params';

/** Where the model's key comes from: the environment (local runs) or a Secrets Manager secret. */
export type ApiKeySource =
  | { readonly kind: 'value'; readonly value: string }
  | { readonly kind: 'secret'; readonly secretId: string };

export interface LanguageModelConfig {
  readonly baseURL: string;
  readonly model: string;
  readonly apiKey: ApiKeySource;
  /** `max_tokens` of every request: a tool call or a spoken answer fits; a rambling reply stops. */
  readonly maxTokens: number;
}

export interface ServiceConfig {
  readonly tableName: string;
  readonly region: string;
  /** Set for local DynamoDB (dynalite, DynamoDB Local); absent in AWS. */
  readonly dynamoDbEndpoint: string | null;
  /** Null when no model is configured: the service starts and the voice routes answer 503. */
  readonly languageModel: LanguageModelConfig | null;
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

const POLICIES: readonly NormalizationPolicy[] = ['strict', 'lossless', 'lenient'];

/**
 * Reads and checks every setting once, at start-up; everything else gets plain values.
 * Every problem is reported at once. Secrets are never part of the error text.
 */
export function readServiceConfig(
  env: Readonly<Record<string, string | undefined>>,
): ServiceConfig {
  const problems: string[] = [];
  const text = (name: string): string | null => {
    const value = env[name]?.trim();
    return value === undefined || value === '' ? null : value;
  };
  const integer = (name: string, fallback: number, min: number, max: number): number => {
    const value = text(name);
    if (value === null) return fallback;
    const parsed = Number(value);
    if (!Number.isInteger(parsed) || parsed < min || parsed > max) {
      problems.push(`${name} must be an integer from ${min} to ${max}, got "${value}"`);
      return fallback;
    }
    return parsed;
  };

  const flag = (name: string, fallback: boolean): boolean => {
    const value = text(name)?.toLowerCase();
    if (value === undefined) return fallback;
    if (value === 'true' || value === '1') return true;
    if (value === 'false' || value === '0') return false;
    problems.push(`${name} must be true or false, got "${value}"`);
    return fallback;
  };

  const policy = (text('PARAM_NORMALIZATION') ?? 'lossless').toLowerCase();
  if (!POLICIES.includes(policy as NormalizationPolicy)) {
    problems.push(`PARAM_NORMALIZATION must be one of ${POLICIES.join(', ')}, got "${policy}"`);
  }
  // Up to 10 minutes: a CPU model on a laptop is slow. Behind API Gateway the stack derives the
  // deadline, the Lambda timeout and the gateway's wait from one setting (infra/stacks/turn-timing.ts).
  const deadlineMs = integer(
    'TURN_DEADLINE_MS',
    DEFAULT_ENGINE_SETTINGS.turnDeadlineMs,
    1_000,
    600_000,
  );
  const engine: EngineSettings = {
    ...DEFAULT_ENGINE_SETTINGS,
    normalization: POLICIES.includes(policy as NormalizationPolicy)
      ? (policy as NormalizationPolicy)
      : DEFAULT_ENGINE_SETTINGS.normalization,
    maxValidationRetries: integer(
      'MAX_VALIDATION_RETRIES',
      DEFAULT_ENGINE_SETTINGS.maxValidationRetries,
      0,
      5,
    ),
    turnDeadlineMs: deadlineMs,
    // By default the warm-up leaves the start 2 s of a turn's time to answer in.
    warmUpTimeoutMs: integer(
      'WARMUP_TIMEOUT_MS',
      Math.max(0, Math.min(DEFAULT_ENGINE_SETTINGS.warmUpTimeoutMs, deadlineMs - 2_000)),
      0,
      600_000,
    ),
    strictToolSchemas: flag('STRICT_TOOL_SCHEMAS', DEFAULT_ENGINE_SETTINGS.strictToolSchemas),
    conversationTtlSeconds: integer(
      'CONVERSATION_TTL_SECONDS',
      DEFAULT_ENGINE_SETTINGS.conversationTtlSeconds,
      60,
      30 * 86_400,
    ),
  };

  const authRejectionFloorMs = integer('AUTH_REJECTION_FLOOR_MS', 25, 0, 1_000);
  const rateRequests = integer('NODE_RATE_LIMIT', 120, 0, 100_000);
  const rateWindowSeconds = integer('NODE_RATE_WINDOW_SECONDS', 60, 1, 3_600);
  if (engine.warmUpTimeoutMs >= engine.turnDeadlineMs && engine.warmUpTimeoutMs > 0) {
    problems.push(
      `WARMUP_TIMEOUT_MS (${engine.warmUpTimeoutMs}) must be below TURN_DEADLINE_MS (${engine.turnDeadlineMs}): conversation/start answers within a turn's time`,
    );
  }
  const tableName = text('TABLE_NAME');
  if (tableName === null) problems.push('TABLE_NAME is required');
  const maxTokens = integer('MODEL_MAX_TOKENS', 1_024, 16, 65_536);
  const languageModel = readLanguageModel(text, problems, maxTokens);
  if (problems.length > 0) throw new ConfigError(problems);
  return {
    tableName: tableName ?? '',
    region: text('AWS_REGION') ?? text('AWS_DEFAULT_REGION') ?? 'us-east-1',
    dynamoDbEndpoint: text('DYNAMODB_ENDPOINT'),
    languageModel,
    engine,
    authRejectionFloorMs,
    nodeRateLimit:
      rateRequests === 0 ? null : { requests: rateRequests, windowSeconds: rateWindowSeconds },
    serviceName: text('POWERTOOLS_SERVICE_NAME') ?? 'jcc',
    metricsNamespace: text('POWERTOOLS_METRICS_NAMESPACE') ?? 'Jcc',
  };
}

function readLanguageModel(
  text: (name: string) => string | null,
  problems: string[],
  maxTokens: number,
): LanguageModelConfig | null {
  const baseURL = text('OPENAI_BASE_URL');
  const model = text('LLM_MODEL');
  const key = text('OPENAI_API_KEY');
  const secret = text('OPENAI_API_KEY_SECRET');
  if (baseURL === null && model === null) return null;
  if (baseURL === null) problems.push('OPENAI_BASE_URL is required when LLM_MODEL is set');
  if (model === null) problems.push('LLM_MODEL is required when OPENAI_BASE_URL is set');
  if (baseURL !== null && !/^https?:\/\//.test(baseURL)) {
    problems.push('OPENAI_BASE_URL must be an http(s) URL');
  }
  // Local servers (llama.cpp, Ollama, vLLM) often need no key; the SDK still wants a string.
  const apiKey: ApiKeySource =
    key !== null
      ? { kind: 'value', value: key }
      : secret !== null
        ? { kind: 'secret', secretId: secret }
        : { kind: 'value', value: 'not-needed' };
  return { baseURL: baseURL ?? '', model: model ?? '', apiKey, maxTokens };
}
