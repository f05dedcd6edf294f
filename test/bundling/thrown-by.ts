/**
 * What `use` throws, or undefined. A bundle carries its own copy of every class, so its errors are
 * matched by name and fields rather than with `instanceof` (and `toThrow(Class)`).
 */
export function thrownBy(use: () => unknown): unknown {
  try {
    use();
  } catch (error) {
    return error;
  }
  return undefined;
}
