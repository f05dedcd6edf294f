import { createHash } from 'node:crypto';
import type { CommandSetSource } from './command-spec';

/**
 * JSON with the keys of every object sorted, so that two registrations that differ only in key
 * order read the same. Values JSON cannot hold are dropped (object members) or become null (array
 * entries), exactly as JSON.stringify treats them.
 */
export function canonicalJson(value: unknown): string {
  if (typeof value !== 'object' || value === null) return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) {
    return `[${value.map((item) => (isJsonless(item) ? 'null' : canonicalJson(item))).join(',')}]`;
  }
  const members: string[] = [];
  for (const key of Object.keys(value).sort()) {
    const member: unknown = (value as Record<string, unknown>)[key];
    if (!isJsonless(member)) members.push(`${JSON.stringify(key)}:${canonicalJson(member)}`);
  }
  return `{${members.join(',')}}`;
}

function isJsonless(value: unknown): boolean {
  return value === undefined || typeof value === 'function' || typeof value === 'symbol';
}

/** The part of a conversation/start body that defines the command set, as canonical JSON. */
export function canonicalCommandSetJson(source: CommandSetSource): string {
  return canonicalJson({
    available_commands: source.available_commands ?? [],
    client_tools: source.client_tools ?? [],
  });
}

/** SHA-256 (hex) of the canonical JSON: key order, other body fields and absent-vs-empty lists do not matter. */
export function commandSetHash(source: CommandSetSource): string {
  return hashCanonicalJson(canonicalCommandSetJson(source));
}

/** SHA-256 (hex) of canonical JSON already written, so a caller canonicalizes only once. */
export function hashCanonicalJson(canonical: string): string {
  return createHash('sha256').update(canonical).digest('hex');
}
