import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  ModelCacheSettingsError,
  readModelCacheSettings,
} from '../../../../infra/local/model-files';
import { repositoryRoot } from '../../../../infra/stacks/voice-routes';

const linux = { platform: 'linux', homeDir: '/home/ada' } as const;

describe('readModelCacheSettings', () => {
  it.each([
    ['Linux', linux, {}, '/home/ada/.cache/jcc-serverless/models'],
    [
      'Linux with XDG_CACHE_HOME',
      linux,
      { XDG_CACHE_HOME: '/var/cache/ada' },
      '/var/cache/ada/jcc-serverless/models',
    ],
    [
      'Linux with a relative XDG_CACHE_HOME (ignored, as the spec says)',
      linux,
      { XDG_CACHE_HOME: 'cache' },
      '/home/ada/.cache/jcc-serverless/models',
    ],
    [
      'macOS',
      { platform: 'darwin', homeDir: '/Users/ada' },
      {},
      '/Users/ada/Library/Caches/jcc-serverless/models',
    ],
    [
      'Windows',
      { platform: 'win32', homeDir: 'C:\\Users\\ada' },
      { LOCALAPPDATA: 'C:\\Users\\ada\\AppData\\Local' },
      'C:\\Users\\ada\\AppData\\Local\\jcc-serverless\\models',
    ],
    [
      'Windows without LOCALAPPDATA',
      { platform: 'win32', homeDir: 'C:\\Users\\ada' },
      {},
      'C:\\Users\\ada\\AppData\\Local\\jcc-serverless\\models',
    ],
  ] as const)('caches in the user cache folder on %s', (_platform, host, env, cacheDir) => {
    expect(readModelCacheSettings(env, host)).toEqual({
      cacheDir,
      endpoint: 'https://huggingface.co',
    });
  });

  it('never defaults to a folder inside the repository', () => {
    const { cacheDir } = readModelCacheSettings({});
    expect(cacheDir.startsWith(repositoryRoot)).toBe(false);
  });

  it('takes MODEL_CACHE_DIR as given, relative to the working folder, ~ as the home folder', () => {
    expect(readModelCacheSettings({ MODEL_CACHE_DIR: '/srv/models' }, linux).cacheDir).toBe(
      '/srv/models',
    );
    expect(readModelCacheSettings({ MODEL_CACHE_DIR: 'models' }, linux).cacheDir).toBe(
      resolve('models'),
    );
    expect(readModelCacheSettings({ MODEL_CACHE_DIR: '~/models' }, linux).cacheDir).toBe(
      join('/home/ada', 'models'),
    );
  });

  it('takes HF_ENDPOINT without its trailing slash, and refuses what is not an http(s) URL', () => {
    expect(readModelCacheSettings({ HF_ENDPOINT: 'https://hf-mirror.com/' }, linux).endpoint).toBe(
      'https://hf-mirror.com',
    );
    expect(
      readModelCacheSettings({ HF_ENDPOINT: 'http://10.0.0.5:8080/hub' }, linux).endpoint,
    ).toBe('http://10.0.0.5:8080/hub');
    for (const endpoint of ['hf-mirror.com', 'ftp://mirror/models']) {
      expect(() => readModelCacheSettings({ HF_ENDPOINT: endpoint }, linux)).toThrow(
        new ModelCacheSettingsError('HF_ENDPOINT must be an http(s) URL'),
      );
    }
  });

  it('refuses an HF_ENDPOINT that holds a user or password, without quoting it', () => {
    for (const endpoint of [
      'https://me:s3cret@mirror.example/hub',
      'https://token@mirror.example',
    ]) {
      const read = () => readModelCacheSettings({ HF_ENDPOINT: endpoint }, linux);
      expect(read).toThrow(ModelCacheSettingsError);
      expect(read).toThrow(/must not hold a user or password/);
      expect(read).not.toThrow(/s3cret|token@/);
    }
  });
});
