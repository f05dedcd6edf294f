import { resolve } from 'node:path';
import type { HandlerSettingName } from '../../shared/adapters/config/settings-table';
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
}

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
  return {
    port: port('PORT', 3000),
    host: env.HOST?.trim() || '127.0.0.1',
    dynamoDbPort: port('DYNAMODB_PORT', 8000),
    dynamoDbHost: env.DYNAMODB_HOST?.trim() || '127.0.0.1',
    dataDir: dataDir === 'memory' ? null : resolve(dataDir || '.data'),
    tableName: env.TABLE_NAME?.trim() || 'jcc-local',
    nodeCredentials: env.LOCAL_NODE_API_KEY?.trim() || null,
    nodeTimezone: timezone || Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC',
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
