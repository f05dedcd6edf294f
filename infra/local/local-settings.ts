import { resolve } from 'node:path';
import {
  defaultThreads,
  type EmbeddedModelRuntime,
} from '../../shared/adapters/embedded-model/load-embedded-model';
import { isValidTimeZone } from '../../shared/conversation/time-zones';

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
