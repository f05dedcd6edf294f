import { resolve } from 'node:path';
import type { HandlerSettingName } from '../../shared/adapters/config/settings-table';
import {
  defaultThreads,
  type EmbeddedModelRuntime,
} from '../../shared/adapters/embedded-model/load-embedded-model';
import { isValidTimeZone } from '../../shared/conversation/time-zones';
import { LOCAL_MODEL_TURN_DEADLINE_MS, LOCAL_MODEL_WARMUP_TIMEOUT_MS } from './local-model-timing';

/** The settings only `npm start` reads; the service's own settings are read by the handlers. */
export interface LocalSettings {
  readonly port: number;
  readonly host: string;
  readonly dynamoDbPort: number;
  /** Loopback unless set: `0.0.0.0` lets a container (`sam local` on Linux) reach it. */
  readonly dynamoDbHost: string;
  /** Null keeps the database in memory (tests); `npm start` keeps it under `.data/`. */
  readonly dataDir: string | null;
  readonly tableName: string;
  readonly nodeCredentials: string | null;
  readonly nodeTimezone: string;
  /** How the embedded model runs (LLM_*), when no OPENAI_BASE_URL names a model server. */
  readonly embeddedModel: LocalModelSettings;
}

/** The embedded model's settings; which model (LLM_MODEL) is read by local-model.ts. */
export interface LocalModelSettings {
  readonly runtime: EmbeddedModelRuntime;
  /** LLM_QUEUE: requests that may wait beyond those running; one more is a 503 llm_busy. */
  readonly queuePlaces: number;
  /** LLM_TOOL_GRAMMAR: constrain a required call to the tools' schemas (docs/embedded-model.md). */
  readonly toolCallGrammar: boolean;
  /** LLM_TEMPERATURE; null: greedy with thinking off (samplingFor). */
  readonly temperature: number | null;
}

/** Tokens a sequence holds: a command set's prompt (about 2.7k tokens measured) and an exchange. */
export const DEFAULT_CONTEXT_SIZE = 8_192;
const DEFAULT_QUEUE_PLACES = 4;

/** A setting of `npm start` that cannot be used as given; its message names the variable. */
export class LocalSettingsError extends Error {
  override readonly name = 'LocalSettingsError';
}

export function readLocalSettings(
  env: Readonly<Record<string, string | undefined>>,
): LocalSettings {
  const port = (name: string, fallback: number): number => {
    const value = env[name]?.trim();
    if (value === undefined || value === '') return fallback;
    const parsed = Number(value);
    if (!Number.isInteger(parsed) || parsed < 0 || parsed > 65_535) {
      throw new LocalSettingsError(`${name} must be a port number, got "${value}"`);
    }
    return parsed;
  };
  const dataDir = env.DATA_DIR?.trim();
  const timezone = env.LOCAL_NODE_TIMEZONE?.trim();
  if (timezone && !isValidTimeZone(timezone)) {
    throw new LocalSettingsError(
      `LOCAL_NODE_TIMEZONE must be an IANA time zone such as Europe/Berlin, got "${timezone}"`,
    );
  }
  const integer = (name: string, fallback: number, min: number, max: number): number => {
    const value = env[name]?.trim();
    if (value === undefined || value === '') return fallback;
    const parsed = Number(value);
    if (!Number.isInteger(parsed) || parsed < min || parsed > max) {
      throw new LocalSettingsError(
        `${name} must be an integer from ${min} to ${max}, got "${value}"`,
      );
    }
    return parsed;
  };
  const temperature = (): number | null => {
    const value = env.LLM_TEMPERATURE?.trim();
    if (value === undefined || value === '') return null;
    const parsed = Number(value);
    if (!Number.isFinite(parsed) || parsed < 0 || parsed > 2) {
      throw new LocalSettingsError(
        `LLM_TEMPERATURE must be a number from 0 (greedy) to 2, got "${value}"`,
      );
    }
    return parsed;
  };
  const onOff = (name: string, fallback: boolean): boolean => {
    const value = env[name]?.trim().toLowerCase();
    if (value === undefined || value === '') return fallback;
    if (value === 'on' || value === 'off') return value === 'on';
    throw new LocalSettingsError(`${name} must be on or off, got "${env[name]}"`);
  };
  return {
    port: port('PORT', 3000),
    host: env.HOST?.trim() || '127.0.0.1',
    dynamoDbPort: port('DYNAMODB_PORT', 8000),
    dynamoDbHost: env.DYNAMODB_HOST?.trim() || '127.0.0.1',
    dataDir: dataDir === 'memory' ? null : resolve(dataDir || '.data'),
    tableName: env.TABLE_NAME?.trim() || 'jcc-local',
    nodeCredentials: env.LOCAL_NODE_API_KEY?.trim() || null,
    nodeTimezone: timezone || Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC',
    embeddedModel: {
      runtime: {
        threads: integer('LLM_THREADS', defaultThreads(), 1, 256),
        mmap: onOff('LLM_MMAP', false),
        contextSize: integer('LLM_CONTEXT_SIZE', DEFAULT_CONTEXT_SIZE, 512, 131_072),
        parallel: integer('LLM_PARALLEL', 1, 1, 16),
      },
      queuePlaces: integer('LLM_QUEUE', DEFAULT_QUEUE_PLACES, 0, 64),
      toolCallGrammar: onOff('LLM_TOOL_GRAMMAR', false),
      temperature: temperature(),
    },
  };
}

/** A server listening on every interface is reached on loopback; IPv6 literals need brackets. */
export function reachableHost(host: string): string {
  if (host === '0.0.0.0' || host === '::') return '127.0.0.1';
  return host.includes(':') ? `[${host}]` : host;
}

/** The local API's address for a client on this machine; null when PORT=0 let the system pick. */
export function localApiUrl(settings: LocalSettings): string | null {
  return settings.port === 0 ? null : `http://${reachableHost(settings.host)}:${settings.port}`;
}

/** One variable only `npm start` reads (`npm run say` and `node:add` read it as it does). */
export interface LocalSetting {
  /** As docs/settings.md shows it; readLocalSettings takes it when the variable is unset. */
  readonly default: string;
  readonly meaning: string;
}

/**
 * Every variable readLocalSettings reads beyond the handlers' settings, with its meaning:
 * docs/settings.md is written from it (`npm run docs:settings`), and a test holds it to what
 * readLocalSettings reads and defaults to.
 */
export const localSettings = {
  PORT: { default: '3000', meaning: 'where the local API listens' },
  HOST: {
    default: '127.0.0.1',
    meaning: 'the address it listens on; `0.0.0.0` for every interface',
  },
  DYNAMODB_PORT: {
    default: '8000',
    meaning:
      'the embedded DynamoDB (dynalite), reachable by other tools; a busy port stops npm start ' +
      'with one line naming a free one',
  },
  DYNAMODB_HOST: {
    default: '127.0.0.1',
    meaning: 'its address; `0.0.0.0` for containers (`sam local` on Linux)',
  },
  DATA_DIR: {
    default: '.data',
    meaning:
      'its LevelDB files and the generated node key (`memory` keeps nothing); one npm start ' +
      'per folder, a second stops with one line naming DATA_DIR',
  },
  LOCAL_NODE_API_KEY: {
    default: 'generated, kept in DATA_DIR',
    meaning:
      '`node_id:node_key[,node_id:node_key...]` seeded at start; a key set here is never printed',
  },
  LOCAL_NODE_TIMEZONE: {
    default: "the machine's zone",
    meaning: 'IANA zone of the seeded nodes; an unknown one stops npm start',
  },
  LLM_THREADS: {
    default: "the machine's cores",
    meaning:
      'threads the embedded model computes on (llama.cpp); more threads than cores made ' +
      'generation 200x slower on a 2-core machine ([embedded model](embedded-model.md))',
  },
  LLM_MMAP: {
    default: 'off',
    meaning:
      '`on` maps the weights from disk instead of reading them into memory (10x slower here)',
  },
  LLM_CONTEXT_SIZE: {
    default: '8192',
    meaning: "tokens one sequence holds: a command set's prompt and an exchange",
  },
  LLM_PARALLEL: {
    default: '1',
    meaning: 'requests the embedded model runs at once, one context sequence each',
  },
  LLM_QUEUE: {
    default: '4',
    meaning:
      'requests that may wait beyond those running; one more is a `503 llm_busy` with ' +
      '`Retry-After`',
  },
  LLM_TOOL_GRAMMAR: {
    default: 'off',
    meaning:
      "`on` constrains a required call to the tools' JSON Schemas by grammar (costs 5-13 % a " +
      'token; [embedded model](embedded-model.md))',
  },
  LLM_TEMPERATURE: {
    default: 'greedy (0) with MODEL_THINKING off',
    meaning:
      'how the embedded model picks tokens: 0 the likeliest (the same words, the same call); ' +
      "above 0, that temperature with Qwen3's top-p and top-k; with thinking on, unset is " +
      "Qwen3's thinking sampling (0.6)",
  },
} as const satisfies Readonly<Record<string, LocalSetting>>;

/** Handler settings that npm start sets when they are unset, and to what. */
export const npmStartDefaults = {
  TABLE_NAME: { default: 'jcc-local', meaning: 'the table npm start creates' },
  DYNAMODB_ENDPOINT: { default: 'the embedded DynamoDB', meaning: 'set by npm start' },
  TTS_PROVIDER: {
    default: 'embedded',
    meaning: 'npm start speaks out of the box (`none` turns it off)',
  },
  TURN_DEADLINE_MS: {
    default: String(LOCAL_MODEL_TURN_DEADLINE_MS),
    meaning:
      'against a model on a loopback or private address (a CPU model), and the banner says so',
  },
  WARMUP_TIMEOUT_MS: {
    default: String(LOCAL_MODEL_WARMUP_TIMEOUT_MS),
    meaning: 'against a model on a loopback or private address, below the deadline',
  },
} as const satisfies Partial<Record<HandlerSettingName, LocalSetting>>;
