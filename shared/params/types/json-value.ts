export type JsonObject = Readonly<Record<string, unknown>>;

/** A JSON object: not null, not an array. */
export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A JSON-only deep copy (key order kept), so nothing we store aliases the caller's objects. */
export function cloneJson<T>(value: T): T {
  return value === undefined ? value : (JSON.parse(JSON.stringify(value)) as T);
}

/**
 * `object[key] = value` as an own property whatever the key: JSON.parse makes `"__proto__"` an own
 * key of the model's arguments, which assignment would take as the object's prototype instead.
 */
export function setOwn(object: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') {
    Object.defineProperty(object, key, {
      value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  } else object[key] = value;
}

/** `value` without the listed keys; key order of the rest is kept. */
export function omitKeys(value: JsonObject, keys: ReadonlySet<string>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(value).filter(([key]) => !keys.has(key)));
}

/** Freezes a JSON value and everything inside it: compiled sets are shared through the cache. */
export function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

/** A list of the strings in `value`, or null when `value` is not an array. */
export function stringList(value: unknown): string[] | null {
  if (!Array.isArray(value)) return null;
  return value.filter((item): item is string => typeof item === 'string');
}
