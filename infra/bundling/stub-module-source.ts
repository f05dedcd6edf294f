import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { build } from 'esbuild';

/** The runtime of the stubs, bundled once however many modules are stubbed. */
export const stubRuntimePath = new URL('./not-in-this-build.ts', import.meta.url);

/** `export * from "…"` as tsc prints it: one statement per line (the SDK's ES modules are tsc output). */
const exportStarPattern = /^export \* from (["'])([^"']+)\1;?$/gm;

/**
 * The names an ES module exports, `export *` included. esbuild lists the module's own exports
 * (it parses the file, nothing runs); the modules it re-exports with `export *` are read the same
 * way, through `cache`. A missed name cannot go unnoticed: the bundle build then fails with
 * "No matching export", or with "import-is-undefined", which esbuildBuildOptions makes an error.
 */
export function exportNamesOf(
  modulePath: string,
  cache: Map<string, Promise<readonly string[]>> = new Map(),
): Promise<readonly string[]> {
  let names = cache.get(modulePath);
  if (names === undefined) {
    names = readExportNames(modulePath, cache);
    cache.set(modulePath, names);
  }
  return names;
}

async function readExportNames(
  modulePath: string,
  cache: Map<string, Promise<readonly string[]>>,
): Promise<readonly string[]> {
  const result = await build({
    entryPoints: [modulePath],
    bundle: false,
    write: false,
    format: 'esm',
    metafile: true,
    logLevel: 'silent',
  });
  const [output, ...others] = Object.values(result.metafile.outputs);
  if (output === undefined || others.length > 0) {
    throw new Error(`esbuild gave no single output for ${modulePath}`);
  }
  const names = new Set(output.exports);
  const source = await readFile(modulePath, 'utf8');
  const starred = [...source.matchAll(exportStarPattern)].map((match) =>
    resolve(dirname(modulePath), match[2] ?? ''),
  );
  for (const reexported of await Promise.all(starred.map((path) => exportNamesOf(path, cache)))) {
    // `export *` never re-exports a default.
    for (const name of reexported) if (name !== 'default') names.add(name);
  }
  return [...names].sort();
}

/** A name usable as a local binding; anything else (e.g. a string export name) is rejected. */
const identifierPattern = /^[A-Za-z_$][\w$]*$/;

/**
 * The source of a stub ES module exporting `exportNames`, each a `notInThisBuild` stand-in.
 * Each export is marked pure so that esbuild drops the stand-ins nobody imports.
 */
export function stubModuleSource(
  sdkModule: string,
  exportNames: readonly string[],
  runtimeFile: string,
): string {
  const lines = [`import { notInThisBuild } from ${JSON.stringify(runtimeFile)};`];
  const exported: string[] = [];
  for (const [index, name] of exportNames.entries()) {
    if (name !== 'default' && !identifierPattern.test(name)) {
      throw new Error(`cannot stub export ${JSON.stringify(name)} of openai/${sdkModule}`);
    }
    const local = `stub${index}`;
    const stand = `/* @__PURE__ */ notInThisBuild(${JSON.stringify(sdkModule)}, ${JSON.stringify(name)})`;
    lines.push(`const ${local} = ${stand};`);
    exported.push(`${local} as ${name}`);
  }
  lines.push(`export { ${exported.join(', ')} };`);
  return `${lines.join('\n')}\n`;
}
