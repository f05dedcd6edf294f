import { realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'esbuild';
import { isStubbedOpenAiModule } from './openai-chat-only';
import { exportNamesOf, stubModuleSource, stubRuntimePath } from './stub-module-source';

const stubNamespace = 'openai-chat-only-stub';
/** The SDK's own imports are relative (`./resources/admin/admin.mjs`); ours go through `openai`. */
const relativeImport = /^\.\.?\//;

/** The directory of the installed openai package, symbolic links resolved as esbuild does. */
export function openAiPackageRoot(): string {
  // `openai` resolves to index.js at the package root (its exports map hides package.json).
  return dirname(realpathSync(createRequire(import.meta.url).resolve('openai')));
}

/**
 * The esbuild plugin that makes the chat-only build of the openai SDK: when a module of the SDK
 * imports a module `isStubbedOpenAiModule` rejects, the import gets a generated stub exporting the
 * same names (so every named import still binds) instead of the module and everything under it.
 * Imports from our own code are never stubbed: what we import, we use.
 */
export function openAiChatOnlyPlugin(packageRoot: string = openAiPackageRoot()): Plugin {
  const runtimeFile = fileURLToPath(stubRuntimePath);
  const insidePackage = (file: string): boolean => file.startsWith(packageRoot + sep);
  const exportNames = new Map<string, Promise<readonly string[]>>();
  return {
    name: 'openai-chat-only',
    setup(build) {
      build.onResolve({ filter: relativeImport, namespace: 'file' }, (args) => {
        if (!insidePackage(args.importer)) return undefined;
        const target = resolve(args.resolveDir, args.path);
        const modulePath = relative(packageRoot, target).split(sep).join('/');
        if (!isStubbedOpenAiModule(modulePath)) return undefined;
        return { path: target, namespace: stubNamespace, pluginData: modulePath };
      });
      build.onLoad({ filter: /.*/, namespace: stubNamespace }, async (args) => {
        const modulePath = String(args.pluginData);
        const names = await exportNamesOf(args.path, exportNames);
        return {
          contents: stubModuleSource(modulePath, names, runtimeFile),
          loader: 'js',
          resolveDir: dirname(runtimeFile),
        };
      });
    },
  };
}
