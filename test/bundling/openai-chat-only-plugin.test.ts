import { readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { beforeAll, describe, expect, it } from 'vitest';
import { openAiChatOnlyPlugin } from '../../infra/bundling/openai-chat-only-plugin';
import { useCacheDirectories } from './cache-directory';
import { writeFakeSdk } from './fake-sdk';
import { thrownBy } from './thrown-by';

interface FakeClient {
  readonly admin: Record<string, () => unknown>;
  readonly beta: Record<string, () => unknown>;
  readonly chat: { create(): string };
}

interface FakeBundle {
  readonly Client: new () => FakeClient;
  readonly useParse: () => unknown;
  readonly useHelper: () => unknown;
  readonly useLegacy: () => Record<string, () => unknown>;
  /** The fake SDK's Admin, imported by our own code rather than by the SDK. */
  readonly DirectAdmin: new () => { list(): string };
}

const newDirectory = useCacheDirectories('jcc-fake-sdk-');
let bundle: FakeBundle;
let code: string;

beforeAll(async () => {
  const directory = realpathSync(newDirectory());
  const packageRoot = writeFakeSdk(join(directory, 'fake-openai'));
  const entry = join(directory, 'entry.mjs');
  writeFileSync(
    entry,
    `export * from ${JSON.stringify(join(packageRoot, 'client.mjs'))};
export { Admin as DirectAdmin } from ${JSON.stringify(join(packageRoot, 'resources/admin/admin.mjs'))};
`,
  );
  const outfile = join(directory, 'out', 'index.mjs');
  await build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    logLevel: 'silent',
    logOverride: { 'import-is-undefined': 'error' },
    plugins: [openAiChatOnlyPlugin(packageRoot)],
  });
  code = readFileSync(outfile, 'utf8');
  bundle = await import(pathToFileURL(outfile).href);
});

describe('openAiChatOnlyPlugin on an SDK-shaped package', () => {
  it('keeps the allow-listed chat resource, real and working', () => {
    // Prepare
    const client = new bundle.Client();

    // Act / Assess
    expect(client.chat.create()).toBe('CHAT-REAL-CODE');
  });

  it.each([
    [
      'a named import',
      () => new bundle.Client().admin.list?.(),
      'Admin',
      'resources/admin/admin.mjs',
    ],
    [
      'a namespace import through export-from',
      () => new bundle.Client().beta.list?.(),
      'Beta',
      'resources/beta/beta.mjs',
    ],
    ['a default import', () => bundle.useParse(), 'default', 'lib/helpers.mjs'],
    ['a name re-exported with export *', () => bundle.useHelper(), 'helper', 'lib/helpers.mjs'],
    ['a CommonJS require', () => bundle.useLegacy().run?.(), 'Legacy', 'lib/legacy.mjs'],
  ])(
    'stubs what the SDK reaches through %s, which throws when used',
    (_how, use, exportName, sdkModule) => {
      // Prepare / Act
      const error = thrownBy(use);

      // Assess
      expect(error).toMatchObject({ name: 'OpenAiNotInThisBuildError', sdkModule, exportName });
      expect(String(error)).toContain(`${exportName} (openai/${sdkModule}) is not in this build`);
    },
  );

  it('leaves the code of stubbed modules out of the bundle', () => {
    expect(code).not.toContain('BETA-REAL-CODE');
    expect(code).not.toContain('PARSE-REAL-CODE');
    expect(code).not.toContain('HELPER-REAL-CODE');
    expect(code).not.toContain('LEGACY-REAL-CODE');
    expect(code).toContain('CHAT-REAL-CODE');
  });

  it('never stubs a module our own code imports: what we import, we use', () => {
    // Prepare
    const admin = new bundle.DirectAdmin();

    // Act / Assess
    expect(admin.list()).toBe('ADMIN-REAL-CODE');
  });
});
