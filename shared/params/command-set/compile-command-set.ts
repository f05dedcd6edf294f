import { failure, type Result, success } from '../../result';
import { jsonExcess } from '../limits/json-excess';
import { SCHEMA_LIMITS } from '../limits/limits';
import { pointerOf } from '../limits/schema-walk';
import { buildCommandSet } from './build-command-set';
import { canonicalCommandSetJson, hashCanonicalJson } from './canonical-json';
import { CostWeightedCache } from './command-set-cache';
import type { CommandSetIssue, CommandSetSource, CompileOptions } from './command-spec';
import type { CompiledCommandSet } from './compiled-command-set';

const CACHE_CAPACITY = 100;

// Module level on purpose: a warm Lambda container compiles a node's commands once, not per request.
const cache = new CostWeightedCache<CompiledCommandSet>(CACHE_CAPACITY);

/**
 * Compiles a conversation/start registration into one spec, OpenAI tool and validator per tool
 * name, or reports every problem at once. Cached by content hash (canonical JSON, so key order
 * does not matter) in a bounded cache that weighs what each set cost to compile: compiling the
 * same set again costs a hash.
 */
export function compileCommandSet(
  source: CommandSetSource,
  options: CompileOptions = {},
): Result<CompiledCommandSet, CommandSetIssue> {
  const tooDeep = registrationTooDeep(source);
  if (tooDeep !== null) return failure([tooDeep]);
  const canonical = canonicalCommandSetJson(source);
  const hash = hashCanonicalJson(canonical);
  const reserved = options.reservedNames ?? [];
  const key = cacheKey(hash, reserved);
  const cached = cache.get(key);
  if (cached !== undefined) return success(cached);
  const compiled = buildCommandSet(source, reserved, hash);
  // The registration's size stands for its compile cost (ajv's compile and the pattern automata
  // grow with it): an expensive set is not evicted by cheap ones used after it.
  if (compiled.ok) cache.set(key, compiled.value, canonical.length);
  return compiled;
}

/**
 * The same, for a set whose content hash is already known (stored beside its source): a cache hit
 * is one map lookup, and the source is read, hashed and compiled only on a miss.
 */
export function compileKnownCommandSet(
  hash: string,
  readSource: () => CommandSetSource,
  options: CompileOptions = {},
): Result<CompiledCommandSet, CommandSetIssue> {
  const cached = cache.get(cacheKey(hash, options.reservedNames ?? []));
  return cached === undefined ? compileCommandSet(readSource(), options) : success(cached);
}

// Hashing and reading recurse into the registration: its depth is checked first, without recursion.
function registrationTooDeep(source: CommandSetSource): CommandSetIssue | null {
  const { available_commands, client_tools } = source;
  const excess = jsonExcess(
    { available_commands, client_tools },
    {
      depth: SCHEMA_LIMITS.registrationDepth,
      bytes: Number.POSITIVE_INFINITY,
      arrayItems: Number.POSITIVE_INFINITY,
    },
  );
  if (excess === null) return null;
  const [list = 'client_tools', index = '0'] = excess.path;
  const command = `${list}[${index}]`;
  return {
    code: 'schema_limit_exceeded',
    command,
    parameter: null,
    message: `${command}: the command set breaks the limit registrationDepth = ${SCHEMA_LIMITS.registrationDepth} at ${pointerOf(excess.path)}: nested ${excess.found} levels deep`,
  };
}

// The same commands are compiled differently under other reserved names: part of the key.
function cacheKey(hash: string, reserved: readonly string[]): string {
  return reserved.length === 0 ? hash : `${hash}|${[...reserved].sort().join(',')}`;
}

/** Empties the compiled-set cache (benchmarks of cold compiles, tests). */
export function clearCommandSetCache(): void {
  cache.clear();
}
