import {
  issueWithoutUnlistedEntityIds,
  type KnownEntities,
  repairWithoutUnlistedEntityIds,
  withoutUnlistedEntityIds,
} from '../../params';
import type { TurnOutcome } from './turn-outcome';

/**
 * A turn's outcome as the node gets it: "the node never gets an entity it did not list" holds
 * for every part of the response, not only the calls. What the model wrote (the answer, its
 * question and the name it gave it, the tool names, paths, values and parser errors of the issues
 * it was asked to correct, the repairs) names an unlisted id as `UNLISTED_ENTITY`. The calls
 * themselves were checked (check-entity-argument.ts); the model's history keeps its own words.
 */
export function outcomeForTheNode(
  outcome: TurnOutcome,
  entities: KnownEntities | null,
): TurnOutcome {
  if (entities === null || !entities.complete) return outcome;
  const text = (value: string) => withoutUnlistedEntityIds(value, entities);
  const question = outcome.validationRequest;
  return {
    ...outcome,
    assistantMessage: outcome.assistantMessage === null ? null : text(outcome.assistantMessage),
    validationRequest:
      question === null
        ? null
        : {
            ...question,
            question: text(question.question),
            parameterName: text(question.parameterName),
          },
    retries: outcome.retries.map((retry) => ({
      ...retry,
      issues: retry.issues.map((issue) => issueWithoutUnlistedEntityIds(issue, entities)),
    })),
    repairs: outcome.repairs.map((repair) => repairWithoutUnlistedEntityIds(repair, entities)),
  };
}
