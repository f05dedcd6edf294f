/** Context values from the command line arrive as strings; from cdk.json as JSON values. */
export type ContextLookup = (key: string) => unknown;

/** Loose on purpose: SNS checks the address by sending a confirmation; this catches slips. */
const emailPattern = /^[^@\s]+@[^@\s]+\.[^@\s]+$/;

/**
 * How each kind of deploy setting is read from CDK context: a missing key takes its fallback; an
 * invalid value takes it too and pushes one line to `issues` naming the key, so `cdk deploy`
 * reports every bad value at once.
 */
export function contextReader<Key extends string>(lookup: ContextLookup, issues: string[]) {
  const text = (key: Key, fallback: string): string => {
    const value = lookup(key);
    if (value === undefined) return fallback;
    if (typeof value === 'string' && value.trim() !== '') return value.trim();
    issues.push(`${key} must be a non-empty string`);
    return fallback;
  };
  const number = (key: Key, fallback: number, isValid: (n: number) => boolean) => {
    const value = lookup(key);
    if (value === undefined) return fallback;
    const parsed = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
    if (typeof parsed === 'number' && isValid(parsed)) return parsed;
    issues.push(`${key} is invalid: ${JSON.stringify(value)}`);
    return fallback;
  };
  const flag = (key: Key, fallback: boolean): boolean => {
    const value = lookup(key);
    if (value === undefined) return fallback;
    if (value === true || value === 'true') return true;
    if (value === false || value === 'false') return false;
    issues.push(`${key} must be true or false, not ${JSON.stringify(value)}`);
    return fallback;
  };
  const email = (key: Key): string | null => {
    const value = lookup(key);
    if (value === undefined || value === null || value === '') return null;
    if (typeof value === 'string' && emailPattern.test(value.trim())) return value.trim();
    issues.push(`${key} must be an e-mail address or empty, not ${JSON.stringify(value)}`);
    return null;
  };
  /** An empty string turns an optional setting off (`sttBaseUrl: ""`: no speech in). */
  const optional = (key: Key, fallback: string | null): string | null => {
    const value = lookup(key);
    if (value === undefined) return fallback;
    if (value === null || value === '') return null;
    if (typeof value === 'string' && value.trim() !== '') return value.trim();
    issues.push(`${key} must be a string (empty for none), not ${JSON.stringify(value)}`);
    return fallback;
  };
  const required = (key: Key, fallback: string): string => optional(key, fallback) ?? fallback;
  const oneOf = <T extends string>(key: Key, values: readonly T[], fallback: T): T => {
    const value = optional(key, fallback);
    if (value !== null && (values as readonly string[]).includes(value)) return value as T;
    issues.push(`${key} must be one of ${values.join(', ')}, not ${JSON.stringify(lookup(key))}`);
    return fallback;
  };
  const url = (key: Key, fallback: string | null): string | null => {
    const value = optional(key, fallback);
    if (value !== null && !URL.canParse(value)) issues.push(`${key} is not a URL: ${value}`);
    return value;
  };
  return { text, number, flag, email, optional, required, oneOf, url };
}
