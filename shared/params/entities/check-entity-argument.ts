import type { NormalizationPolicy, Repair } from '../normalization/repair';
import { makeIssue } from '../validation/make-issue';
import type { ValidationIssue } from '../validation/validation-issue';
import { closestEntities } from './closest-entities';
import { type KnownEntities, looseEntityKey } from './known-entities';

/** The parameter checked against the device list: the name the node's control_device uses. */
export const ENTITY_PARAMETER = 'entity_id';
/** The repair of an id that differs from a listed one only in case or punctuation. */
export const MATCH_ENTITY_RULE = 'match_entity_ignoring_case';

export type EntityCheck =
  | {
      readonly ok: true;
      readonly arguments: Readonly<Record<string, unknown>>;
      readonly repairs: readonly Repair[];
    }
  | { readonly ok: false; readonly issue: ValidationIssue };

/**
 * Checks the `entity_id` of valid arguments against the node's device list: a listed id passes;
 * one that differs from exactly one listed id in case or punctuation becomes that id (a lossless
 * repair, not under `strict`); any other is an `unknown_entity` issue naming the closest listed
 * ids, unless the list is incomplete (a device the node did not list may exist: it passes).
 */
export function checkEntityArgument(
  command: string,
  args: Readonly<Record<string, unknown>>,
  entities: KnownEntities,
  policy: NormalizationPolicy,
): EntityCheck {
  const value = args[ENTITY_PARAMETER];
  if (typeof value !== 'string' || entities.exact.has(value)) {
    return { ok: true, arguments: args, repairs: [] };
  }
  const match = entities.byLooseKey.get(looseEntityKey(value));
  if (typeof match === 'string' && policy !== 'strict') {
    const repair = {
      command,
      parameter: ENTITY_PARAMETER,
      rule: MATCH_ENTITY_RULE,
      before: value,
      after: match,
    };
    return { ok: true, arguments: { ...args, [ENTITY_PARAMETER]: match }, repairs: [repair] };
  }
  if (!entities.complete) return { ok: true, arguments: args, repairs: [] };
  const issue = makeIssue({
    code: 'unknown_entity',
    command,
    parameter: ENTITY_PARAMETER,
    expected: 'an entity_id from the device list',
    received: value,
    validValues: closestEntities(value, entities),
    parameterType: null,
  });
  return { ok: false, issue };
}
