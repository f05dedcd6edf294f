const PLACEHOLDERS: ReadonlySet<string> = new Set(['null', 'none', 'default', '']);

/**
 * What models send for "no value": JSON null, or "null", "None", "none", "default", "" (any case,
 * blanks around). Only ever acted on when the value is invalid for its parameter.
 */
export function isPlaceholder(value: unknown): boolean {
  return (
    value === null || (typeof value === 'string' && PLACEHOLDERS.has(value.trim().toLowerCase()))
  );
}
