import { resolve } from 'node:path';
import {
  readSettingsTable,
  type TableSetting,
  type TableValues,
} from '../../shared/adapters/config/read-settings';
import {
  type HandlerSettingName,
  handlerSettings,
} from '../../shared/adapters/config/settings-table';
import {
  defaultThreads,
  type EmbeddedModelRuntime,
} from '../../shared/adapters/embedded-model/load-embedded-model';
import { LOCAL_MODEL_TURN_DEADLINE_MS, LOCAL_MODEL_WARMUP_TIMEOUT_MS } from './local-model-timing';
import { hubReference } from './model-files/hub-file';
import { modelCacheSettingsTable } from './model-files/model-cache-settings';
import { DEFAULT_SPEECH_MODELS, PINNED_MODELS } from './model-files/pinned-models';

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
  /** The settings of npm start's table that were set (a tool's defaults yield to them). */
  readonly given: ReadonlySet<LocalSettingName>;
}

/** The embedded recognizer: Moonshine on sherpa-onnx, or whisper.cpp (docs/speech.md). */
export type SpeechEngine = 'sherpa' | 'whisper';

/** STT_ENGINE, `sherpa` unless set; anything else is one line naming the two. */
export function readSpeechEngine(env: Readonly<Record<string, string | undefined>>): SpeechEngine {
  return readLocalSetting(env, 'STT_ENGINE');
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

/**
 * Settings of `npm start` that cannot be used as given: one line naming each variable and what it
 * takes (every problem at once).
 */
export class LocalSettingsError extends Error {
  override readonly name = 'LocalSettingsError';
}

/**
 * Reads and checks every variable of npm start's table (below) with the checks of the handlers'
 * table (setting-checks.ts); throws LocalSettingsError naming every bad value at once.
 */
export function readLocalSettings(
  env: Readonly<Record<string, string | undefined>>,
): LocalSettings {
  const { values, given } = checkedLocalSettings(env, localSettings);
  const dataDir = values.DATA_DIR;
  return {
    port: values.PORT,
    host: values.HOST,
    dynamoDbPort: values.DYNAMODB_PORT,
    dynamoDbHost: values.DYNAMODB_HOST,
    dataDir: dataDir === 'memory' ? null : resolve(dataDir),
    // The handlers' own entry, read alone (unset is no problem here: npm start names its table).
    tableName:
      readSettingsTable({ TABLE_NAME: handlerSettings.TABLE_NAME }, env).values.TABLE_NAME ??
      npmStartDefaults.TABLE_NAME.default,
    nodeCredentials: values.LOCAL_NODE_API_KEY,
    nodeTimezone:
      values.LOCAL_NODE_TIMEZONE ?? (Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC'),
    embeddedModel: {
      runtime: {
        threads: values.LLM_THREADS ?? defaultThreads(),
        mmap: values.LLM_MMAP === 'on',
        contextSize: values.LLM_CONTEXT_SIZE,
        parallel: values.LLM_PARALLEL,
      },
      queuePlaces: values.LLM_QUEUE,
      toolCallGrammar: values.LLM_TOOL_GRAMMAR === 'on',
      temperature: values.LLM_TEMPERATURE,
    },
    given,
  };
}

/** One setting of npm start's table, checked as readLocalSettings checks it. */
export function readLocalSetting<Name extends LocalSettingName>(
  env: Readonly<Record<string, string | undefined>>,
  name: Name,
): LocalSettingValues[Name] {
  const only = { [name]: localSettings[name] } as Pick<typeof localSettings, Name>;
  // The picked table's value is the whole table's: the compiler cannot see it through Pick.
  return checkedLocalSettings(env, only).values[name] as LocalSettingValues[Name];
}

function checkedLocalSettings<T extends Readonly<Record<string, TableSetting>>>(
  env: Readonly<Record<string, string | undefined>>,
  table: T,
): { readonly values: TableValues<T>; readonly given: ReadonlySet<keyof T & string> } {
  const { values, problems, given } = readSettingsTable(table, env);
  if (problems.length > 0) throw new LocalSettingsError(problems.join('; '));
  return { values, given };
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

const integer = (min: number, max: number) => ({ kind: 'integer', min, max }) as const;
const port = integer(0, 65_535);
const text = { kind: 'text' } as const;
const onOff = { kind: 'oneOf', values: ['on', 'off'] } as const;

/**
 * Every variable npm start reads beyond the handlers' settings: its check, its default and what
 * it means. readLocalSettings reads it, docs/settings.md is written from it (`npm run
 * docs:settings`), and a test holds it to what readLocalSettings reads and defaults to.
 */
export const localSettings = {
  PORT: { check: port, default: 3000, meaning: 'where the local API listens' },
  HOST: {
    check: text,
    default: '127.0.0.1',
    meaning: 'the address it listens on; `0.0.0.0` for every interface',
  },
  DYNAMODB_PORT: {
    check: port,
    default: 8000,
    meaning:
      'the embedded DynamoDB (dynalite), reachable by other tools; a busy port stops npm start ' +
      'with one line naming a free one',
  },
  DYNAMODB_HOST: {
    check: text,
    default: '127.0.0.1',
    meaning: 'its address; `0.0.0.0` for containers (`sam local` on Linux)',
  },
  DATA_DIR: {
    check: text,
    default: '.data',
    meaning:
      'its LevelDB files and the generated node key (`memory` keeps nothing); one npm start ' +
      'per folder, a second stops with one line naming DATA_DIR',
  },
  LOCAL_NODE_API_KEY: {
    check: { kind: 'secret' },
    default: null,
    shownDefault: 'generated, kept in DATA_DIR',
    meaning:
      '`node_id:node_key[,node_id:node_key...]` seeded at start; a key set here is never printed',
  },
  LOCAL_NODE_TIMEZONE: {
    check: { kind: 'timeZone' },
    default: null,
    shownDefault: "the machine's zone",
    meaning: 'IANA zone of the seeded nodes',
  },
  LLM_THREADS: {
    check: integer(1, 256),
    default: null,
    shownDefault: "the machine's cores",
    meaning:
      'threads the embedded model computes on (llama.cpp); more threads than cores made ' +
      'generation 200x slower on a 2-core machine ([embedded model](embedded-model.md))',
  },
  LLM_MMAP: {
    check: onOff,
    default: 'off',
    meaning:
      '`on` maps the weights from disk instead of reading them into memory (10x slower here)',
  },
  LLM_CONTEXT_SIZE: {
    check: integer(512, 131_072),
    default: DEFAULT_CONTEXT_SIZE,
    meaning: "tokens one sequence holds: a command set's prompt and an exchange",
  },
  LLM_PARALLEL: {
    check: integer(1, 16),
    default: 1,
    meaning: 'requests the embedded model runs at once, one context sequence each',
  },
  LLM_QUEUE: {
    check: integer(0, 64),
    default: 4,
    meaning:
      'requests that may wait beyond those running; one more is a `503 llm_busy` with ' +
      '`Retry-After`',
  },
  LLM_TOOL_GRAMMAR: {
    check: onOff,
    default: 'off',
    meaning:
      "`on` constrains a required call to the tools' JSON Schemas by grammar (costs 5-13 % a " +
      'token; [embedded model](embedded-model.md))',
  },
  LLM_TEMPERATURE: {
    check: { kind: 'number', min: 0, max: 2 },
    default: null,
    shownDefault: 'greedy (0) with MODEL_THINKING off',
    meaning:
      'how the embedded model picks tokens: 0 the likeliest (the same words, the same call); ' +
      "above 0, that temperature with Qwen3's top-p and top-k; with thinking on, unset is " +
      "Qwen3's thinking sampling (0.6)",
  },
  STT_ENGINE: {
    check: { kind: 'oneOf', values: ['sherpa', 'whisper'] },
    default: 'sherpa',
    meaning:
      'what hears when `STT_BASE_URL` is unset: `sherpa` (Moonshine on sherpa-onnx: 0.08 s of ' +
      'CPU a second of a 3 s command here) or `whisper` (whisper.cpp: 4.2 s; ' +
      '[speech in](speech.md))',
  },
  STT_THREADS: {
    // whisper.cpp's limit. On cores other work keeps busy, fewer threads can be faster.
    check: integer(1, 8),
    default: null,
    shownDefault: "the machine's cores, at most 8",
    meaning:
      'threads the embedded recognizer computes on; its threads wait for each other, so on a busy machine fewer can be faster ([benchmarks](benchmarks.md))',
  },
  ...modelCacheSettingsTable,
} as const satisfies Readonly<Record<string, TableSetting>>;

export type LocalSettingName = keyof typeof localSettings;
type LocalSettingValues = TableValues<typeof localSettings>;

/** A handler setting npm start sets when it is unset: to what, and why. */
export interface NpmStartDefault {
  /** As docs/settings.md shows it. */
  readonly default: string;
  readonly meaning: string;
}

/** Handler settings that npm start sets (or reads its own way) when they are unset, and to what. */
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
  LLM_MODEL: {
    default: hubReference(PINNED_MODELS.language),
    meaning:
      'with no OPENAI_BASE_URL and no MODEL_PROVIDER=bedrock, the model npm start runs in its ' +
      'own process: `hf:<user>/<repo>/<file>.gguf`, a path to a `.gguf`, or `none`. A pinned ' +
      'file ([models](models.md)), named or by default, is checked against its pinned SHA-256; ' +
      'any other hub file against the one the hub publishes',
  },
  STT_MODEL: {
    default: `${DEFAULT_SPEECH_MODELS.sherpa} (STT_ENGINE=whisper: ${DEFAULT_SPEECH_MODELS.whisper})`,
    meaning:
      'with no STT_BASE_URL, the model npm start hears with: for sherpa, a Moonshine folder ' +
      '(`hf:<user>/<repo>[/<folder>]` or a path); for whisper, `hf:<user>/<repo>/<file>` or a ' +
      "ggml file's path; `none` for neither. Pinned files are checked as LLM_MODEL's",
  },
} as const satisfies Partial<Record<HandlerSettingName, NpmStartDefault>>;
