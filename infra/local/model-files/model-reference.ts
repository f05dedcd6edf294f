import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { type HubFile, hubFileProblem } from './hub-file';
import { pinOf } from './pinned-models';

/** Which model a setting names: a hub file, a file on this machine, or none at all. */
export type ModelReference =
  | { readonly kind: 'hub'; readonly file: HubFile }
  | { readonly kind: 'path'; readonly path: string }
  | { readonly kind: 'none' };

const acceptedForms =
  'use hf:<user>/<repo>/<file> (a file on the hub, or HF_ENDPOINT), a path to a model file, or none';

/** A model setting that names no model; its message says which forms are accepted. */
export class ModelReferenceError extends Error {
  override readonly name = 'ModelReferenceError';
  constructor(
    readonly text: string,
    readonly problem: string,
    readonly setting: string | undefined,
    forms: string = acceptedForms,
  ) {
    super(`${setting === undefined ? '' : `${setting}: `}${problem}: ${forms}`);
  }
}

/**
 * Reads `hf:<user>/<repo>/<file>` (the file may sit in subfolders of the repository), a path to
 * an existing file (absolute, or relative to the working folder), or `none`. A hub file that is
 * pinned (pinned-models.ts, pinOf) comes with its pin, however it was named: its download is checked
 * against the pinned SHA-256 and size, never against what the hub announces. `setting` names the
 * variable in the error's message.
 */
export function parseModelReference(text: string, setting?: string): ModelReference {
  const trimmed = text.trim();
  const fail = (problem: string): never => {
    throw new ModelReferenceError(text, problem, setting);
  };
  if (trimmed === '') return fail('no model named');
  if (trimmed.toLowerCase() === 'none') return { kind: 'none' };
  if (trimmed.startsWith('hf:')) {
    const [user = '', repo = '', ...fileParts] = trimmed.slice('hf:'.length).split('/');
    if (fileParts.length === 0) return fail(`"${trimmed}" names no file of the repository`);
    const file: HubFile = { repo: `${user}/${repo}`, file: fileParts.join('/') };
    const problem = hubFileProblem(file);
    return problem === null ? { kind: 'hub', file: pinOf(file) ?? file } : fail(problem);
  }
  const path = resolve(trimmed);
  const isFile = (() => {
    try {
      return statSync(path).isFile();
    } catch {
      return false;
    }
  })();
  return isFile ? { kind: 'path', path } : fail(`no file at ${path}`);
}
