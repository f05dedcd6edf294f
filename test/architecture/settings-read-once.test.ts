import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));

/**
 * The files that may read an environment variable by name, and why. Every other module gets its
 * settings from a settings table: the handlers' (shared/adapters/config/settings-table.ts, read by
 * read-settings.ts, once per process in functions/wiring/process-config.ts) or npm start's
 * (infra/local/local-settings.ts). Tests, benches and CI scripts are not scanned.
 */
const READERS: Readonly<Record<string, string>> = {
  'shared/adapters/config/read-settings.ts': 'the one reader of both settings tables',
  'functions/wiring/process-config.ts': 'AWS_LAMBDA_FUNCTION_NAME: whether to read during the init',
  'shared/adapters/tracing/xray-subsegments.ts':
    "AWS_XRAY_DAEMON_ADDRESS: the Lambda runtime's, read with the invocation's trace",
  'infra/local/model-files/model-cache-settings.ts':
    "LOCALAPPDATA, XDG_CACHE_HOME: the platform's cache folders, beside the model cache's settings",
};

/** `env.NAME` or `env[...]` read (a write or a `delete` sets what a handler then reads). */
const RAW_READ = /(?<!delete\s+(?:process\.)?)\benv\??\.[A-Z][A-Z0-9_]+\b(?!\s*=[^=])|\benv\[/;

async function sourceFiles(folder: string): Promise<string[]> {
  const entries = await readdir(join(root, folder), { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => relative(root, join(entry.parentPath, entry.name)).replaceAll('\\', '/'));
}

describe('configuration is read once, through the settings tables', () => {
  it('no module reads an environment variable by name but the readers named here', async () => {
    // Prepare
    const files = (await Promise.all(['shared', 'functions', 'infra'].map(sourceFiles))).flat();

    // Act
    const offenders: string[] = [];
    for (const file of files) {
      const code = (await readFile(join(root, file), 'utf8'))
        .split('\n')
        .filter((line) => !/^\s*(\*|\/\/|\/\*)/.test(line));
      const reads = code.filter((line) => RAW_READ.test(line));
      if (reads.length > 0 && READERS[file] === undefined) {
        offenders.push(`${file}: ${reads[0]?.trim()}`);
      }
    }

    // Assess
    expect(files.length).toBeGreaterThan(100);
    expect(offenders).toEqual([]);
  });
});
