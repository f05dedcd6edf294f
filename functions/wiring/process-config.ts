import type { ApiKeySource } from '../../shared/adapters/config/api-key-source';
import { resolveApiKey } from '../../shared/adapters/config/resolve-api-key';
import { readServiceConfig, type ServiceConfig } from '../../shared/adapters/config/service-config';

/**
 * What this process was started with: the settings of its environment, read and checked once
 * (service-config.ts over the settings table), and the keys they name, each read once. The only
 * module of the handlers that reads `process.env`; the wiring gets this value.
 */
export interface ProcessConfig {
  readonly settings: ServiceConfig;
  /**
   * The key a setting names: its value, or its Secrets Manager secret read once per process (a
   * failed read is tried again on the next call); empty when there is none.
   */
  key(source: ApiKeySource | undefined): Promise<string>;
}

let config: ProcessConfig | null = null;

/**
 * The process's configuration, read from `process.env` on first use and the same value after.
 * Throws `ConfigError` listing every invalid setting (and reads again on the next call). In
 * Lambda the first use is the init, below; elsewhere (tests, `npm start`, which sets the
 * environment before its first request) the first wiring.
 */
export function processConfig(): ProcessConfig {
  config ??= readProcessConfig(process.env);
  return config;
}

/** The configuration of `env`: what `processConfig` reads from `process.env` (tests pass theirs). */
export function readProcessConfig(
  env: Readonly<Record<string, string | undefined>>,
): ProcessConfig {
  const settings = readServiceConfig(env);
  const secrets = new Map<string, Promise<string>>();
  return {
    settings,
    key: async (source) => {
      if (source === undefined) return '';
      if (source.kind === 'value') return source.value;
      let read = secrets.get(source.secretId);
      if (read === undefined) {
        read = resolveApiKey(source, settings.region);
        secrets.set(source.secretId, read);
        read.catch(() => secrets.delete(source.secretId));
      }
      return read;
    },
  };
}

/**
 * In Lambda, the settings and the model's key are read during the init (a top-level await), not
 * on the first request: an invalid setting, or a key secret missing or unreadable, then fails the
 * init with one log line (listing every problem, or naming the secret and the region) and the
 * Lambda Errors alarm fires, instead of each request answering a bare 500. Only a function told
 * where the key is reads it (the stack leaves the secret name empty for the others).
 */
async function readDuringLambdaInit(): Promise<void> {
  let read: ProcessConfig;
  try {
    read = processConfig();
  } catch (error) {
    logInitFailure(`init failed: ${messageOf(error)}`, {});
    throw error;
  }
  const { region, languageModel } = read.settings;
  const source = languageModel?.apiKey;
  if (source?.kind !== 'secret') return;
  try {
    await read.key(source);
  } catch (error) {
    logInitFailure(
      `init failed: ${messageOf(error)}. Create the secret in ${region} (docs/deploy.md), or set openAiSecretName to its name in cdk.json and deploy again`,
      { secret: source.secretId, region },
    );
    throw error;
  }
}

function logInitFailure(message: string, fields: Readonly<Record<string, string>>): void {
  console.error(JSON.stringify({ level: 'ERROR', message, ...fields }));
}

const messageOf = (error: unknown): string =>
  error instanceof Error ? error.message : String(error);

if (process.env.AWS_LAMBDA_FUNCTION_NAME) await readDuringLambdaInit();
