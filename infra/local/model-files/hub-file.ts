import { join } from 'node:path';

/** One file of a model hub repository, as `hf:<user>/<repo>/<file>` names it. */
export interface HubFile {
  /** `user/repo`. */
  readonly repo: string;
  /** The file's path inside the repository; it may sit in subfolders. */
  readonly file: string;
  /** Lower-case hex; when absent, the digest the hub publishes for the file is the check. */
  readonly sha256?: string;
  readonly sizeBytes?: number;
}

/**
 * What the embedded models load: llama.cpp's GGUF, whisper.cpp's ggml, and sherpa-onnx's ONNX
 * files with their tokens' text file.
 */
export type ModelFileFormat = 'gguf' | 'ggml' | 'onnx' | 'text';

const repoPart = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;
const sha256Hex = /^[0-9a-f]{64}$/;

/** Why a hub file cannot be fetched as named; null when it can. */
export function hubFileProblem(file: HubFile): string | null {
  const repoParts = file.repo.split('/');
  if (repoParts.length !== 2 || !repoParts.every((part) => repoPart.test(part))) {
    return `"${file.repo}" is not a hub repository name (user/repo)`;
  }
  const fileParts = file.file.split('/');
  const badPart = fileParts.find(
    (part) => part === '' || part === '.' || part === '..' || /[\\\0]/.test(part),
  );
  if (badPart !== undefined) return `"${file.file}" is not a file path inside a repository`;
  if (file.sha256 !== undefined && !sha256Hex.test(file.sha256)) {
    return `"${file.sha256}" is not a SHA-256 digest (64 lower-case hex digits)`;
  }
  if (
    file.sizeBytes !== undefined &&
    !(Number.isSafeInteger(file.sizeBytes) && file.sizeBytes > 0)
  ) {
    return `${file.sizeBytes} is not a file size in bytes`;
  }
  return null;
}

/** The file as a setting names it: `hf:<user>/<repo>/<file>`. */
export function hubReference(file: HubFile): string {
  return `hf:${file.repo}/${file.file}`;
}

/** Where the hub serves the file: `<endpoint>/<user>/<repo>/resolve/main/<file>`. */
export function hubFileUrl(endpoint: string, file: HubFile): string {
  const path = file.file.split('/').map(encodeURIComponent).join('/');
  return `${endpoint.replace(/\/+$/, '')}/${file.repo}/resolve/main/${path}`;
}

/** The cache mirrors the hub's layout, so two repositories' files of one name never meet. */
export function cachedModelPath(cacheDir: string, file: HubFile): string {
  return join(cacheDir, ...file.repo.split('/'), ...file.file.split('/'));
}

/** The file's own name, as announced to people. */
export function hubFileName(file: HubFile): string {
  return file.file.split('/').at(-1) ?? file.file;
}

/**
 * The format a name promises: `.gguf` is GGUF, `.onnx` ONNX, `.txt` text; anything else
 * (whisper.cpp's `.bin` files are ggml, some newer ones GGUF) may be either GGUF or ggml.
 */
export function formatOfName(name: string): ModelFileFormat | null {
  const lower = name.toLowerCase();
  if (lower.endsWith('.gguf')) return 'gguf';
  if (lower.endsWith('.onnx')) return 'onnx';
  return lower.endsWith('.txt') ? 'text' : null;
}

/** A whisper.cpp file by its name (`.bin`), as opposed to a language model's `.gguf`. */
export function isSpeechModelName(name: string): boolean {
  return name.toLowerCase().endsWith('.bin');
}
