import { homedir } from 'node:os';
import { isAbsolute, join, resolve, win32 } from 'node:path';

/** Where model files are cached and which hub serves them. */
export interface ModelCacheSettings {
  readonly cacheDir: string;
  /** The hub's base URL, no trailing slash. */
  readonly endpoint: string;
}

/** The machine the defaults depend on; the real one unless a test says otherwise. */
export interface CacheHost {
  readonly platform: NodeJS.Platform;
  readonly homeDir: string;
}

/** A model cache setting that cannot be used; its message names the variable. */
export class ModelCacheSettingsError extends Error {
  override readonly name = 'ModelCacheSettingsError';
}

const appFolder = 'jcc-serverless';

/**
 * `MODEL_CACHE_DIR` (default: the user's cache folder, never inside the repository) and
 * `HF_ENDPOINT` (default the Hugging Face hub; a mirror or an air-gapped copy serves the same
 * paths).
 */
export function readModelCacheSettings(
  env: Readonly<Record<string, string | undefined>>,
  host: CacheHost = { platform: process.platform, homeDir: homedir() },
): ModelCacheSettings {
  const configured = env.MODEL_CACHE_DIR?.trim();
  const cacheDir =
    configured === undefined || configured === ''
      ? defaultCacheDir(env, host)
      : resolve(configured.replace(/^~(?=$|[/\\])/, host.homeDir));
  return { cacheDir, endpoint: readEndpoint(env.HF_ENDPOINT?.trim()) };
}

function defaultCacheDir(
  env: Readonly<Record<string, string | undefined>>,
  host: CacheHost,
): string {
  if (host.platform === 'win32') {
    const localAppData = env.LOCALAPPDATA?.trim() || win32.join(host.homeDir, 'AppData', 'Local');
    return win32.join(localAppData, appFolder, 'models');
  }
  if (host.platform === 'darwin') {
    return join(host.homeDir, 'Library', 'Caches', appFolder, 'models');
  }
  // The XDG spec ignores a relative XDG_CACHE_HOME.
  const xdg = env.XDG_CACHE_HOME?.trim();
  const cacheHome = xdg && isAbsolute(xdg) ? xdg : join(host.homeDir, '.cache');
  return join(cacheHome, appFolder, 'models');
}

function readEndpoint(value: string | undefined): string {
  if (value === undefined || value === '') return 'https://huggingface.co';
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ModelCacheSettingsError(
      `HF_ENDPOINT must be an http(s) URL such as https://huggingface.co, got "${value}"`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ModelCacheSettingsError(
      `HF_ENDPOINT must be an http(s) URL such as https://huggingface.co, got "${value}"`,
    );
  }
  // Its URL is printed in progress lines and errors, and kept beside each file: never a secret.
  if (url.username !== '' || url.password !== '') {
    throw new ModelCacheSettingsError(
      'HF_ENDPOINT must not hold a user or password: the URL is shown in progress lines and errors',
    );
  }
  return value.replace(/\/+$/, '');
}
