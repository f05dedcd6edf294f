import { existsSync, readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { fileURLToPath } from 'node:url';

/**
 * A stack trace with the frames of a bundle (`index.mjs` in Lambda) mapped to our sources through
 * its `.map`, for the ERROR log of a 500 (a bug) only. The functions do not run with Node's
 * `--enable-source-maps`: it maps every stack formatted anywhere (a library reading the stack of
 * an error it made is enough) and then keeps the parsed map for the container's life, 87,000
 * arrays and about 10 MB, a third of a function's heap, which every major garbage collection
 * marks again (docs/decisions/2026-11-24-cost-model.md). Here the map is read for this one stack
 * and let go. Frames of other files, and a bundle without a map (`npm start` runs the sources),
 * stay as they are.
 */
export function mappedStack(stack: string, bundle: string = ownFile()): string {
  const mapFile = `${bundle}.map`;
  if (!stack.includes(bundle) || !existsSync(mapFile)) return stack;
  let map: SourceMap;
  try {
    map = new SourceMap(JSON.parse(readFileSync(mapFile, 'utf8')));
  } catch {
    return stack;
  }
  const frame = new RegExp(`(?:file://)?${escapeRegExp(bundle)}:(\\d+):(\\d+)`, 'g');
  return stack.replace(frame, (whole, line: string, column: string) => {
    const entry = map.findEntry(Number(line) - 1, Number(column) - 1);
    if (!('originalSource' in entry)) return whole;
    return `${entry.originalSource}:${entry.originalLine + 1}:${entry.originalColumn + 1}`;
  });
}

/** The file this module was bundled into: `index.mjs` in Lambda, this source under tsx. */
const ownFile = (): string => fileURLToPath(import.meta.url);

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
