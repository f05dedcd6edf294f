import type { NormalizationPolicy, Repair } from '../normalization/repair';
import { makeIssue } from '../validation/make-issue';
import type { ValidationIssue } from '../validation/validation-issue';
import { closestEntities } from './closest-entities';
import { type KnownEntities, looseEntityKey } from './known-entities';

/**
 * The property names whose values are entity ids, wherever they stand in a call's arguments
 * (top level, inside objects, inside arrays of objects): the node's control_device uses the first.
 */
const ENTITY_PROPERTIES: ReadonlySet<string> = new Set(['entity_id', 'entity_ids']);
/** The repair of an id that differs from a listed one only in case or punctuation. */
export const MATCH_ENTITY_RULE = 'match_entity_ignoring_case';

export type EntityCheck =
  | {
      readonly ok: true;
      readonly arguments: Readonly<Record<string, unknown>>;
      readonly repairs: readonly Repair[];
    }
  | { readonly ok: false; readonly issues: readonly ValidationIssue[] };

type PathStep = string | number;

/** A value met in the walk: where it stands (its container and step) and whether it is an id. */
interface WalkNode {
  readonly value: unknown;
  readonly step: PathStep | null;
  readonly container: Record<PathStep, unknown> | null;
  readonly parent: WalkNode | null;
  readonly isEntity: boolean;
}

/** Path steps named in a repair or an issue, the last ones: arguments are bounded in bytes, not depth. */
const NAMED_PATH_STEPS = 12;
/** Unknown ids reported in one retry: the model needs the first few to correct its call. */
const REPORTED_ISSUES = 4;

/**
 * Checks every entity id of valid arguments against the node's device list. An entity id is
 * every string under a property named `entity_id` or `entity_ids`, at any depth: the property's
 * own string, each string of an array under it, each string of an object under it (as a schema
 * with `{"id": ...}` nests it), however deep. A listed id passes; one that differs from exactly
 * one listed id in case or punctuation becomes that id (a lossless repair, not under `strict`);
 * any other is an `unknown_entity` issue naming the closest listed ids, unless the list is
 * incomplete (a device the node did not list may exist: it passes).
 */
export function checkEntityArgument(
  command: string,
  args: Readonly<Record<string, unknown>>,
  entities: KnownEntities,
  policy: NormalizationPolicy,
): EntityCheck {
  // Walked on a copy, so that a repair is made where it stands; the caller's value is not changed.
  const copy = structuredClone(args) as Record<string, unknown>;
  const repairs: Repair[] = [];
  const issues: ValidationIssue[] = [];
  walk(copy, (node, value) => {
    if (entities.exact.has(value)) return;
    const match = entities.byLooseKey.get(looseEntityKey(value));
    if (typeof match === 'string' && policy !== 'strict') {
      if (node.container !== null && node.step !== null) node.container[node.step] = match;
      const parameter = pathText(node);
      repairs.push({ command, parameter, rule: MATCH_ENTITY_RULE, before: value, after: match });
      return;
    }
    if (!entities.complete || issues.length >= REPORTED_ISSUES) return;
    issues.push(
      makeIssue({
        code: 'unknown_entity',
        command,
        parameter: pathText(node),
        expected: 'an entity_id from the device list',
        received: value,
        validValues: closestEntities(value, entities),
        parameterType: null,
      }),
    );
  });
  if (issues.length > 0) return { ok: false, issues };
  return { ok: true, arguments: repairs.length === 0 ? args : copy, repairs };
}

/**
 * Calls `visit` for each entity id in `root`, in document order. A stack, not recursion: the
 * depth of arguments is bounded only by their size.
 */
function walk(root: Record<string, unknown>, visit: (node: WalkNode, value: string) => void) {
  const stack: WalkNode[] = [
    { value: root, step: null, container: null, parent: null, isEntity: false },
  ];
  for (let node = stack.pop(); node !== undefined; node = stack.pop()) {
    const { value, isEntity } = node;
    if (typeof value === 'string') {
      if (isEntity) visit(node, value);
      continue;
    }
    if (typeof value !== 'object' || value === null) continue;
    const container = value as Record<PathStep, unknown>;
    const children: [PathStep, unknown][] = Array.isArray(value)
      ? value.map((child, index) => [index, child])
      : Object.entries(value);
    for (let index = children.length - 1; index >= 0; index -= 1) {
      const [step, child] = children[index] as [PathStep, unknown];
      const named = typeof step === 'string' && ENTITY_PROPERTIES.has(step);
      stack.push({ value: child, step, container, parent: node, isEntity: isEntity || named });
    }
  }
}

/** `entity_id`, `entity_ids[1]`, `targets[0].entity_id.id`: where a value stands, as the model reads it. */
function pathText(node: WalkNode): string {
  const steps: PathStep[] = [];
  let truncated = false;
  for (let at: WalkNode | null = node; at !== null && at.step !== null; at = at.parent) {
    if (steps.length === NAMED_PATH_STEPS) {
      truncated = true;
      break;
    }
    steps.unshift(at.step);
  }
  const text = steps
    .map((step, index) =>
      typeof step === 'number' ? `[${step}]` : index === 0 && !truncated ? step : `.${step}`,
    )
    .join('');
  return truncated ? `…${text}` : text;
}
