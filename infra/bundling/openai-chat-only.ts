/**
 * Which modules of the openai SDK the Lambda bundles keep. The handlers only ever call
 * `client.chat.completions.create` (non-streaming), `client.audio.transcriptions.create` and
 * `client.audio.speech.create`, but `new OpenAI()` constructs every resource
 * of the API, so esbuild keeps them all (about 320 KB we never run). The chat-only build keeps:
 *
 * - everything outside the API surface folders: the client, its request machinery (`core/`,
 *   `internal/`, `auth/`), errors, uploads, streaming decoders; it is what `create` runs on;
 * - in the API surface folders, only the allow-listed modules below.
 *
 * Every other module of the surface folders that a kept SDK module imports becomes a stub
 * (`notInThisBuild`). An allow-list rather than a deny-list: a resource added by an SDK upgrade is
 * stubbed without anyone touching this file.
 */
export const openAiChatOnly = {
  /** Folders of the package holding the API's resources and their helpers. */
  apiSurfaceFolders: ['resources/', 'lib/'],
  /**
   * Kept modules of those folders, as paths in the package; a trailing `/` keeps a whole folder.
   * `resources/index.mjs` re-exports every resource (as stubs) and `resources/shared.mjs` is empty.
   */
  keptModules: [
    'resources/index.mjs',
    'resources/shared.mjs',
    'resources/chat/',
    // Speech in and out (shared/adapters/speech): `audio` itself, and the two endpoints we call.
    // The uploads machinery they use (`toFile`, multipart) is outside the surface folders.
    'resources/audio/audio.mjs',
    'resources/audio/speech.mjs',
    'resources/audio/transcriptions.mjs',
  ],
  /**
   * Only ES modules are stubbed: they are what an ESM bundle of the SDK imports, and a stub must
   * export exactly the names of the module it replaces, which esbuild reads from an ES module.
   */
  stubbedExtension: '.mjs',
} as const;

/**
 * Whether `modulePath` (a path inside the openai package, `/`-separated, e.g.
 * `resources/admin/admin.mjs`) is replaced by a stub in the Lambda bundles.
 */
export function isStubbedOpenAiModule(modulePath: string): boolean {
  if (!modulePath.endsWith(openAiChatOnly.stubbedExtension)) return false;
  const inSurface = openAiChatOnly.apiSurfaceFolders.some((folder) =>
    modulePath.startsWith(folder),
  );
  if (!inSurface) return false;
  const kept = openAiChatOnly.keptModules.some((kept) =>
    kept.endsWith('/') ? modulePath.startsWith(kept) : modulePath === kept,
  );
  return !kept;
}
