import { homedir } from 'node:os';
import { isAbsolute, join, resolve, win32 } from 'node:path';
import {
  readSettingsTable,
  type TableSetting,
} from '../../../shared/adapters/config/read-settings';

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
 * The model cache's two settings: rows of npm start's settings table (local-settings.ts), read
 * here too, since `npm run model:pull` reads them as npm start does.
 */
export const modelCacheSettingsTable = {
  MODEL_CACHE_DIR: {
    check: { kind: 'text' },
    default: null,
    shownDefault: 'your cache folder: ~/.cache/jcc-serverless/models on Linux',
    meaning:
      'where downloaded model files are kept, never inside the repository (`~` is your home ' +
      'folder); unset: XDG_CACHE_HOME on Linux, ~/Library/Caches on macOS, LOCALAPPDATA on ' +
      'Windows ([models](models.md))',
  },
  HF_ENDPOINT: {
    check: { kind: 'publicHttpUrl' },
    default: 'https://huggingface.co',
    meaning:
      'the hub model files come from: a mirror or an air-gapped copy serving the same paths; ' +
      'no user or password in it (it is shown in progress lines)',
  },
} as const satisfies Readonly<Record<string, TableSetting>>;

/**
 * `MODEL_CACHE_DIR` (default: the user's cache folder, never inside the repository) and
 * `HF_ENDPOINT` (default the Hugging Face hub; a mirror or an air-gapped copy serves the same
 * paths), checked as every setting is (setting-checks.ts).
 */
export function readModelCacheSettings(
  env: Readonly<Record<string, string | undefined>>,
  host: CacheHost = { platform: process.platform, homeDir: homedir() },
): ModelCacheSettings {
  const { values, problems } = readSettingsTable(modelCacheSettingsTable, env);
  if (problems.length > 0) throw new ModelCacheSettingsError(problems.join('; '));
  const configured = values.MODEL_CACHE_DIR;
  const cacheDir =
    configured === null
      ? defaultCacheDir(env, host)
      : resolve(configured.replace(/^~(?=$|[/\\])/, host.homeDir));
  return { cacheDir, endpoint: values.HF_ENDPOINT.replace(/\/+$/, '') };
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
