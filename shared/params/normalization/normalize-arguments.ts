import type { CompiledCommand } from '../command-set/compiled-command';
import type { JsonObject } from '../types/json-value';
import { type Evaluation, evaluateArguments } from '../validation/evaluate-arguments';
import type { ValidationIssue } from '../validation/validation-issue';
import { isPlaceholder } from './placeholder';
import { type NormalizationPolicy, type Repair, RepairRule } from './repair';
import { repairParameter } from './repair-parameter';

export interface Normalized {
  readonly arguments: JsonObject;
  readonly repairs: readonly Repair[];
  /** The issues of `arguments` after normalization (empty when they are valid). */
  readonly issues: readonly ValidationIssue[];
}

// One round repairs every failing parameter completely; a second one only runs when the lenient
// policy fills a default that was left out by the first. Bounded all the same.
const MAX_ROUNDS = 4;

/**
 * Normalizes the arguments of one call under `policy`, then validates them. Only parameters whose
 * values fail validation are touched, so a valid value is never changed; rounds repeat until one
 * changes nothing, so normalizing the result again changes nothing either. Never mutates `args`.
 */
export function normalizeArguments(
  command: CompiledCommand,
  args: JsonObject,
  policy: NormalizationPolicy,
): Normalized {
  const repairs: Repair[] = [];
  let current = args;
  let evaluation: Evaluation = evaluateArguments(command, current);
  for (let round = 0; round < MAX_ROUNDS; round += 1) {
    const before = repairs.length;
    let next = policy === 'lenient' ? withDefaults(command, current, repairs) : current;
    if (next !== current) evaluation = evaluateArguments(command, next);
    next = repairFailing(command, next, evaluation, policy, repairs);
    if (repairs.length === before) break;
    current = next;
    evaluation = evaluateArguments(command, current);
  }
  return { arguments: current, repairs, issues: evaluation.issues };
}

function repairFailing(
  command: CompiledCommand,
  args: JsonObject,
  evaluation: Evaluation,
  policy: NormalizationPolicy,
  repairs: Repair[],
): JsonObject {
  let current = args;
  for (const name of evaluation.failing) {
    const parameter = command.parameters.get(name);
    if (parameter === undefined) continue;
    const outcome = repairParameter(command.spec.name, parameter, current[name], policy, repairs);
    if (outcome.kind === 'omit') {
      current = Object.fromEntries(Object.entries(current).filter(([key]) => key !== name));
    } else if (outcome.kind === 'set') {
      current = { ...current, [name]: outcome.value };
    }
  }
  return current;
}

// A placeholder default would be dropped again at once: it is no default.
function withDefaults(command: CompiledCommand, args: JsonObject, repairs: Repair[]): JsonObject {
  let current = args;
  for (const { spec } of command.defaultedParameters) {
    if (Object.hasOwn(current, spec.name) || isPlaceholder(spec.defaultValue)) continue;
    repairs.push({
      command: command.spec.name,
      parameter: spec.name,
      rule: RepairRule.fillDefault,
      before: undefined,
      after: spec.defaultValue,
    });
    current = { ...current, [spec.name]: spec.defaultValue };
  }
  return current;
}
