import type { ParsedArguments } from './extracted-reply';
import { parseJsonLenient } from './parse-json-lenient';
import { argumentsTooLarge, bytesOver, REPLY_LIMITS } from './reply-limits';

/**
 * Turns the `arguments` of a tool call, as the model sent it, into parsed arguments: a JSON string
 * is parsed leniently; an empty string, `null` or no arguments at all mean `{}`; any other value
 * (an object, or a number the validator will reject) is taken as already parsed. Text over
 * `REPLY_LIMITS.argumentsBytes` is not parsed at all.
 */
export function parseToolArguments(raw: unknown): ParsedArguments {
  if (raw === undefined || raw === null) return { ok: true, value: {}, repaired: [] };
  if (typeof raw !== 'string') return { ok: true, value: raw, repaired: [] };
  const over = bytesOver(raw, REPLY_LIMITS.argumentsBytes);
  if (over !== null) return argumentsTooLarge(over);
  if (raw.trim() === '') return { ok: true, value: {}, repaired: [] };
  const parsed = parseJsonLenient(raw);
  if (!parsed.ok) return { ok: false, raw, reason: parsed.reason };
  return { ok: true, value: parsed.value, repaired: parsed.repaired };
}

/** Adds the repairs made to the text around the arguments (a tool call written as JSON). */
export function withOuterRepairs(
  parsed: ParsedArguments,
  outerRepairs: readonly string[],
): ParsedArguments {
  if (!parsed.ok || outerRepairs.length === 0) return parsed;
  return { ...parsed, repaired: [...new Set([...outerRepairs, ...parsed.repaired])] };
}
