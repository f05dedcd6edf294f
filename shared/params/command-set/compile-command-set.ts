import { type Result, success } from '../../result';
import { buildCommandSet } from './build-command-set';
import { canonicalCommandSetJson, hashCanonicalJson } from './canonical-json';
import { LeastRecentlyUsedCache } from './command-set-cache';
import type { CommandSetIssue, CommandSetSource, CompileOptions } from './command-spec';
import type { CompiledCommandSet } from './compiled-command-set';

const CACHE_CAPACITY = 100;

// Module level on purpose: a warm Lambda container compiles a node's commands once, not per request.
const cache = new LeastRecentlyUsedCache<CompiledCommandSet>(CACHE_CAPACITY);

/**
 * Compiles a conversation/start registration into one spec, OpenAI tool and validator per tool
 * name, or reports every problem at once. Cached by content hash (canonical JSON, so key order
 * does not matter) in a bounded LRU: compiling the same set again costs a hash.
 */
export function compileCommandSet(
  source: CommandSetSource,
  options: CompileOptions = {},
): Result<CompiledCommandSet, CommandSetIssue> {
  const hash = hashCanonicalJson(canonicalCommandSetJson(source));
  const reserved = options.reservedNames ?? [];
  // The same commands are compiled differently under other reserved names: part of the key.
  const key = reserved.length === 0 ? hash : `${hash}|${[...reserved].sort().join(',')}`;
  const cached = cache.get(key);
  if (cached !== undefined) return success(cached);
  const compiled = buildCommandSet(source, reserved, hash);
  if (compiled.ok) cache.set(key, compiled.value);
  return compiled;
}

/** Empties the compiled-set cache (benchmarks of cold compiles, tests). */
export function clearCommandSetCache(): void {
  cache.clear();
}
