import type { NormalizationPolicy, Repair } from '../normalization/repair';
import { makeIssue } from '../validation/make-issue';
import type { ValidationIssue } from '../validation/validation-issue';
import { closestEntities } from './closest-entities';
import {
  entityIdList,
  hasEntityIdForm,
  isEntityProperty,
  looseEntityKey,
  SPLIT_ID_DOMAIN_KEYS,
  SPLIT_ID_OBJECT_KEYS,
} from './entity-id-shape';
import type { KnownEntities } from './known-entities';
import { unlistedEntityIdsIn } from './unlisted-entity-redaction';

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
  /** Under a property named `entity_id` or `entity_ids` (any spelling): every string is an id. */
  readonly underEntity: boolean;
}

/** Path steps named in a repair or an issue, the last ones: arguments are bounded in bytes, not depth. */
const NAMED_PATH_STEPS = 12;
/** Unknown ids reported in one retry: the model needs the first few to correct its call. */
const REPORTED_ISSUES = 4;

/**
 * Checks every entity id of valid arguments against the node's device list, so that the node
 * never gets an entity it did not list, whatever shape the schema gives ids. An entity id is:
 * - every string under a property named `entity_id` or `entity_ids` in any spelling (`entityId`,
 *   `Entity-IDs`), at any depth: the property's own string, each string of an array or object
 *   under it (`{"id": ...}`, tuples), however deep;
 * - every string, and every object key, anywhere, that has the form of an entity id
 *   (`hasEntityIdForm`: `lock.garage_door` under `target`, or as the key of a map
 *   `{"lock.garage_door": true}`);
 * - each id of a string that lists two or more of that form (`"lock.a, light.b"`, as Home
 *   Assistant reads a comma-separated `entity_id`), or one with a stray comma, anywhere;
 * - each id of a string that holds JSON (an encoded list, a quoted id), as the value it encodes;
 * - an id split in `domain` and `object_id` (Home Assistant's names for its parts, or
 *   `entity_domain` and `entity_object_id`).
 * A listed id passes; one that differs from exactly one listed id in case, punctuation or
 * compatibility form becomes that id where it stands, a value or a key (a lossless repair, not
 * under `strict`); any other is an `unknown_entity` issue naming the closest listed ids, unless
 * the list is incomplete (a device the node did not list may exist: it passes).
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
  /** The listed id `value` stands for (itself, or its repair), or null after an issue or a pass. */
  let checkedIds = 0;
  const checkId = (value: string, parameter: () => string, keyTaken?: (id: string) => boolean) => {
    checkedIds += 1;
    if (entities.exact.has(value)) return value;
    const match = entities.byLooseKey.get(looseEntityKey(value));
    if (typeof match === 'string' && policy !== 'strict' && keyTaken?.(match) !== true) {
      repairs.push({
        command,
        parameter: parameter(),
        rule: MATCH_ENTITY_RULE,
        before: value,
        after: match,
      });
      return match;
    }
    if (!entities.complete || issues.length >= REPORTED_ISSUES) return null;
    issues.push(unknownEntity(value, parameter()));
    return null;
  };
  /** The issue that sends an unlisted id back, naming the closest listed ones. */
  const unknownEntity = (id: string, parameter: string): ValidationIssue =>
    makeIssue({
      code: 'unknown_entity',
      command,
      parameter,
      expected: 'an entity_id from the device list',
      received: id,
      validValues: closestEntities(id, entities),
      parameterType: null,
    });
  const visitor: Visitor = {
    value(node, value) {
      if (checkEmbedded(node, value)) return;
      const issuesBefore = issues.length;
      const checked = checkText(node, value);
      // An issue on the whole string already sends it back: the same id is not named twice.
      const nul = value.indexOf('\u0000');
      if (nul !== -1 && issues.length === issuesBefore) checkCString(node, value.slice(0, nul));
      if (checked === null && issues.length === issuesBefore)
        checkInText(value, () => pathText(node));
      if (checked !== null && checked !== value && node.container !== null && node.step !== null) {
        node.container[node.step] = checked;
      }
    },
    keys(node, object) {
      const renamed = new Map<string, string>();
      for (const key of Object.keys(object)) {
        if (!hasEntityIdForm(key, entities.domains)) {
          checkInText(key, () => keyPathText(node, key));
          continue;
        }
        const taken = (id: string) => Object.hasOwn(object, id) || renamed.has(id);
        const listed = checkId(key, () => keyPathText(node, key), taken);
        if (listed !== null && listed !== key) renamed.set(key, listed);
      }
      if (renamed.size > 0) renameKeys(object, renamed);
      checkSplitId(node, object);
    },
  };
  /** `text` checked as one id or a list of ids: the listed text (repaired), or null if it is none. */
  const checkText = (node: WalkNode, text: string): string | null => {
    const list = entityIdList(text, entities.domains);
    if (list !== null) {
      const each = list.map((part, index) =>
        index % 2 === 1 || part === '' ? part : (checkId(part, () => pathText(node)) ?? part),
      );
      return each.join('');
    }
    if (node.underEntity || hasEntityIdForm(text, entities.domains)) {
      return checkId(text, () => pathText(node));
    }
    return null;
  };
  /**
   * An id inside other text (`"open lock.garage_door now"`, a URL path, a Python list, ids joined
   * by `|` or `and`) reaches the node as much as one standing alone: an unlisted one is sent back.
   * Nothing inside text is repaired (a listed id miswritten there passes): the text is the model's.
   */
  const checkInText = (text: string, parameter: () => string) => {
    if (!entities.complete || issues.length >= REPORTED_ISSUES) return;
    for (const id of unlistedEntityIdsIn(text, entities)) {
      if (issues.length >= REPORTED_ISSUES) return;
      issues.push(unknownEntity(id, parameter()));
    }
  };
  /**
   * The text before a string's NUL, as a node in C reads it (`"lock.a, lock.b\u0000 now"` is two
   * ids to it): its ids are checked, unlisted ones sent back, when the string as a whole raised no
   * issue. A repair is made on the string as a whole (`checkText`), so none is recorded here.
   */
  const checkCString = (node: WalkNode, text: string) => {
    const repairsBefore = repairs.length;
    checkText(node, text);
    repairs.length = repairsBefore;
  };
  /**
   * A string holding JSON (`"[\"lock.garage_door\"]"`, `"\"lock.garage_door\""`: a model's
   * encoded list or quoted id, which a node may decode) is walked as the value it encodes, where
   * the string stands; a repair inside it writes the string again as the JSON of the repaired
   * value. True when `value` was such a string.
   */
  const checkEmbedded = (node: WalkNode, value: string): boolean => {
    const encoded = embeddedJson(value);
    if (encoded === undefined) return false;
    const box: Record<PathStep, unknown> = { [node.step ?? '']: encoded };
    const repairsBefore = repairs.length;
    const checkedBefore = checkedIds;
    walk({ ...node, value: encoded, container: box, step: node.step ?? '' }, visitor);
    // Under an entity property the string is an id itself when it encodes none (`"[]"`).
    if (node.underEntity && checkedIds === checkedBefore) return false;
    if (repairs.length > repairsBefore && node.container !== null && node.step !== null) {
      node.container[node.step] = JSON.stringify(box[node.step]);
    }
    return true;
  };
  /**
   * An id split in two properties of one object, as Home Assistant names its parts:
   * `{"domain": "lock", "object_id": "garage_door"}` is `lock.garage_door`, checked as any id; a
   * repair writes both parts of the listed id.
   */
  const checkSplitId = (node: WalkNode, object: Record<string, unknown>) => {
    const keys = Object.keys(object);
    const domainKey = keys.find((key) => SPLIT_ID_DOMAIN_KEYS.has(looseEntityKey(key)));
    const domain = domainKey === undefined ? undefined : object[domainKey];
    if (domainKey === undefined || typeof domain !== 'string') return;
    for (const objectKey of keys.filter((key) => SPLIT_ID_OBJECT_KEYS.has(looseEntityKey(key)))) {
      const objectId = object[objectKey];
      if (typeof objectId !== 'string') continue;
      const id = `${String(object[domainKey]).trim()}.${objectId.trim()}`;
      if (!hasEntityIdForm(id, entities.domains)) continue;
      const listed = checkId(id, () => `${pathText(node)}{${domainKey}, ${objectKey}}`);
      if (listed === null || listed === id) continue;
      const dot = listed.indexOf('.');
      object[domainKey] = listed.slice(0, dot);
      object[objectKey] = listed.slice(dot + 1);
    }
  };
  walk({ value: copy, step: null, container: null, parent: null, underEntity: false }, visitor);
  if (issues.length > 0) return { ok: false, issues };
  return { ok: true, arguments: repairs.length === 0 ? args : copy, repairs };
}

interface Visitor {
  /** A string of the arguments (never a key). */
  value(node: WalkNode, value: string): void;
  /** An object (not an array), before its properties are walked: its keys may be renamed. */
  keys(node: WalkNode, object: Record<string, unknown>): void;
}

/** The value a string encodes as JSON, when it is an array, an object or a quoted string. */
function embeddedJson(text: string): unknown {
  const first = text.trimStart()[0];
  if (first !== '[' && first !== '{' && first !== '"') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * Visits every string and every object from `root`, in document order. A stack, not recursion:
 * the depth of arguments is bounded only by their size (a string that encodes JSON is walked by
 * a nested walk: each level of encoding escapes its quotes again, so there are few).
 */
function walk(root: WalkNode, visitor: Visitor) {
  const stack: WalkNode[] = [root];
  for (let node = stack.pop(); node !== undefined; node = stack.pop()) {
    const { value, underEntity } = node;
    if (typeof value === 'string') {
      visitor.value(node, value);
      continue;
    }
    if (typeof value !== 'object' || value === null) continue;
    if (!Array.isArray(value)) visitor.keys(node, value as Record<string, unknown>);
    const container = value as Record<PathStep, unknown>;
    const children: [PathStep, unknown][] = Array.isArray(value)
      ? value.map((child, index) => [index, child])
      : Object.entries(value);
    for (let index = children.length - 1; index >= 0; index -= 1) {
      const [step, child] = children[index] as [PathStep, unknown];
      const named = typeof step === 'string' && isEntityProperty(step);
      stack.push({
        value: child,
        step,
        container,
        parent: node,
        underEntity: underEntity || named,
      });
    }
  }
}

/**
 * Renames keys of `object` in place, keeping their order. Properties are defined, not assigned:
 * a JSON key `__proto__` stays a plain property.
 */
function renameKeys(object: Record<string, unknown>, renamed: ReadonlyMap<string, string>) {
  const entries = Object.entries(object);
  for (const [key] of entries) delete object[key];
  for (const [key, value] of entries) {
    Object.defineProperty(object, renamed.get(key) ?? key, {
      value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
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

/** `entity_ids{"lock.garage_door"}`: the key `key` of the object at `node`. */
function keyPathText(node: WalkNode, key: string): string {
  return `${pathText(node)}{${JSON.stringify(key)}}`;
}
