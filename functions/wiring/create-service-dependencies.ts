import { Logger } from '@aws-lambda-powertools/logger';
import { Metrics } from '@aws-lambda-powertools/metrics';
import type { ServiceConfig } from '../../shared/adapters/config/service-config';
import {
  createDynamoDbClient,
  type DynamoDbClient,
  DynamoDbConversationStore,
  DynamoDbNodeRateLimiter,
  DynamoDbNodeRegistry,
} from '../../shared/adapters/dynamodb';
import { WorkerIsolation } from '../../shared/adapters/isolation';
import { OpenAiLanguageModel } from '../../shared/adapters/openai';
import { InMemoryWarmUps } from '../../shared/adapters/system/in-memory-warm-ups';
import type { UntrustedWork } from '../../shared/conversation';
import type { Clock, IdGenerator } from '../../shared/ports/clock';
import type { LanguageModel } from '../../shared/ports/language-model';
import { NodeAuthenticator } from '../http/edge/node-authenticator';
import { type EmbeddedModelEntry, providedByNpmStart } from './npm-start-provisions';
import type { ServiceDependencies, SpeechDependencies } from './service-dependencies';

export interface WiringOptions {
  readonly config: ServiceConfig;
  /** The resolved model key (from the environment or Secrets Manager). */
  readonly apiKey: string | null;
  readonly clock: Clock;
  readonly ids: IdGenerator;
  /** The wake greetings' randomness (a test chooses it, as it chooses the clock). */
  readonly random: ServiceDependencies['random'];
  /** Replaces the OpenAI adapter, e.g. with an in-process model in benchmarks. */
  readonly model?: LanguageModel | null;
  /** Replaces the process's isolation worker (e.g. one whose deadline a test fires). */
  readonly untrustedWork?: UntrustedWork;
  readonly logger?: Logger;
  readonly metrics?: Metrics;
  /** Speech in and out; none when absent (production passes what the settings configure). */
  readonly speech?: SpeechDependencies;
  /** Replaces the DynamoDB client built from the settings (a benchmark counts its requests). */
  readonly dynamoDbClient?: DynamoDbClient;
}

/** Builds the real adapters from checked settings: one place for Lambda, `npm start` and tests. */
export function createServiceDependencies(options: WiringOptions): ServiceDependencies {
  const { config, clock, ids } = options;
  const client =
    options.dynamoDbClient ??
    createDynamoDbClient({
      region: config.region,
      ...(config.dynamoDbEndpoint === null ? {} : { endpoint: config.dynamoDbEndpoint }),
    });
  const llm = config.languageModel;
  const logger = options.logger ?? new Logger({ serviceName: config.serviceName });
  // Only npm start provides one, and only when no model server is configured.
  const embedded = llm === null ? providedByNpmStart('model') : null;
  const model = languageModel(options, embedded, logger);
  const metrics =
    options.metrics ??
    new Metrics({ namespace: config.metricsNamespace, serviceName: config.serviceName });
  return {
    chat: {
      modelName: llm?.model ?? embedded?.name ?? '',
      maxTokens: llm?.maxTokens ?? embedded?.maxTokens ?? null,
    },
    random: options.random,
    conversation: {
      store: new DynamoDbConversationStore({ client, tableName: config.tableName, clock }),
      model,
      clock,
      ids,
      settings: config.engine,
      untrustedWork: options.untrustedWork ?? processIsolation(),
      // Per container: what this container warmed the model with (warm-up-decision.ts).
      warmUps: new InMemoryWarmUps(),
    },
    route: {
      // npm start shares the one its server checks keys with (npm-start-provisions.ts).
      authenticator:
        providedByNpmStart('authenticator') ??
        new NodeAuthenticator(
          new DynamoDbNodeRegistry({ client, tableName: config.tableName }),
          clock,
          { rejectionFloorMs: config.authRejectionFloorMs },
        ),
      rateLimiter:
        config.nodeRateLimit === null
          ? null
          : new DynamoDbNodeRateLimiter({
              client,
              tableName: config.tableName,
              clock,
              ...config.nodeRateLimit,
            }),
      logger,
      metrics,
    },
    speech: options.speech ?? { speechToText: null, textToSpeech: null },
  };
}

/** The caller's model, else the configured server's, else npm start's embedded one, else none. */
function languageModel(
  options: WiringOptions,
  embedded: EmbeddedModelEntry | null,
  logger: Logger,
): LanguageModel | null {
  if (options.model !== undefined) return options.model;
  const llm = options.config.languageModel;
  if (llm === null) return embedded?.model ?? null;
  return new OpenAiLanguageModel({
    baseURL: llm.baseURL,
    apiKey: options.apiKey ?? '',
    ...(llm.bedrock === null ? {} : { bedrock: llm.bedrock }),
    model: llm.model,
    maxTokens: llm.maxTokens,
    thinking: { thinking: llm.thinking, server: llm.server },
    warn: (message, details) => logger.warn(message, details),
  });
}

let isolation: WorkerIsolation | null = null;

/** One warm worker per process (per Lambda container), however many times the wiring runs. */
function processIsolation(): WorkerIsolation {
  isolation ??= new WorkerIsolation();
  return isolation;
}
