import { isValidTimeZone } from '../../conversation/time-zones/time-zone';

/**
 * How one environment variable is checked, each kind's message beside its check. A message
 * quotes the value only where it cannot be a secret: never a key, never a URL (it may carry
 * credentials).
 */
export type SettingCheck =
  | { readonly kind: 'integer'; readonly min: number; readonly max: number }
  /** Any finite decimal number within the bounds (`0.7`). */
  | { readonly kind: 'number'; readonly min: number; readonly max: number }
  | { readonly kind: 'oneOf'; readonly values: readonly string[] }
  | { readonly kind: 'boolean' }
  | { readonly kind: 'httpUrl' }
  /** An http(s) URL shown to people (progress lines, errors): never a user or password in it. */
  | { readonly kind: 'publicHttpUrl' }
  /** An IANA time zone (`Europe/Berlin`, `UTC`). */
  | { readonly kind: 'timeZone' }
  | { readonly kind: 'text' }
  | { readonly kind: 'secret' };

/** The value a check yields. */
export type CheckedValue<C extends SettingCheck> = C extends {
  readonly kind: 'integer' | 'number';
}
  ? number
  : C extends { readonly kind: 'oneOf'; readonly values: readonly (infer V)[] }
    ? V
    : C extends { readonly kind: 'boolean' }
      ? boolean
      : string;

export type CheckOutcome<V> =
  | { readonly ok: true; readonly value: V }
  | { readonly ok: false; readonly problem: string };

/** Checks the trimmed, non-empty text of variable `name`. */
export function checkSetting<C extends SettingCheck>(
  name: string,
  text: string,
  check: C,
): CheckOutcome<CheckedValue<C>> {
  return checkText(name, text, check) as CheckOutcome<CheckedValue<C>>;
}

function checkText(
  name: string,
  text: string,
  check: SettingCheck,
): CheckOutcome<string | number | boolean> {
  switch (check.kind) {
    case 'integer': {
      const parsed = Number(text);
      return isWithinRange(parsed, check)
        ? { ok: true, value: parsed }
        : {
            ok: false,
            problem: `${name} must be an integer from ${check.min} to ${check.max}, got "${text}"`,
          };
    }
    case 'number': {
      const parsed = Number(text);
      return Number.isFinite(parsed) && parsed >= check.min && parsed <= check.max
        ? { ok: true, value: parsed }
        : {
            ok: false,
            problem: `${name} must be a number from ${check.min} to ${check.max}, got "${text}"`,
          };
    }
    case 'oneOf': {
      const lower = text.toLowerCase();
      return check.values.includes(lower)
        ? { ok: true, value: lower }
        : {
            ok: false,
            problem: `${name} must be one of ${check.values.join(', ')}, got "${lower}"`,
          };
    }
    case 'boolean': {
      const lower = text.toLowerCase();
      if (lower === 'true' || lower === '1') return { ok: true, value: true };
      if (lower === 'false' || lower === '0') return { ok: true, value: false };
      return { ok: false, problem: `${name} must be true or false, got "${lower}"` };
    }
    case 'httpUrl':
      return /^https?:\/\//.test(text)
        ? { ok: true, value: text }
        : { ok: false, problem: `${name} must be an http(s) URL` };
    case 'publicHttpUrl': {
      const url = URL.canParse(text) ? new URL(text) : null;
      if (url === null || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
        return { ok: false, problem: `${name} must be an http(s) URL` };
      }
      return url.username === '' && url.password === ''
        ? { ok: true, value: text }
        : {
            ok: false,
            problem: `${name} must not hold a user or password: the URL is shown in progress lines and errors`,
          };
    }
    case 'timeZone':
      return isValidTimeZone(text)
        ? { ok: true, value: text }
        : {
            ok: false,
            problem: `${name} must be an IANA time zone such as Europe/Berlin, got "${text}"`,
          };
    case 'text':
    case 'secret':
      return { ok: true, value: text };
  }
}

/** Whether `value` is an integer within the check's bounds (the deploy settings use it too). */
export function isWithinRange(
  value: unknown,
  range: { readonly min: number; readonly max: number },
): value is number {
  return (
    typeof value === 'number' && Number.isInteger(value) && value >= range.min && value <= range.max
  );
}
