import { pointerOf, refPath, type SchemaNode } from './schema-walk';

/** Why the `$ref`s of a schema cannot be bounded, and the `$ref` (or schema) where it shows. */
export type RefProblem =
  | { readonly kind: 'not_local'; readonly at: string }
  | { readonly kind: 'not_a_subschema'; readonly at: string }
  | { readonly kind: 'recursive'; readonly at: string }
  | { readonly kind: 'expands_too_far'; readonly at: string; readonly found: number };

interface Ref {
  readonly at: string;
  readonly target: string;
}

/**
 * Checks that every `$ref` is a local JSON Pointer to a subschema, that following them never
 * comes back (no recursion: a recursive schema lets a small argument cost unbounded work), and
 * that the schema with every `$ref` replaced by its target has at most `maxSubschemas`
 * subschemas (a chain of `$ref`s can multiply the work without any recursion). A `$ref` into
 * data (an `enum`, an unknown keyword) is refused: the walk could not see what ajv would follow.
 */
export function refProblem(
  root: unknown,
  nodes: readonly SchemaNode[],
  maxSubschemas: number,
): RefProblem | null {
  const pointers = nodes.map((node) => pointerOf(node.path));
  const known = new Set(pointers);
  const refs: Ref[] = [];
  for (const [index, node] of nodes.entries()) {
    const ref = node.schema.$ref;
    if (ref === undefined) continue;
    const at = pointers[index] ?? '#';
    const path = typeof ref === 'string' ? refPath(ref) : null;
    if (path === null) return { kind: 'not_local', at };
    const target = pointerOf(path);
    // A target that does not exist is left to the compile step, which names it.
    if (!known.has(target) && resolves(root, path)) return { kind: 'not_a_subschema', at };
    if (known.has(target)) refs.push({ at, target });
  }
  const within = (pointer: string, root: string) =>
    pointer === root || pointer.startsWith(`${root}/`);
  const expanded = new Map<string, number>();
  const visiting = new Set<string>();
  const found: { recursion: RefProblem | null } = { recursion: null };
  // Depth-first over the targets; the chain is at most as long as the number of $refs.
  const size = (root: string): number => {
    const done = expanded.get(root);
    if (done !== undefined) return done;
    visiting.add(root);
    let total = pointers.filter((pointer) => within(pointer, root)).length;
    for (const ref of refs) {
      if (found.recursion !== null || !within(ref.at, root)) continue;
      if (visiting.has(ref.target)) {
        found.recursion = { kind: 'recursive', at: ref.at };
        break;
      }
      total += size(ref.target);
    }
    visiting.delete(root);
    expanded.set(root, total);
    return total;
  };
  const total = size('#');
  if (found.recursion !== null) return found.recursion;
  return total > maxSubschemas ? { kind: 'expands_too_far', at: '#', found: total } : null;
}

function resolves(root: unknown, path: readonly string[]): boolean {
  let current = root;
  for (const segment of path) {
    if (typeof current !== 'object' || current === null || !Object.hasOwn(current, segment))
      return false;
    current = (current as Readonly<Record<string, unknown>>)[segment];
  }
  return true;
}
