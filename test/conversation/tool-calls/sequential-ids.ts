import type { IdGenerator } from '../../../shared/ports/clock';

/** Predictable ids for tests: `call_1`, `call_2`, ... in the order they are asked for. */
export function sequentialIds(): IdGenerator & { readonly issued: string[] } {
  const issued: string[] = [];
  return {
    issued,
    next(prefix: string): string {
      const id = `${prefix}${issued.length + 1}`;
      issued.push(id);
      return id;
    },
  };
}
