import { statSync } from 'node:fs';
import { access } from 'node:fs/promises';
import { join, posix, resolve } from 'node:path';
import { type EnsureModelFileOptions, ensureModelFile } from './ensure-model-file';
import { cachedModelPath, formatOfName, type HubFile, hubFileProblem } from './hub-file';
import type { ModelCacheSettings } from './model-cache-settings';
import { ModelReferenceError } from './model-reference';
import { pinOf } from './pinned-models';
import { checkModelFileFormat } from './resolve-model-file';

/**
 * A model of several files side by side (sherpa-onnx's Moonshine: four ONNX files and a tokens
 * list) as a setting names it: a folder of a hub repository, a folder on this machine, or none.
 */
export type ModelFolderReference =
  | { readonly kind: 'hub'; readonly repo: string; readonly folder: string }
  | { readonly kind: 'path'; readonly path: string }
  | { readonly kind: 'none' };

const acceptedFolderForms =
  'use hf:<user>/<repo> or hf:<user>/<repo>/<folder> (on the hub, or HF_ENDPOINT), a path to a ' +
  'folder holding the model’s files, or none';

/**
 * Reads `hf:<user>/<repo>` (the files at the repository's root), `hf:<user>/<repo>/<folder>`, a
 * path to an existing folder (absolute, or relative to the working folder), or `none`.
 */
export function parseModelFolderReference(text: string, setting?: string): ModelFolderReference {
  const trimmed = text.trim();
  const fail = (problem: string): never => {
    throw new ModelReferenceError(text, problem, setting, acceptedFolderForms);
  };
  if (trimmed === '') return fail('no model named');
  if (trimmed.toLowerCase() === 'none') return { kind: 'none' };
  if (trimmed.startsWith('hf:')) {
    const [user = '', repo = '', ...folderParts] = trimmed.slice('hf:'.length).split('/');
    const folder = folderParts.filter((part) => part !== '').join('/');
    const problem = hubFileProblem({ repo: `${user}/${repo}`, file: posix.join(folder, 'file') });
    return problem === null ? { kind: 'hub', repo: `${user}/${repo}`, folder } : fail(problem);
  }
  const path = resolve(trimmed);
  const isFolder = (() => {
    try {
      return statSync(path).isDirectory();
    } catch {
      return false;
    }
  })();
  return isFolder ? { kind: 'path', path } : fail(`no folder at ${path}`);
}

/**
 * The folder holding `names`, ready to load: on this machine once each file is there with the
 * format its name says; from the hub through the cache (each file checked against its pin,
 * pinOf, else the digest the hub publishes); null for `none`.
 */
export async function resolveModelFolder(
  reference: ModelFolderReference,
  names: readonly string[],
  settings: ModelCacheSettings,
  options: EnsureModelFileOptions & { readonly setting?: string } = {},
): Promise<string | null> {
  const { setting, ...fileOptions } = options;
  switch (reference.kind) {
    case 'none':
      return null;
    case 'hub': {
      // One file after the other: each announces its own size and progress.
      for (const name of names) {
        const file: HubFile = { repo: reference.repo, file: posix.join(reference.folder, name) };
        await ensureModelFile(pinOf(file) ?? file, settings, fileOptions);
      }
      return cachedModelPath(settings.cacheDir, { repo: reference.repo, file: reference.folder });
    }
    case 'path':
      for (const name of names) {
        const path = join(reference.path, name);
        const present = await access(path).then(
          () => true,
          () => false,
        );
        if (!present) {
          throw new ModelReferenceError(
            reference.path,
            `no ${name} in ${reference.path}`,
            setting,
            acceptedFolderForms,
          );
        }
        await checkModelFileFormat(path, formatOfName(name));
      }
      return reference.path;
  }
}
